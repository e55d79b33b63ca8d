package live

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/go-sql-driver/mysql"
	"github.com/tiform/tiform/catalog"
	"github.com/tiform/tiform/guard"
	"github.com/tiform/tiform/quote"
	"github.com/tiform/tiform/state"
	"github.com/tiform/tiform/version"
	"github.com/tiform/tiform/workload"
)

// Request says what Inspect reads. Only what is asked for is read: a request
// with no config components sends no config query at all.
type Request struct {
	// Config lists the components whose config to read (only components with
	// declarations) and, per component, the managed keys: a managed key with
	// no row on a reachable instance makes the read incomplete.
	Config []ComponentRequest
	// Variables are the managed system variables (names, any case). Empty
	// means variables are not read, unless AllVariables is set.
	Variables []string
	// AlsoVariables are read in the same statement as Variables, and only
	// when there are Variables: the values statement statistics are shown
	// with and those guards consult (guard.LiveVariables). One the server
	// does not report is neither a gap nor a note: the configuration never
	// mentioned it.
	AlsoVariables []string
	// AllVariables reads every global variable (state pull without HCL).
	AllVariables bool
	// AlsoAlone reads AlsoVariables even when no variable is managed: an
	// upgrade-impact plan compares the defaults of every variable the
	// upgrade changes (UpgradeRequest), whatever the configuration manages.
	AlsoAlone bool
	// ResourceGroups reads INFORMATION_SCHEMA.RESOURCE_GROUPS.
	ResourceGroups bool
	// Users reads user bindings from mysql.user.
	Users bool
	// Hardware reads each TiKV instance's CPUs and memory from
	// CLUSTER_HARDWARE (hardware.go): what import computes TiKV's
	// machine-dependent defaults from.
	Hardware bool
	// OnlyManagedKeys reads of each component only its managed keys (an
	// ``AND LOWER(`KEY`) IN (…)`` on the one CLUSTER_CONFIG query; a component
	// without keys is not read). Apply's reads use it: they need the values
	// the plan depends on and nothing else. A plan reads whole components,
	// because guards read related keys (the region-size family).
	OnlyManagedKeys bool
}

// ComponentRequest is one component whose config is read.
type ComponentRequest struct {
	Component state.Component
	// Keys are the managed keys: Instance "" means every instance of the
	// component must report the key; otherwise only that instance.
	Keys []ManagedKey
	// Also are keys read besides the managed ones when only managed keys are
	// read (the live values guards consult, the keys an upgrade changes the
	// default of); one that is missing is no gap. A component with Also keys
	// only is read for them.
	Also []string
}

// ManagedKey is a config key tiform manages on one instance or all of them.
type ManagedKey struct {
	Instance string
	Key      string
}

// RequestFor builds the Request a plan of d needs: of each component with
// declarations, the declared keys and the keys guards consult
// (guard.LiveConfigKeys); the declared variables; the resource groups and
// user bindings when groups are declared or dropped.
func RequestFor(d *state.DesiredCluster) Request {
	r := Request{OnlyManagedKeys: true}
	byComp := map[state.Component]*ComponentRequest{}
	for _, s := range d.Config {
		cr, ok := byComp[s.Component]
		if !ok {
			cr = &ComponentRequest{Component: s.Component, Also: guard.LiveConfigKeys(s.Component)}
			byComp[s.Component] = cr
		}
		cr.Keys = append(cr.Keys, ManagedKey{Instance: s.Instance, Key: s.Key})
	}
	for _, c := range state.Components {
		if cr, ok := byComp[c]; ok {
			r.Config = append(r.Config, *cr)
			delete(byComp, c)
		}
	}
	rest := make([]state.Component, 0, len(byComp))
	for c := range byComp {
		rest = append(rest, c)
	}
	sort.Slice(rest, func(i, j int) bool { return rest[i] < rest[j] })
	for _, c := range rest {
		r.Config = append(r.Config, *byComp[c])
	}
	for _, v := range d.Variables {
		r.Variables = append(r.Variables, v.Name)
	}
	// A plan that changes a plan-cache variable or the In-Memory Engine
	// shows statement statistics with the variables they depend on: read
	// those with the declared ones, in the same statement, rather than again
	// with the statistics (ReadStatements, StatementReader.Variables).
	if evidenceMayBeNeeded(d) {
		r.AlsoVariables = append(r.AlsoVariables, evidenceVariables()...)
	}
	// The variables guards consult ride along when variables are read at
	// all: the one statement reads a few more names, no plan sends another.
	if len(r.Variables) > 0 {
		r.AlsoVariables = append(r.AlsoVariables, guard.LiveVariables()...)
	}
	r.ResourceGroups = len(d.ResourceGroups) > 0 || d.DropUnmanagedGroups
	for _, g := range d.ResourceGroups {
		if g.Users != nil {
			r.Users = true
		}
	}
	// Dropping a group fails while users are bound to it (pingcap/tidb#40716):
	// the planner must see the bindings.
	if d.DropUnmanagedGroups {
		r.Users = true
	}
	return r
}

// SurfaceRequest is what a plan that reports unmanaged drift reads
// (planner.ReportsUnmanaged): d's own request (RequestFor: its managed keys
// and variables still make a read incomplete when missing) over every
// component's whole config, every global variable, and the TiKV hosts'
// CPUs and memory (the defaults TiKV computes from them: import's read).
// It sends the same statements as RequestFor, one per kind of value, plus
// the one hardware read, whatever the cluster's size.
func SurfaceRequest(d *state.DesiredCluster) Request {
	r := RequestFor(d)
	r.OnlyManagedKeys = false
	for _, c := range state.Components {
		found := false
		for _, cr := range r.Config {
			found = found || cr.Component == c
		}
		if !found {
			r.Config = append(r.Config, ComponentRequest{Component: c})
		}
	}
	r.AllVariables = true
	r.Hardware = true
	return r
}

// Everything is the Request that reads all a snapshot can hold: every
// component's config, every global variable, resource groups and users,
// and the TiKV hosts' CPUs and memory.
func Everything() Request {
	r := Request{AllVariables: true, ResourceGroups: true, Users: true, Hardware: true}
	for _, c := range state.Components {
		r.Config = append(r.Config, ComponentRequest{Component: c})
	}
	return r
}

// Statement texts. Inspect sends at most these, each at most once, whatever
// the number of declared settings (docs/inspection.md lists them).
const (
	stmtVersion      = "SELECT VERSION()"
	stmtTiDBVersion  = "SELECT TIDB_VERSION()"
	stmtClusterInfo  = "SELECT TYPE, INSTANCE, STATUS_ADDRESS, VERSION FROM INFORMATION_SCHEMA.CLUSTER_INFO"
	stmtWarnings     = "SHOW WARNINGS"
	stmtAllVariables = "SHOW GLOBAL VARIABLES"
	stmtGroups       = "SELECT * FROM INFORMATION_SCHEMA.RESOURCE_GROUPS"
	stmtUsers        = "SELECT User, Host, JSON_UNQUOTE(JSON_EXTRACT(User_attributes, '$.resource_group')) FROM mysql.user"
)

// configQuery is the one CLUSTER_CONFIG query: a TYPE predicate that TiDB
// pushes down, so only instances of those components are contacted (SHOW
// CONFIG would fetch every instance:
// https://docs.pingcap.com/tidb/stable/information-schema-cluster-config).
// KEY is a reserved word and is quoted. keys, when not empty, keeps only
// those keys: TiDB filters them after fetching (the same instances are
// contacted), compared in lower case as the planner compares keys.
func configQuery(comps []state.Component, keys []string) string {
	q := "SELECT TYPE, INSTANCE, `KEY`, VALUE FROM INFORMATION_SCHEMA.CLUSTER_CONFIG WHERE TYPE IN (" + quotedList(componentNames(comps)) + ")"
	if len(keys) > 0 {
		q += " AND LOWER(`KEY`) IN (" + quotedList(keys) + ")"
	}
	return q
}

func componentNames(comps []state.Component) []string {
	out := make([]string, len(comps))
	for i, c := range comps {
		out[i] = string(c)
	}
	return out
}

// quotedList is a comma-separated list of string literals.
func quotedList(vals []string) string {
	var b strings.Builder
	for i, v := range vals {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(quote.String(v))
	}
	return b.String()
}

// variablesQuery reads the named global variables in one statement.
func variablesQuery(names []string) string {
	return "SHOW GLOBAL VARIABLES WHERE Variable_name IN (" + quotedList(names) + ")"
}

// Statements returns the statements Inspect sends for req, in order,
// assuming VERSION() parses (otherwise SELECT TIDB_VERSION() follows it).
func Statements(req Request) []string {
	return append([]string{stmtVersion, stmtClusterInfo, stmtWarnings}, ValueStatements(req)...)
}

// ValueStatements returns the statements ReadValues sends for req, in order:
// those of Inspect after the version and the topology.
func ValueStatements(req Request) []string {
	var out []string
	if q := req.configQuery(); q != "" {
		out = append(out, q, stmtWarnings)
	}
	if q := req.variablesQuery(); q != "" {
		out = append(out, q, stmtWarnings)
	}
	if req.ResourceGroups {
		out = append(out, stmtGroups, stmtWarnings)
	}
	if req.Users {
		out = append(out, stmtUsers, stmtWarnings)
	}
	if req.Hardware {
		out = append(out, stmtHardware, stmtWarnings)
	}
	return out
}

// components returns the requested components, deduplicated, in request
// order (with OnlyManagedKeys, those with managed keys).
// manages reports whether the request names managed keys of component c.
func (r Request) manages(c state.Component) bool {
	for _, cr := range r.Config {
		if cr.Component == c && len(cr.Keys) > 0 {
			return true
		}
	}
	return false
}

func (r Request) components() []state.Component {
	var out []state.Component
	seen := map[state.Component]bool{}
	for _, c := range r.Config {
		if !seen[c.Component] && (!r.OnlyManagedKeys || len(c.Keys) > 0 || len(c.Also) > 0) {
			seen[c.Component] = true
			out = append(out, c.Component)
		}
	}
	return out
}

// managedKeys returns, with OnlyManagedKeys, every managed key lower-cased,
// sorted, deduplicated (nil otherwise: every key is read).
func (r Request) managedKeys() []string {
	if !r.OnlyManagedKeys {
		return nil
	}
	seen := map[string]bool{}
	var out []string
	add := func(k string) {
		key := strings.ToLower(strings.TrimSpace(k))
		if key != "" && !seen[key] {
			seen[key] = true
			out = append(out, key)
		}
	}
	for _, c := range r.Config {
		for _, k := range c.Keys {
			add(k.Key)
		}
		for _, k := range c.Also {
			add(k)
		}
	}
	sort.Strings(out)
	return out
}

// configQuery is the CLUSTER_CONFIG statement for r ("" when r reads no
// config).
func (r Request) configQuery() string {
	comps := r.components()
	if len(comps) == 0 {
		return ""
	}
	return configQuery(comps, r.managedKeys())
}

// evidenceMayBeNeeded reports whether a change of a setting d declares
// would make its plan read statement statistics (workload.NeedFor).
func evidenceMayBeNeeded(d *state.DesiredCluster) bool {
	for _, s := range d.Config {
		if workload.NeedFor(string(state.KindConfig), string(s.Component), s.Key).Any() {
			return true
		}
	}
	for _, v := range d.Variables {
		if workload.NeedFor(string(state.KindVariable), "", v.Name).Any() {
			return true
		}
	}
	return false
}

// ReadsEvidenceVariables reports whether r reads every variable statement
// statistics are shown with, so that reading the statistics need not read
// them again (StatementReader.Variables false).
func (r Request) ReadsEvidenceVariables() bool {
	if r.AllVariables {
		return true
	}
	names := r.queriedVariables()
	for _, n := range evidenceVariables() {
		if _, found := slices.BinarySearch(names, n); !found {
			return false
		}
	}
	return true
}

// variableNames returns the managed variable names, lower-cased, sorted,
// deduplicated.
func (r Request) variableNames() []string { return normalizedNames(r.Variables) }

// queriedVariables returns the names the variables statement reads: the
// managed ones and, when there are any (or AlsoAlone), AlsoVariables.
func (r Request) queriedVariables() []string {
	if len(r.Variables) == 0 && !(r.AlsoAlone && len(r.AlsoVariables) > 0) {
		return nil
	}
	return normalizedNames(append(append([]string(nil), r.Variables...), r.AlsoVariables...))
}

// normalizedNames lower-cases, sorts and deduplicates variable names.
func normalizedNames(in []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, n := range in {
		n = strings.ToLower(strings.TrimSpace(n))
		if n != "" && !seen[n] {
			seen[n] = true
			out = append(out, n)
		}
	}
	sort.Strings(out)
	return out
}

func (r Request) variablesQuery() string {
	if r.AllVariables {
		return stmtAllVariables
	}
	if names := r.queriedVariables(); len(names) > 0 {
		return variablesQuery(names)
	}
	return ""
}

// Inspect reads what req asks for from the cluster behind db, on one pinned
// connection (so that SHOW WARNINGS refers to the statement before it), with
// a constant number of statements (see Statements). What could not be read
// is recorded in Live.Gaps, never silently dropped: an
// error is returned only when the read cannot go on at all (lost connection,
// missing privilege, unreadable topology).
func Inspect(ctx context.Context, db *sql.DB, req Request) (*state.Live, error) {
	conn, err := db.Conn(ctx)
	if err != nil {
		return nil, Explain(err, OpConnect, "")
	}
	defer conn.Close()
	return InspectConn(ctx, db, conn, req)
}

// InspectConn is Inspect on a connection of db the caller holds: apply
// inspects on its own statement connection, under its lock. Live.Secure is
// whether db connects with TLS (Secure).
func InspectConn(ctx context.Context, db *sql.DB, conn *sql.Conn, req Request) (*state.Live, error) {
	l, err := inspectConn(ctx, conn, req)
	if l != nil {
		l.Secure = Secure(db)
	}
	return l, err
}

func inspectConn(ctx context.Context, conn *sql.Conn, req Request) (*state.Live, error) {
	in := &inspector{conn: conn, l: &state.Live{ReadAt: time.Now().UTC()}}
	if err := in.readTopology(ctx); err != nil {
		return nil, err
	}
	if err := in.readValues(ctx, req); err != nil {
		return nil, err
	}
	RecordGaps(in.l, req)
	return in.l, nil
}

// ReadValues reads on conn only the values req asks for (config rows,
// variables, resource groups, user bindings: the statements of
// ValueStatements), without the version and the topology, which the caller
// read before: apply's read-back, one read per kind of value for a batch of
// changes. Gaps record serious warnings; nothing else is checked (the caller
// compares what was read with what it wants on every instance it knows).
func ReadValues(ctx context.Context, conn *sql.Conn, req Request) (*state.Live, error) {
	in := &inspector{conn: conn, l: &state.Live{ReadAt: time.Now().UTC()}}
	if err := in.readValues(ctx, req); err != nil {
		return nil, err
	}
	return in.l, nil
}

type inspector struct {
	conn *sql.Conn
	l    *state.Live
}

// readTopology reads the version and the instances.
func (in *inspector) readTopology(ctx context.Context) error {
	if err := in.readVersion(ctx); err != nil {
		return err
	}
	return in.readClusterInfo(ctx)
}

// readValues reads the values req asks for, in the order of ValueStatements.
func (in *inspector) readValues(ctx context.Context, req Request) error {
	if q := req.configQuery(); q != "" {
		if err := in.readConfig(ctx, req, q); err != nil {
			return err
		}
	}
	if q := req.variablesQuery(); q != "" {
		if err := in.readVariables(ctx, q); err != nil {
			return err
		}
	}
	if req.ResourceGroups {
		if err := in.readGroups(ctx); err != nil {
			return err
		}
	}
	if req.Users {
		if err := in.readUsers(ctx); err != nil {
			return err
		}
	}
	if req.Hardware {
		if err := in.readHardware(ctx); err != nil {
			return err
		}
	}
	return nil
}

// table is a result set as text: nil cells are SQL NULL.
type table struct {
	cols []string
	rows [][]*string
}

func (in *inspector) query(ctx context.Context, op Op, q string) (*table, error) {
	rows, err := in.conn.QueryContext(ctx, q)
	if err != nil {
		return nil, Explain(err, op, "")
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return nil, Explain(err, op, "")
	}
	t := &table{cols: cols}
	cells := make([]sql.RawBytes, len(cols))
	ptrs := make([]any, len(cols))
	for i := range cells {
		ptrs[i] = &cells[i]
	}
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			return nil, Explain(err, op, "")
		}
		row := make([]*string, len(cols))
		for i, c := range cells {
			if c != nil {
				s := clipCell(c)
				row[i] = &s
			}
		}
		t.rows = append(t.rows, row)
	}
	if err := rows.Err(); err != nil {
		return nil, Explain(err, op, "")
	}
	return t, nil
}

// warning is one SHOW WARNINGS row.
type warning struct {
	Level, Code, Message string
}

func (w warning) String() string { return w.Level + " " + w.Code + ": " + w.Message }

// warnings runs SHOW WARNINGS and records every row in Live.Warnings,
// prefixed with what was being read.
func (in *inspector) warnings(ctx context.Context, what string) ([]warning, error) {
	t, err := in.query(ctx, OpReadWarnings, stmtWarnings)
	if err != nil {
		return nil, err
	}
	var out []warning
	for _, r := range t.rows {
		w := warning{Level: str(r, 0), Code: str(r, 1), Message: str(r, 2)}
		out = append(out, w)
		in.l.Warnings = append(in.l.Warnings, what+": "+w.String())
	}
	return out, nil
}

// MaxCellBytes bounds every text tiform keeps of what the cluster returns
// (a value, a name, a message, a statement): a hostile or broken server can
// send a cell of any size up to the driver's packet limit, and every report
// would carry it whole. No setting's value is near it; a longer cell is cut
// at a character boundary, with a note of its size (ClippedSuffix).
const MaxCellBytes = 64 << 10

// ClippedSuffix starts the note a clipped text ends with.
const ClippedSuffix = "… (cut by tiform: the cluster sent "

// clipBytes is b cut to MaxCellBytes (for interning: no copy when short).
func clipBytes(b []byte) []byte {
	if len(b) <= MaxCellBytes {
		return b
	}
	return []byte(clipCell(b))
}

// clipCell is a cell as tiform keeps it: at most MaxCellBytes of it.
func clipCell(b []byte) string { return Clip(string(b), MaxCellBytes) }

// Clip returns s when it is at most max bytes long, else its first max
// bytes (at a UTF-8 character boundary) followed by ClippedSuffix and the
// size it had (for a text cut before, the size the cluster sent). The one bound of text read from the cluster: live applies
// MaxCellBytes to every cell, workload a tighter one to statement texts.
func Clip(s string, max int) string {
	if len(s) <= max {
		return s
	}
	note := ClippedSuffix + sizeText(len(s)) + ")"
	if i := strings.LastIndex(s, ClippedSuffix); i >= 0 && strings.HasSuffix(s, ")") {
		s, note = s[:i], s[i:] // cut before: keep the size the cluster sent
	}
	cut := min(max, len(s))
	for cut > 0 && cut < len(s) && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + note
}

// sizeText is n bytes for a note: "30.0 MiB", "70.0 KiB".
func sizeText(n int) string {
	if n >= 1<<20 {
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	}
	return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
}

func str(r []*string, i int) string {
	if i >= len(r) || r[i] == nil {
		return ""
	}
	return *r[i]
}

// serious reports whether a warning means something was not read (Notes do not).
func serious(w warning) bool { return !strings.EqualFold(w.Level, "Note") }

// readVersion reads VERSION(), and tidb_version() when VERSION() has no
// "TiDB-" part (the server-version config overrides it:
// https://docs.pingcap.com/tidb/stable/tidb-configuration-file#server-version) or does not parse.
func (in *inspector) readVersion(ctx context.Context) error {
	t, err := in.query(ctx, OpReadTopology, stmtVersion)
	if err != nil {
		return err
	}
	if len(t.rows) == 1 {
		in.l.ServerVersion = str(t.rows[0], 0)
	}
	if strings.Contains(in.l.ServerVersion, "TiDB-") {
		if v, err := version.Parse(in.l.ServerVersion); err == nil {
			in.l.ServerVersionParsed = v
			return nil
		}
	}
	t, err = in.query(ctx, OpReadTopology, stmtTiDBVersion)
	if err != nil {
		return err
	}
	tv := ""
	if len(t.rows) == 1 {
		tv = str(t.rows[0], 0)
	}
	if v, err := version.Parse(tv); err == nil && strings.Contains(tv, "Release Version:") {
		in.l.ServerVersionParsed = v
		return nil
	}
	in.l.Notes = append(in.l.Notes, fmt.Sprintf("the TiDB version could not be parsed from VERSION() %q or TIDB_VERSION(): version-dependent checks use CLUSTER_INFO only", in.l.ServerVersion))
	return nil
}

// readClusterInfo reads every instance and parses its version
// (https://docs.pingcap.com/tidb/stable/information-schema-cluster-info). CLUSTER_INFO is hidden on TiDB Cloud Serverless: then the topology
// is unknown, SEM is set and the TiDB version comes from VERSION() alone.
func (in *inspector) readClusterInfo(ctx context.Context) error {
	t, err := in.query(ctx, OpReadTopology, stmtClusterInfo)
	if err != nil {
		if hidden(err) {
			in.l.SEM = true
			in.l.Notes = append(in.l.Notes, "INFORMATION_SCHEMA.CLUSTER_INFO is not visible (TiDB Cloud or Security Enhanced Mode): instances and their versions are unknown")
			return nil
		}
		return err
	}
	for _, r := range t.rows {
		inst := state.Instance{
			Component:     state.Component(strings.ToLower(str(r, 0))),
			Address:       str(r, 1),
			StatusAddress: str(r, 2),
			VersionText:   str(r, 3),
		}
		inst.Version = in.instanceVersion(inst)
		in.l.Instances = append(in.l.Instances, inst)
	}
	if tidbs := in.l.InstancesOf(state.TiDB); len(tidbs) == 1 {
		in.l.ConnectedInstance = tidbs[0]
	}
	ws, err := in.warnings(ctx, "CLUSTER_INFO")
	if err != nil {
		return err
	}
	for _, w := range ws {
		if serious(w) {
			in.gap(state.Gap{Kind: state.GapRead, Reason: "CLUSTER_INFO reported " + w.String() + ": the instance list may be incomplete"})
		}
	}
	return nil
}

// instanceVersion parses a CLUSTER_INFO VERSION cell. When TiDB's
// server-version is configured, CLUSTER_INFO shows it verbatim for TiDB
// (pingcap/tidb@v8.5.1:pkg/infoschema/tables.go, FormatTiDBVersion): the version
// then comes from tidb_version().
func (in *inspector) instanceVersion(inst state.Instance) version.Version {
	if inst.Component == state.TiDB && inst.VersionText == in.l.ServerVersion && !strings.Contains(in.l.ServerVersion, "TiDB-") {
		if !in.l.ServerVersionParsed.IsZero() {
			return in.l.ServerVersionParsed
		}
	}
	v, err := version.Parse(inst.VersionText)
	switch {
	case err != nil && strings.TrimSpace(inst.VersionText) == "":
		// a store PD lists without a version (the single store of a TiDB on
		// unistore): nothing to parse, not a malformed version
		in.l.Notes = append(in.l.Notes, fmt.Sprintf("%s %s reports no version in CLUSTER_INFO: version-dependent checks of %s ignore this instance", inst.Component, inst.Address, inst.Component))
		return version.Version{}
	case err != nil:
		in.l.Notes = append(in.l.Notes, fmt.Sprintf("%s %s reports version %q, which is not of the form X.Y.Z: version-dependent checks ignore this instance", inst.Component, inst.Address, inst.VersionText))
		return version.Version{}
	}
	return v
}

// hidden reports an error meaning "this table is invisible to you": 1142
// (SELECT command denied, what SEM gives for invisible tables) or 1146 (no
// such table) (pingcap/tidb@v8.5.1:pkg/util/sem/sem.go, IsInvisibleTable).
func hidden(err error) bool {
	var me *mysql.MySQLError
	if errors.As(err, &me) {
		return me.Number == 1142 || me.Number == 1146
	}
	var le *Error
	if errors.As(err, &le) {
		return le.Code == 1142 || le.Code == 1146
	}
	return false
}

// readConfig runs the one CLUSTER_CONFIG query q, keeps every instance's
// rows as rendered, and attributes warnings to instances (an unreachable
// instance is a warning and missing rows, not an error:
// https://docs.pingcap.com/tidb/stable/information-schema-cluster-config).
func (in *inspector) readConfig(ctx context.Context, req Request, q string) error {
	comps := req.components()
	rows, err := in.configRows(ctx, q)
	if err != nil {
		if hidden(err) {
			in.l.SEM = true
			for _, c := range comps {
				in.gap(state.Gap{Kind: state.GapComponent, Component: c,
					Reason: fmt.Sprintf("%s config cannot be read: INFORMATION_SCHEMA.CLUSTER_CONFIG is hidden (TiDB Cloud or Security Enhanced Mode: https://docs.pingcap.com/tidb/stable/system-variables#tidb_enable_enhanced_security)", c)})
			}
			return nil
		}
		return err
	}
	in.l.Config = append(in.l.Config, rows...)
	in.l.ConfigRead = append(in.l.ConfigRead, comps...)
	ws, err := in.warnings(ctx, "CLUSTER_CONFIG")
	if err != nil {
		return err
	}
	in.configGaps(comps, ws, req)
	return nil
}

// configRows runs the CLUSTER_CONFIG query q. Its rows are the bulk of what
// a plan reads (every key of every instance of the declared components), so
// they are scanned without the generic table's per-cell allocations: the
// component and instance of each row are shared strings.
func (in *inspector) configRows(ctx context.Context, q string) ([]state.ConfigRow, error) {
	rows, err := in.conn.QueryContext(ctx, q)
	if err != nil {
		return nil, Explain(err, OpReadConfig, "")
	}
	defer rows.Close()
	var out []state.ConfigRow
	shared := map[string]string{}
	intern := func(b []byte) string {
		if s, ok := shared[string(b)]; ok { // no allocation to look up
			return s
		}
		s := string(b)
		shared[s] = s
		return s
	}
	var typ, inst, key, val sql.RawBytes
	for rows.Next() {
		if err := rows.Scan(&typ, &inst, &key, &val); err != nil {
			return nil, Explain(err, OpReadConfig, "")
		}
		row := state.ConfigRow{
			Component: state.Component(strings.ToLower(intern(clipBytes(typ)))),
			Instance:  intern(clipBytes(inst)),
			Key:       clipCell(key),
			Value:     clipCell(val),
		}
		// A credential (TiKV's encryption master key and what it holds) is
		// kept only concealed (catalog/secret.go).
		row.Value = catalog.SettingFor(catalog.TargetConfig, string(row.Component), row.Key).Conceal(row.Value)
		out = append(out, row)
	}
	if err := rows.Err(); err != nil {
		return nil, Explain(err, OpReadConfig, "")
	}
	return out, nil
}

// configGaps names the instances of comps that returned no config rows (down
// or unreadable), with the warning that mentions them if any, and records
// the other serious warnings. When only managed keys were read, an instance
// without rows is a gap only when a warning names it: it may simply have
// none of the keys.
//
// An instance CLUSTER_INFO lists without a status address cannot be read at
// all (noStatusAddress): that is a gap only when the request manages keys of
// its component, and a note otherwise.
func (in *inspector) configGaps(comps []state.Component, ws []warning, req Request) {
	onlyKeys := req.OnlyManagedKeys
	has := map[string]bool{}
	for _, row := range in.l.Config {
		has[string(row.Component)+"\x00"+row.Instance] = true
	}
	explained := map[int]bool{}
	for _, c := range comps {
		for _, inst := range in.l.Instances {
			if inst.Component != c || has[string(c)+"\x00"+inst.Address] {
				continue
			}
			reason := fmt.Sprintf("%s %s returned no config rows (instance down or unreachable)", c, inst.Address)
			if inst.StatusAddress == "" && !in.l.SEM {
				reason = noStatusAddress(inst)
				for i, w := range ws {
					if strings.Contains(w.Message, inst.Address) {
						explained[i] = true
					}
				}
				if !req.manages(c) {
					addNote(in.l, reason)
					continue
				}
			}
			named := false
			for i, w := range ws {
				if mentions(w.Message, inst) {
					reason += ": " + w.Message
					explained[i], named = true, true
					break
				}
			}
			if named || !onlyKeys {
				in.gap(state.Gap{Kind: state.GapInstance, Component: c, Instance: inst.Address, Reason: reason})
			}
		}
	}
	for i, w := range ws {
		if serious(w) && !explained[i] {
			in.gap(state.Gap{Kind: state.GapRead, Reason: "CLUSTER_CONFIG reported " + w.String() + ": some config may not have been read"})
		}
	}
}

// mentions reports whether a warning names the instance: by service or
// status address (TiDB's warnings carry the status URL:
// pingcap/tidb@v8.5.1:pkg/executor/memtable_reader.go, fetchClusterConfig).
func mentions(msg string, inst state.Instance) bool {
	return strings.Contains(msg, inst.Address) || inst.StatusAddress != "" && strings.Contains(msg, inst.StatusAddress)
}

// readVariables reads global variables in one statement. INSTANCE-scoped
// variables are read from the connected TiDB only (https://docs.pingcap.com/tidb/stable/system-variables): they
// are listed in Live.InstanceVariables.
func (in *inspector) readVariables(ctx context.Context, q string) error {
	t, err := in.query(ctx, OpReadVariables, q)
	if err != nil {
		return err
	}
	in.l.Variables = make(map[string]string, len(t.rows))
	in.l.VariablesRead = true
	for _, r := range t.rows {
		name := strings.ToLower(str(r, 0))
		// A credential is kept only concealed (catalog/secret.go).
		in.l.Variables[name] = catalog.SettingFor(catalog.TargetVariable, "tidb", name).Conceal(str(r, 1))
		if e, ok := catalog.Variable(name); ok && e.Scope == catalog.ScopeInstance {
			in.l.InstanceVariables = append(in.l.InstanceVariables, name)
		}
	}
	sort.Strings(in.l.InstanceVariables)
	if n := instanceNote(in.l, in.l.InstanceVariables); n != "" {
		in.l.Notes = append(in.l.Notes, n)
	}
	ws, err := in.warnings(ctx, "variables")
	if err != nil {
		return err
	}
	for _, w := range ws {
		if serious(w) {
			in.gap(state.Gap{Kind: state.GapRead, Reason: "reading variables reported " + w.String()})
		}
	}
	return nil
}

// instanceNote is the note saying that INSTANCE-scoped variables were read
// from the connected TiDB only: "" when names is empty or the topology has
// one TiDB instance (there is no other to differ).
func instanceNote(l *state.Live, names []string) string {
	if len(names) == 0 || len(l.InstancesOf(state.TiDB)) == 1 {
		return ""
	}
	where := l.ConnectedInstance
	if where == "" {
		where = "the TiDB instance this connection landed on"
	}
	return fmt.Sprintf("INSTANCE-scoped variables (%s) were read from %s only; other TiDB instances may hold other values (https://docs.pingcap.com/tidb/stable/system-variables)", strings.Join(names, ", "), where)
}

// readGroups reads INFORMATION_SCHEMA.RESOURCE_GROUPS with SELECT * and maps
// columns by name: the column set differs by version (compare https://docs.pingcap.com/tidb/v8.5/information-schema-resource-groups
// with the /v7.5/ page; the exact set per version is unconfirmed).
func (in *inspector) readGroups(ctx context.Context) error {
	t, err := in.query(ctx, OpReadResourceGroups, stmtGroups)
	if err != nil {
		if hidden(err) {
			// Before v6.6 there are no resource groups
			// (https://docs.pingcap.com/tidb/stable/release-6.6.0).
			in.gap(state.Gap{Kind: state.GapRead, Key: "RESOURCE_GROUPS",
				Reason: "resource groups cannot be read: INFORMATION_SCHEMA.RESOURCE_GROUPS is not visible (" + err.Error() + "); resource control needs TiDB v6.6 or later"})
			return nil
		}
		return err
	}
	in.l.ResourceGroupsRead = true
	for _, r := range t.rows {
		row := make(map[string]*string, len(t.cols))
		for i, c := range t.cols {
			row[strings.ToUpper(c)] = r[i]
		}
		g, syntax, err := parseResourceGroup(row)
		if err != nil {
			in.gap(state.Gap{Kind: state.GapRead, Reason: "INFORMATION_SCHEMA.RESOURCE_GROUPS: " + err.Error()})
			continue
		}
		if in.l.BurstSyntax == state.BurstSyntaxUnknown {
			in.l.BurstSyntax = syntax
		}
		in.l.ResourceGroups = append(in.l.ResourceGroups, g)
	}
	ws, err := in.warnings(ctx, "RESOURCE_GROUPS")
	if err != nil {
		return err
	}
	for _, w := range ws {
		if serious(w) {
			in.gap(state.Gap{Kind: state.GapRead, Reason: "reading resource groups reported " + w.String()})
		}
	}
	return nil
}

// readUsers reads every account and its bound resource group from
// mysql.user User_attributes (https://docs.pingcap.com/tidb/stable/sql-statement-alter-user;
// the column's layout is unconfirmed by the docs), and lists each live
// group's bound users in ResourceGroup.Users.
func (in *inspector) readUsers(ctx context.Context) error {
	t, err := in.query(ctx, OpReadUsers, stmtUsers)
	if err != nil {
		return err
	}
	in.l.UsersRead = true
	for _, r := range t.rows {
		in.l.Users = append(in.l.Users, state.UserBinding{
			UserRef:       state.UserRef{User: str(r, 0), Host: str(r, 1)},
			ResourceGroup: str(r, 2),
		})
	}
	sort.Slice(in.l.Users, func(i, j int) bool {
		a, b := in.l.Users[i], in.l.Users[j]
		if a.User != b.User {
			return a.User < b.User
		}
		return a.Host < b.Host
	})
	attachUsers(in.l)
	ws, err := in.warnings(ctx, "mysql.user")
	if err != nil {
		return err
	}
	for _, w := range ws {
		if serious(w) {
			in.gap(state.Gap{Kind: state.GapRead, Reason: "reading user bindings reported " + w.String()})
		}
	}
	return nil
}

// attachUsers fills each live group's Users with the accounts whose
// User_attributes name it (resource group names are case-insensitive).
// Accounts with no resource_group attribute are not listed under `default`.
func attachUsers(l *state.Live) {
	for i := range l.ResourceGroups {
		g := &l.ResourceGroups[i]
		g.Users = nil
		name := state.GroupName(g.Name)
		for _, u := range l.Users {
			if u.ResourceGroup != "" && state.GroupName(u.ResourceGroup) == name {
				g.Users = append(g.Users, u.UserRef)
			}
		}
	}
}

func (in *inspector) gap(g state.Gap) { in.l.AddGap(g) }

// configInstances lists, in order of first appearance, the instances of c
// that returned config rows.
func configInstances(l *state.Live, c state.Component) []string {
	var out []string
	seen := map[string]bool{}
	for _, r := range l.Config {
		if r.Component == c && !seen[r.Instance] {
			seen[r.Instance] = true
			out = append(out, r.Instance)
		}
	}
	return out
}

// notes already hold what the first Check found.
func addNote(l *state.Live, note string) {
	for _, n := range l.Notes {
		if n == note {
			return
		}
	}
	l.Notes = append(l.Notes, note)
}

// absentInVersion tells a known absence from a gap: a managed key or
// variable the instance (for a variable: the lowest TiDB) does not report is
// not "could not read" but a fact when the catalog explains it — the catalog
// says it does not exist in that version, or the catalog's generated table
// covers that version and has no such setting at all. The plan shows it with
// the guards' error (TF150). Keys of versions the table does not cover stay
// gaps: their absence cannot be explained.
func absentInVersion(l *state.Live, c state.Component, instance, key string) (string, bool) {
	target, comp := catalog.TargetConfig, string(c)
	var e *catalog.Entry
	var ok bool
	if instance == "" && c == state.TiDB {
		target = catalog.TargetVariable
		e, ok = catalog.Variable(key)
	} else {
		e, ok = catalog.Config(comp, key)
	}
	var v version.Version
	if instance != "" {
		for _, in := range l.Instances {
			if in.Component == c && in.Address == instance {
				v = in.Version
			}
		}
	} else {
		v, _ = l.MinVersion(c)
		if v.IsZero() {
			v = l.ServerVersionParsed
		}
	}
	where := instance
	if where == "" {
		where = "the cluster"
	}
	switch {
	case v.IsZero():
		return "", false
	case !ok && catalog.Covers(comp, v):
		return fmt.Sprintf("%s does not report it (%s %s): %s", where, c, v.Short(), catalog.UnknownSetting(target, comp, key)), true
	case !ok || e.ExistsIn(v):
		return "", false
	}
	return fmt.Sprintf("%s does not exist on %s (%s %s; it exists in %s)", e.Address(), where, c, v, e.VersionsText()), true
}

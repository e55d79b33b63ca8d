package live

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"
	"time"

	"github.com/tiform/tiform/catalog"
	"github.com/tiform/tiform/input"
	"github.com/tiform/tiform/state"
	"github.com/tiform/tiform/version"
)

// SnapshotFormatVersion is the snapshot format this tiform writes and reads
// (docs/snapshot.md). Bump it on any incompatible change.
const SnapshotFormatVersion = 1

// Origin says what a snapshot is of and who wrote it: the cluster name
// (recorded and checked by FromSnapshot) and the tiform version that wrote
// it (recorded as tiform_version, "dev" when empty).
type Origin struct {
	Cluster     string
	ToolVersion string
}

// The DTOs below are the file format. They are separate from the state
// types on purpose: the format changes only with SnapshotFormatVersion.

type snapshotBody struct {
	FormatVersion int    `json:"format_version"`
	ToolVersion   string `json:"tiform_version"`
	Cluster       string `json:"cluster"`
	TakenAt       string `json:"taken_at"`
	ServerVersion string `json:"server_version"`
	// TiDBVersion is the text ServerVersionParsed came from: VERSION(), or
	// TIDB_VERSION() when server-version overrides VERSION(); "" if none parsed.
	TiDBVersion       string `json:"tidb_version"`
	ConnectedInstance string `json:"connected_instance"`
	SEM               bool   `json:"sem"`

	Instances []instanceDTO `json:"instances"`

	ConfigRead        []string       `json:"config_read"`
	Config            []configRowDTO `json:"config"`
	VariablesRead     bool           `json:"variables_read"`
	Variables         []variableDTO  `json:"variables"`
	InstanceVariables []string       `json:"instance_variables"`

	ResourceGroupsRead bool               `json:"resource_groups_read"`
	ResourceGroups     []resourceGroupDTO `json:"resource_groups"`
	// BurstSyntax is state.Live.BurstSyntax ("bool", "modes"; absent when
	// unknown, as in snapshots written before it was recorded).
	BurstSyntax string    `json:"burst_syntax,omitempty"`
	UsersRead   bool      `json:"users_read"`
	Users       []userDTO `json:"users"`

	Warnings   []string `json:"warnings"`
	Notes      []string `json:"notes"`
	Incomplete []gapDTO `json:"incomplete"`

	// MachinesRead and Machines: the TiKV hosts CLUSTER_HARDWARE reported
	// (omitted when not read, so that earlier snapshots keep their hash).
	MachinesRead bool         `json:"machines_read,omitempty"`
	Machines     []machineDTO `json:"machines,omitempty"`
}

type machineDTO struct {
	Instance string  `json:"instance"`
	CPU      float64 `json:"cpu"`
	Memory   uint64  `json:"memory"`
}

type snapshotFile struct {
	snapshotBody
	// ContentSHA256 is the hex SHA-256 of the compact JSON encoding of every
	// other field (snapshotBody), in this struct's field order.
	ContentSHA256 string `json:"content_sha256"`
}

type instanceDTO struct {
	Type          string `json:"type"`
	Instance      string `json:"instance"`
	StatusAddress string `json:"status_address"`
	Version       string `json:"version"`
}

type configRowDTO struct {
	Type     string `json:"type"`
	Instance string `json:"instance"`
	Key      string `json:"key"`
	Value    string `json:"value"`
}

type variableDTO struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

type resourceGroupDTO struct {
	Name       string         `json:"name"`
	RUPerSec   *int64         `json:"ru_per_sec"` // 2147483647 = UNLIMITED
	Priority   *string        `json:"priority"`
	Burstable  *string        `json:"burstable"` // OFF, MODERATED, UNLIMITED
	QueryLimit *queryLimitDTO `json:"query_limit"`
	Background *backgroundDTO `json:"background"`
	Users      []string       `json:"users"` // user@host
}

type queryLimitDTO struct {
	ExecElapsed   string `json:"exec_elapsed,omitempty"`
	ProcessedKeys *int64 `json:"processed_keys,omitempty"`
	RU            *int64 `json:"ru,omitempty"`
	Action        string `json:"action,omitempty"`
	SwitchGroup   string `json:"switch_group,omitempty"`
	Watch         string `json:"watch,omitempty"`
	WatchDuration string `json:"watch_duration,omitempty"`
}

type backgroundDTO struct {
	TaskTypes        []string `json:"task_types"`
	UtilizationLimit *int64   `json:"utilization_limit,omitempty"`
}

type userDTO struct {
	User          string `json:"user"`
	Host          string `json:"host"`
	ResourceGroup string `json:"resource_group"`
}

type gapDTO struct {
	Kind      string `json:"kind"`
	Component string `json:"component,omitempty"`
	Instance  string `json:"instance,omitempty"`
	Key       string `json:"key,omitempty"`
	Reason    string `json:"reason"`
}

// WriteSnapshot writes l as a snapshot of cluster (docs/snapshot.md): indented
// JSON with a content hash. It holds what inspection saw and nothing else: no
// DSN, user password or other credential is part of the format.
func WriteSnapshot(w io.Writer, l *state.Live, o Origin) error {
	if l == nil {
		return errors.New("live: write snapshot: no state")
	}
	body := toBody(l, o)
	sum, err := contentHash(body)
	if err != nil {
		return fmt.Errorf("live: write snapshot: %w", err)
	}
	out, err := json.MarshalIndent(snapshotFile{snapshotBody: body, ContentSHA256: sum}, "", "  ")
	if err != nil {
		return fmt.Errorf("live: write snapshot: %w", err)
	}
	if _, err := w.Write(append(out, '\n')); err != nil {
		return fmt.Errorf("live: write snapshot: %w", err)
	}
	return nil
}

func contentHash(b snapshotBody) (string, error) {
	data, err := json.Marshal(b)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:]), nil
}

// ReadSnapshot reads a snapshot file written by WriteSnapshot, verifies its
// content hash and returns the state it holds, with Offline set (path, time
// taken, hash, cluster). A file edited by hand, truncated, of another format
// version, or with unknown fields is refused with an error saying so.
func ReadSnapshot(path string) (*state.Live, error) {
	data, err := input.ReadFile(path, input.Plan)
	if err != nil {
		return nil, fmt.Errorf("live: read snapshot: %w", err)
	}
	// Check the format version before anything else, so a newer file gets a
	// clear message rather than an unknown-field error.
	var head struct {
		FormatVersion *int `json:"format_version"`
	}
	if err := json.Unmarshal(data, &head); err != nil {
		return nil, fmt.Errorf("live: read snapshot %s: not valid JSON: %w", path, err)
	}
	if head.FormatVersion == nil {
		return nil, fmt.Errorf("live: read snapshot %s: no format_version: not a tiform snapshot", path)
	}
	if *head.FormatVersion != SnapshotFormatVersion {
		return nil, fmt.Errorf("live: read snapshot %s: format_version %d is not supported (this tiform reads %d); pull the snapshot again with this tiform", path, *head.FormatVersion, SnapshotFormatVersion)
	}
	var file snapshotFile
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&file); err != nil {
		return nil, fmt.Errorf("live: read snapshot %s: %w", path, err)
	}
	sum, err := contentHash(file.snapshotBody)
	if err != nil {
		return nil, fmt.Errorf("live: read snapshot %s: %w", path, err)
	}
	if file.ContentSHA256 == "" || sum != file.ContentSHA256 {
		return nil, fmt.Errorf("live: read snapshot %s: content hash mismatch (file says %q, content hashes to %q): the file was modified after it was written; pull a new snapshot instead of editing one", path, file.ContentSHA256, sum)
	}
	l, err := fromBody(file.snapshotBody)
	if err != nil {
		return nil, fmt.Errorf("live: read snapshot %s: %w", path, err)
	}
	l.Offline = &state.SnapshotInfo{Path: path, TakenAt: l.ReadAt, Hash: sum, Cluster: file.Cluster, ToolVersion: file.ToolVersion}
	return l, nil
}

func toBody(l *state.Live, o Origin) snapshotBody {
	tool := o.ToolVersion
	if tool == "" {
		tool = "dev"
	}
	b := snapshotBody{
		FormatVersion:      SnapshotFormatVersion,
		ToolVersion:        tool,
		Cluster:            o.Cluster,
		TakenAt:            l.ReadAt.UTC().Format(time.RFC3339Nano),
		ServerVersion:      l.ServerVersion,
		TiDBVersion:        l.ServerVersionParsed.Raw,
		ConnectedInstance:  l.ConnectedInstance,
		SEM:                l.SEM,
		Instances:          []instanceDTO{},
		ConfigRead:         []string{},
		Config:             []configRowDTO{},
		VariablesRead:      l.VariablesRead,
		Variables:          []variableDTO{},
		InstanceVariables:  append([]string{}, l.InstanceVariables...),
		ResourceGroupsRead: l.ResourceGroupsRead,
		ResourceGroups:     []resourceGroupDTO{},
		BurstSyntax:        string(l.BurstSyntax),
		UsersRead:          l.UsersRead,
		Users:              []userDTO{},
		Warnings:           append([]string{}, l.Warnings...),
		Notes:              append([]string{}, l.Notes...),
		Incomplete:         []gapDTO{},
	}
	for _, in := range l.Instances {
		b.Instances = append(b.Instances, instanceDTO{Type: string(in.Component), Instance: in.Address, StatusAddress: in.StatusAddress, Version: in.VersionText})
	}
	for _, c := range l.ConfigRead {
		b.ConfigRead = append(b.ConfigRead, string(c))
	}
	for _, r := range l.Config {
		b.Config = append(b.Config, configRowDTO{Type: string(r.Component), Instance: r.Instance, Key: r.Key, Value: r.Value})
	}
	names := make([]string, 0, len(l.Variables))
	for n := range l.Variables {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		b.Variables = append(b.Variables, variableDTO{Name: n, Value: l.Variables[n]})
	}
	for _, g := range l.ResourceGroups {
		d := resourceGroupDTO{Name: g.Name, RUPerSec: g.RUPerSec, Priority: g.Priority, Burstable: g.Burstable, Users: []string{}}
		if q := g.QueryLimit; q != nil {
			d.QueryLimit = &queryLimitDTO{ExecElapsed: q.ExecElapsed, ProcessedKeys: q.ProcessedKeys, RU: q.RU, Action: q.Action,
				SwitchGroup: q.SwitchGroup, Watch: q.Watch, WatchDuration: q.WatchDuration}
		}
		if bg := g.Background; bg != nil {
			d.Background = &backgroundDTO{TaskTypes: append([]string{}, bg.TaskTypes...), UtilizationLimit: bg.UtilizationLimit}
		}
		for _, u := range g.Users {
			d.Users = append(d.Users, u.String())
		}
		b.ResourceGroups = append(b.ResourceGroups, d)
	}
	for _, u := range l.Users {
		b.Users = append(b.Users, userDTO{User: u.User, Host: u.Host, ResourceGroup: u.ResourceGroup})
	}
	for _, g := range l.Gaps {
		b.Incomplete = append(b.Incomplete, gapDTO{Kind: string(g.Kind), Component: string(g.Component), Instance: g.Instance, Key: g.Key, Reason: g.Reason})
	}
	b.MachinesRead = l.MachinesRead
	addrs := make([]string, 0, len(l.Machines))
	for a := range l.Machines {
		addrs = append(addrs, a)
	}
	sort.Strings(addrs)
	for _, a := range addrs {
		m := l.Machines[a]
		b.Machines = append(b.Machines, machineDTO{Instance: a, CPU: m.CPU, Memory: m.Memory})
	}
	return b
}

func fromBody(b snapshotBody) (*state.Live, error) {
	taken, err := time.Parse(time.RFC3339Nano, b.TakenAt)
	if err != nil {
		return nil, fmt.Errorf("taken_at %q is not an RFC 3339 time", b.TakenAt)
	}
	l := &state.Live{
		ReadAt:             taken,
		ServerVersion:      b.ServerVersion,
		ConnectedInstance:  b.ConnectedInstance,
		SEM:                b.SEM,
		VariablesRead:      b.VariablesRead,
		ResourceGroupsRead: b.ResourceGroupsRead,
		UsersRead:          b.UsersRead,
		BurstSyntax:        state.BurstSyntax(b.BurstSyntax),
		MachinesRead:       b.MachinesRead,
		InstanceVariables:  nilIfEmpty(b.InstanceVariables),
		Warnings:           nilIfEmpty(b.Warnings),
		Notes:              nilIfEmpty(b.Notes),
	}
	switch l.BurstSyntax {
	case state.BurstSyntaxUnknown, state.BurstSyntaxBool, state.BurstSyntaxModes:
	default:
		return nil, fmt.Errorf("burst_syntax %q is not bool or modes", b.BurstSyntax)
	}
	if b.TiDBVersion != "" {
		v, err := version.Parse(b.TiDBVersion)
		if err != nil {
			return nil, fmt.Errorf("tidb_version: %w", err)
		}
		l.ServerVersionParsed = v
	}
	for _, in := range b.Instances {
		if in.Type == "" || in.Instance == "" {
			return nil, fmt.Errorf("instance entry without type or instance")
		}
		v, _ := version.Parse(in.Version) // unparseable stays zero, as Inspect leaves it
		l.Instances = append(l.Instances, state.Instance{Component: state.Component(in.Type), Address: in.Instance,
			StatusAddress: in.StatusAddress, VersionText: in.Version, Version: v})
	}
	for _, c := range b.ConfigRead {
		l.ConfigRead = append(l.ConfigRead, state.Component(c))
	}
	// A credential in a snapshot written before secrets were concealed is
	// concealed as it is read, as Inspect conceals it (catalog/secret.go).
	for _, r := range b.Config {
		l.Config = append(l.Config, state.ConfigRow{Component: state.Component(r.Type), Instance: r.Instance, Key: r.Key,
			Value: catalog.SettingFor(catalog.TargetConfig, r.Type, r.Key).Conceal(r.Value)})
	}
	if b.VariablesRead {
		l.Variables = make(map[string]string, len(b.Variables))
		for _, v := range b.Variables {
			l.Variables[v.Name] = catalog.SettingFor(catalog.TargetVariable, "tidb", v.Name).Conceal(v.Value)
		}
	}
	for _, d := range b.ResourceGroups {
		if d.Name == "" {
			return nil, fmt.Errorf("resource group without a name")
		}
		g := state.ResourceGroup{Name: d.Name, RUPerSec: d.RUPerSec, Priority: d.Priority, Burstable: d.Burstable}
		if q := d.QueryLimit; q != nil {
			g.QueryLimit = &state.QueryLimit{ExecElapsed: q.ExecElapsed, ProcessedKeys: q.ProcessedKeys, RU: q.RU, Action: q.Action,
				SwitchGroup: q.SwitchGroup, Watch: q.Watch, WatchDuration: q.WatchDuration}
		}
		if bg := d.Background; bg != nil {
			g.Background = &state.Background{TaskTypes: bg.TaskTypes, UtilizationLimit: bg.UtilizationLimit}
			if g.Background.TaskTypes == nil {
				g.Background.TaskTypes = []string{}
			}
		}
		for _, u := range d.Users {
			ref, err := parseUserRef(u)
			if err != nil {
				return nil, fmt.Errorf("resource group %s: %w", d.Name, err)
			}
			g.Users = append(g.Users, ref)
		}
		l.ResourceGroups = append(l.ResourceGroups, g)
	}
	for _, u := range b.Users {
		l.Users = append(l.Users, state.UserBinding{UserRef: state.UserRef{User: u.User, Host: u.Host}, ResourceGroup: u.ResourceGroup})
	}
	for _, g := range b.Incomplete {
		if g.Reason == "" {
			return nil, fmt.Errorf("incomplete entry without a reason")
		}
		l.Gaps = append(l.Gaps, state.Gap{Kind: state.GapKind(g.Kind), Component: state.Component(g.Component), Instance: g.Instance, Key: g.Key, Reason: g.Reason})
	}
	for _, m := range b.Machines {
		if m.Instance == "" || m.CPU < 0 {
			return nil, fmt.Errorf("machine entry without instance, or with a negative CPU count")
		}
		if l.Machines == nil {
			l.Machines = map[string]state.Machine{}
		}
		l.Machines[strings.ToLower(m.Instance)] = state.Machine{CPU: m.CPU, Memory: m.Memory}
	}
	return l, nil
}

// parseUserRef splits "user@host" at the last '@' (user names may contain '@').
func parseUserRef(s string) (state.UserRef, error) {
	for i := len(s) - 1; i >= 0; i-- {
		if s[i] == '@' {
			return state.UserRef{User: s[:i], Host: s[i+1:]}, nil
		}
	}
	return state.UserRef{}, fmt.Errorf("user %q is not user@host", s)
}

func nilIfEmpty(s []string) []string {
	if len(s) == 0 {
		return nil
	}
	return s
}

// FromSnapshot reads the snapshot at path for a plan of cluster with request
// req: ReadSnapshot, then a refusal if the snapshot was pulled for another
// cluster, then RecordGaps(l, req) so that whatever req manages and the snapshot
// lacks becomes a gap. cluster "" skips the name check.
func FromSnapshot(path, cluster string, req Request) (*state.Live, error) {
	l, err := ReadSnapshot(path)
	if err != nil {
		return nil, err
	}
	if cluster != "" && l.Offline.Cluster != cluster {
		return nil, fmt.Errorf("live: snapshot %s was pulled for cluster %q, not %q: pull one for %q (tiform state pull --cluster %s)", path, l.Offline.Cluster, cluster, cluster, cluster)
	}
	if !req.AllVariables {
		narrowInstanceNote(l, req)
	}
	RecordGaps(l, req)
	return l, nil
}

// narrowInstanceNote restricts the snapshot's note about INSTANCE-scoped
// variables to the variables req manages, as a live read for req would have
// written it (state pull reads every variable; a plan reads its own).
func narrowInstanceNote(l *state.Live, req Request) {
	old := instanceNote(l, l.InstanceVariables)
	managed := map[string]bool{}
	for _, n := range req.variableNames() {
		managed[n] = true
	}
	var names []string
	for _, n := range l.InstanceVariables {
		if managed[n] {
			names = append(names, n)
		}
	}
	notes := l.Notes[:0:0]
	for _, n := range l.Notes {
		if n == old && old != "" {
			if nn := instanceNote(l, names); nn != "" {
				notes = append(notes, nn)
			}
			continue
		}
		notes = append(notes, n)
	}
	l.Notes = notes
}

package applier

import (
	"context"
	"database/sql"
	"fmt"
	"regexp"
	"strings"

	"github.com/tiform/tiform/live"
	"github.com/tiform/tiform/planner"
	"github.com/tiform/tiform/plans"
	"github.com/tiform/tiform/quote"
	"github.com/tiform/tiform/state"
	"github.com/tiform/tiform/version"
)

// Absent is the value recorded for a setting that does not exist (a resource
// group not created, a config row missing). It matches planner.Dependency's
// "<absent>" convention.
const Absent = plans.Absent

// session is what apply needs from a connection; *sql.Conn implements it.
type session interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

// instanceInfo is one CLUSTER_INFO row (tidb-facts.md §1.4).
type instanceInfo struct {
	Component state.Component
	Address   string
	Status    string
	Version   string
}

// readTopology reads CLUSTER_INFO: which instances exist and their status
// addresses, used to attribute SET CONFIG warnings (which name the status URL,
// §2.3) to instances and to know which instances a read-back must cover.
func readTopology(ctx context.Context, s session) ([]instanceInfo, error) {
	rows, err := s.QueryContext(ctx, "SELECT TYPE, INSTANCE, STATUS_ADDRESS, VERSION FROM INFORMATION_SCHEMA.CLUSTER_INFO")
	if err != nil {
		return nil, fmt.Errorf("applier: read CLUSTER_INFO: %w", err)
	}
	defer rows.Close()
	var out []instanceInfo
	for rows.Next() {
		var t, in string
		var st, v sql.NullString
		if err := rows.Scan(&t, &in, &st, &v); err != nil {
			return nil, fmt.Errorf("applier: read CLUSTER_INFO: %w", err)
		}
		out = append(out, instanceInfo{Component: state.Component(strings.ToLower(t)), Address: in, Status: st.String, Version: v.String})
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("applier: read CLUSTER_INFO: %w", err)
	}
	return out, nil
}

func instancesOf(topo []instanceInfo, c state.Component) []string {
	var out []string
	for _, in := range topo {
		if in.Component == c {
			out = append(out, in.Address)
		}
	}
	return out
}

// reading is what one read of an address found.
type reading struct {
	// addr is the address read.
	addr state.Address
	// values holds the value per instance as the cluster printed it ("" for
	// values that are cluster-wide: variables, resource groups, users). A
	// config item missing on an instance is absent from the map; a missing
	// cluster-wide value reads as Absent.
	values map[string]string
	// group is a resource group as read (nil: it does not exist), and tidb
	// the TiDB version whose vocabulary its options are compared in.
	group *state.ResourceGroup
	tidb  version.Version
}

// readValues reads the value at a (a config item: on its instance, or on
// every instance of its component). Config and variables are read on s (the
// apply connection); resource groups and users through live.Inspect on db,
// so they are parsed exactly as the plan's were.
func readValues(ctx context.Context, s session, db *sql.DB, a state.Address) (r reading, err error) {
	defer func() { r.addr = a }()
	switch a.Kind {
	case state.KindConfig:
		v, err := readConfig(ctx, s, a)
		return reading{values: v}, err
	case state.KindVariable:
		v, err := readVariable(ctx, s, a.Key)
		if err != nil {
			return reading{}, err
		}
		return reading{values: map[string]string{"": v}}, nil
	case state.KindResourceGroup, state.KindUser:
		return readMetadata(ctx, db, a)
	}
	return reading{}, fmt.Errorf("applier: cannot read back %s: unknown kind %q", a, a.Kind)
}

// readConfig reads CLUSTER_CONFIG with type (and instance) predicates, which
// TiDB pushes down so only matching nodes are contacted (tidb-facts.md §1.1,
// §1.2; KEY is a reserved word and is quoted).
func readConfig(ctx context.Context, s session, t state.Address) (map[string]string, error) {
	q := "SELECT INSTANCE, VALUE FROM INFORMATION_SCHEMA.CLUSTER_CONFIG WHERE TYPE = " +
		quote.String(string(t.Component)) + " AND `KEY` = " + quote.String(t.Key)
	if t.Instance != "" {
		q += " AND INSTANCE = " + quote.String(t.Instance)
	}
	rows, err := s.QueryContext(ctx, q)
	if err != nil {
		return nil, fmt.Errorf("applier: read back %s: %w", t, err)
	}
	defer rows.Close()
	out := map[string]string{}
	for rows.Next() {
		var in string
		var v sql.NullString
		if err := rows.Scan(&in, &v); err != nil {
			return nil, fmt.Errorf("applier: read back %s: %w", t, err)
		}
		out[in] = v.String
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("applier: read back %s: %w", t, err)
	}
	return out, nil
}

var variableName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// readVariable reads @@GLOBAL.name. An unknown variable (error 1193) reads as Absent.
func readVariable(ctx context.Context, s session, name string) (string, error) {
	if !variableName.MatchString(name) {
		return "", fmt.Errorf("applier: read back variable %q: not a variable name", name)
	}
	var v sql.NullString
	err := queryRow(ctx, s, "SELECT @@GLOBAL."+name, &v)
	if err != nil {
		if strings.Contains(err.Error(), "1193") {
			return Absent, nil
		}
		return "", fmt.Errorf("applier: read back variable %s: %w", name, err)
	}
	return v.String, nil
}

// readMetadata reads a resource group or a user binding through
// live.Inspect. A group's value is planner.CanonicalGroup ("RU_PER_SEC=1000,
// PRIORITY=MEDIUM, …", tidb-facts.md §4.3) or Absent; a user's is the group
// it is bound to ("default" when none, §4.5) or Absent.
func readMetadata(ctx context.Context, db *sql.DB, t state.Address) (reading, error) {
	if db == nil {
		return reading{}, fmt.Errorf("applier: read back %s: no database", t)
	}
	req := live.Request{ResourceGroups: t.Kind == state.KindResourceGroup, Users: t.Kind == state.KindUser}
	l, err := live.Inspect(ctx, db, req)
	if err != nil {
		return reading{}, fmt.Errorf("applier: read back %s: %w", t, err)
	}
	if t.Kind == state.KindResourceGroup {
		r := reading{values: map[string]string{"": Absent}}
		r.tidb, _ = l.MinVersion(state.TiDB)
		if r.tidb.IsZero() {
			r.tidb = l.ServerVersionParsed
		}
		name := strings.ToLower(strings.TrimSpace(t.Key))
		for i := range l.ResourceGroups {
			if strings.ToLower(l.ResourceGroups[i].Name) == name {
				r.group = &l.ResourceGroups[i]
				r.values[""] = planner.CanonicalGroup(r.group, r.tidb)
			}
		}
		return r, nil
	}
	u := t.User
	for _, b := range l.Users {
		if b.User == u.User && b.Host == u.Host {
			if b.ResourceGroup == "" {
				return reading{values: map[string]string{"": planner.DefaultGroup}}, nil
			}
			return reading{values: map[string]string{"": strings.ToLower(b.ResourceGroup)}}, nil
		}
	}
	return reading{values: map[string]string{"": Absent}}, nil
}

func sqlString(s string) string { return quote.String(s) }

func queryRow(ctx context.Context, s session, q string, dest ...any) error {
	rows, err := s.QueryContext(ctx, q)
	if err != nil {
		return err
	}
	defer rows.Close()
	if !rows.Next() {
		if err := rows.Err(); err != nil {
			return err
		}
		return sql.ErrNoRows
	}
	if err := rows.Scan(dest...); err != nil {
		return err
	}
	return rows.Close()
}

// readWarnings reads SHOW WARNINGS and attributes each to an instance when
// its message names the instance's status or service address (SET CONFIG
// per-instance failures: `bad request to http://<status>/config: …`,
// tidb-facts.md §0.1, §2.3).
func readWarnings(ctx context.Context, s session, topo []instanceInfo) ([]Warning, error) {
	rows, err := s.QueryContext(ctx, "SHOW WARNINGS")
	if err != nil {
		return nil, fmt.Errorf("applier: SHOW WARNINGS: %w", err)
	}
	defer rows.Close()
	var out []Warning
	for rows.Next() {
		var w Warning
		if err := rows.Scan(&w.Level, &w.Code, &w.Message); err != nil {
			return nil, fmt.Errorf("applier: SHOW WARNINGS: %w", err)
		}
		w.Instance = warningInstance(w.Message, topo)
		out = append(out, w)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("applier: SHOW WARNINGS: %w", err)
	}
	return out, nil
}

var urlHost = regexp.MustCompile(`https?://([^/\s"]+)`)

func warningInstance(msg string, topo []instanceInfo) string {
	if m := urlHost.FindStringSubmatch(msg); m != nil {
		for _, in := range topo {
			if in.Status == m[1] || in.Address == m[1] {
				return in.Address
			}
		}
	}
	for _, in := range topo {
		if in.Status != "" && strings.Contains(msg, in.Status) {
			return in.Address
		}
	}
	for _, in := range topo {
		if strings.Contains(msg, in.Address) {
			return in.Address
		}
	}
	return ""
}

package applier

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"

	"github.com/tiform/tiform/planner"
	"github.com/tiform/tiform/quote"
	"github.com/tiform/tiform/state"
)

// Absent is the value recorded for a setting that does not exist (a resource
// group not created, a config row missing). It matches planner.Dependency's
// "<absent>" convention.
const Absent = "<absent>"

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

// target is one value apply reads: a (kind, component, instance, key) as in
// planner.Check and planner.Dependency.
type target struct {
	Kind      planner.Kind
	Component state.Component
	Instance  string
	Key       string
}

func (t target) String() string {
	switch t.Kind {
	case planner.KindConfig:
		if t.Instance != "" {
			return fmt.Sprintf("%s[%q].%s", t.Component, t.Instance, t.Key)
		}
		return fmt.Sprintf("%s.%s", t.Component, t.Key)
	case planner.KindVariable:
		return "variable." + t.Key
	case planner.KindResourceGroup:
		return "resource_group." + t.Key
	case planner.KindUser:
		return "user." + t.Key
	}
	return string(t.Kind) + "." + t.Key
}

// readValues reads t's current raw value per instance ("" key for values that
// are cluster-wide: variables, resource groups, users). A config item missing
// on an instance is simply absent from the map; the caller compares with the
// topology.
func readValues(ctx context.Context, s session, t target) (map[string]string, error) {
	switch t.Kind {
	case planner.KindConfig:
		return readConfig(ctx, s, t)
	case planner.KindVariable:
		v, err := readVariable(ctx, s, t.Key)
		if err != nil {
			return nil, err
		}
		return map[string]string{"": v}, nil
	case planner.KindResourceGroup:
		v, err := readResourceGroup(ctx, s, t.Key)
		if err != nil {
			return nil, err
		}
		return map[string]string{"": v}, nil
	case planner.KindUser:
		v, err := readUser(ctx, s, t.Key)
		if err != nil {
			return nil, err
		}
		return map[string]string{"": v}, nil
	}
	return nil, fmt.Errorf("applier: cannot read back %s: unknown kind %q", t, t.Kind)
}

// readConfig reads CLUSTER_CONFIG with type (and instance) predicates, which
// TiDB pushes down so only matching nodes are contacted (tidb-facts.md §1.1,
// §1.2; KEY is a reserved word and is quoted).
func readConfig(ctx context.Context, s session, t target) (map[string]string, error) {
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

// readResourceGroup reads one resource group from
// INFORMATION_SCHEMA.RESOURCE_GROUPS (tidb-facts.md §4.3). key is "name" (the
// value is the whole row as "COLUMN=value" pairs, or Absent) or
// "name.column" (that column's value, lower-case column names as in HCL:
// ru_per_sec, priority, burstable, query_limit, background).
func readResourceGroup(ctx context.Context, s session, key string) (string, error) {
	name, col := splitGroupKey(key)
	rows, err := s.QueryContext(ctx, "SELECT * FROM INFORMATION_SCHEMA.RESOURCE_GROUPS WHERE NAME = "+quote.String(strings.ToLower(name)))
	if err != nil {
		return "", fmt.Errorf("applier: read back resource group %s: %w", name, err)
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return "", fmt.Errorf("applier: read back resource group %s: %w", name, err)
	}
	if !rows.Next() {
		if err := rows.Err(); err != nil {
			return "", fmt.Errorf("applier: read back resource group %s: %w", name, err)
		}
		return Absent, nil
	}
	vals := make([]sql.NullString, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	if err := rows.Scan(ptrs...); err != nil {
		return "", fmt.Errorf("applier: read back resource group %s: %w", name, err)
	}
	if col == "" {
		var parts []string
		for i, c := range cols {
			if strings.EqualFold(c, "NAME") {
				continue
			}
			v := "NULL"
			if vals[i].Valid {
				v = vals[i].String
			}
			parts = append(parts, strings.ToUpper(c)+"="+v)
		}
		return strings.Join(parts, ", "), nil
	}
	for i, c := range cols {
		if strings.EqualFold(c, col) {
			if !vals[i].Valid {
				return "NULL", nil
			}
			return vals[i].String, nil
		}
	}
	return Absent, nil
}

var groupColumns = map[string]bool{"ru_per_sec": true, "priority": true, "burstable": true, "query_limit": true, "background": true}

func splitGroupKey(key string) (name, col string) {
	if i := strings.LastIndexByte(key, '.'); i > 0 && groupColumns[strings.ToLower(key[i+1:])] {
		return key[:i], strings.ToLower(key[i+1:])
	}
	return key, ""
}

// readUser reads the resource group a user is bound to from
// mysql.user.User_attributes (tidb-facts.md §4.5). key names the account as
// user@host, 'user'@'host' or "user"@"host", optionally followed by
// ".resource_group". An account without a binding reads "default"; a missing
// account reads Absent.
func readUser(ctx context.Context, s session, key string) (string, error) {
	u, err := parseAccount(key)
	if err != nil {
		return "", fmt.Errorf("applier: read back user %s: %w", key, err)
	}
	var attrs sql.NullString
	err = queryRow(ctx, s, "SELECT User_attributes FROM mysql.user WHERE User = "+quote.String(u.User)+" AND Host = "+quote.String(u.Host), &attrs)
	if err == sql.ErrNoRows {
		return Absent, nil
	}
	if err != nil {
		return "", fmt.Errorf("applier: read back user %s: %w", u, err)
	}
	rg := ""
	if attrs.Valid && attrs.String != "" {
		var m map[string]any
		if json.Unmarshal([]byte(attrs.String), &m) == nil {
			if s, ok := m["resource_group"].(string); ok {
				rg = s
			}
		}
	}
	if rg == "" {
		rg = "default"
	}
	return rg, nil
}

func parseAccount(key string) (state.UserRef, error) {
	key = strings.TrimSuffix(key, ".resource_group")
	unq := func(s string) string {
		if len(s) >= 2 && (s[0] == '"' || s[0] == '\'' || s[0] == '`') && s[len(s)-1] == s[0] {
			return s[1 : len(s)-1]
		}
		return s
	}
	// split at the @ that separates user from host: the last @ outside quotes
	i := strings.LastIndex(key, "@")
	if i <= 0 {
		return state.UserRef{}, fmt.Errorf("not an account %q (want user@host)", key)
	}
	return state.UserRef{User: unq(key[:i]), Host: unq(key[i+1:])}, nil
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

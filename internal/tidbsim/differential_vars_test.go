package tidbsim_test

import (
	"database/sql"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The variables corpus is generated from what the two servers say they have
// (INFORMATION_SCHEMA.VARIABLES_INFO on each): every variable either has,
// with statements derived from its scope, its current value and what
// VARIABLES_INFO says of its range and values, so the corpus follows the
// server rather than a list kept by hand.

// varInfo is one row of INFORMATION_SCHEMA.VARIABLES_INFO.
type varInfo struct {
	Name, Scope, Default, Current string
	Min, Max, Possible            sql.NullString
	Noop                          bool
}

// readVarInfo reads VARIABLES_INFO over dsn.
func readVarInfo(t *testing.T, dsn string) map[string]varInfo {
	t.Helper()
	db, err := sql.Open("mysql", dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rows, err := db.Query("SELECT VARIABLE_NAME, VARIABLE_SCOPE, DEFAULT_VALUE, CURRENT_VALUE, MIN_VALUE, MAX_VALUE, POSSIBLE_VALUES, IS_NOOP FROM INFORMATION_SCHEMA.VARIABLES_INFO")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	out := map[string]varInfo{}
	for rows.Next() {
		var v varInfo
		var noop string
		if err := rows.Scan(&v.Name, &v.Scope, &v.Default, &v.Current, &v.Min, &v.Max, &v.Possible, &noop); err != nil {
			t.Fatal(err)
		}
		v.Noop = noop == "YES"
		out[v.Name] = v
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// varKind is what the corpus infers of a variable's type from VARIABLES_INFO
// (which has no type column): an enum lists POSSIBLE_VALUES, a number has a
// MIN_VALUE, a boolean's default is ON or OFF, a duration's parses as a Go
// duration with a unit.
type varKind int

const (
	kindString varKind = iota
	kindBool
	kindEnum
	kindInt
	kindFloat
	kindDuration
)

func (v varInfo) kind() varKind {
	switch {
	case v.Possible.Valid && v.Possible.String != "":
		return kindEnum
	case v.Min.Valid:
		if strings.ContainsAny(v.Default, ".eE") || strings.ContainsAny(v.Current, ".") {
			return kindFloat
		}
		return kindInt
	case v.Default == "ON" || v.Default == "OFF":
		return kindBool
	}
	if d, err := time.ParseDuration(v.Default); err == nil && d != 0 && strings.IndexFunc(v.Default, isLetter) >= 0 {
		return kindDuration
	}
	return kindString
}

func isLetter(r rune) bool { return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' }

func (v varInfo) global() bool {
	return strings.Contains(v.Scope, "GLOBAL") || strings.Contains(v.Scope, "INSTANCE")
}

func (v varInfo) sessionOnly() bool { return v.Scope == "SESSION" }

// sqlString quotes a literal for the corpus (the corpus's own values; the
// statements tiform builds are taken from tiform itself).
func sqlString(s string) string {
	return "'" + strings.NewReplacer(`\`, `\\`, `'`, `''`).Replace(s) + "'"
}

// varCorpus is the statements of one variable:
//
//   - SELECT @@GLOBAL.x (for a SESSION-only variable, @@SESSION.x as well);
//   - SHOW GLOBAL VARIABLES LIKE 'x' (its row of VARIABLES_INFO, the facts
//     of its definition, is read for the known differences: facts);
//   - SET GLOBAL x to a value its type rejects (a word for a number, a
//     duration or a boolean; an unknown member for an enum), and, for a
//     bounded integer, to one past its maximum (clamped with warning 1292),
//     then back;
//   - SET GLOBAL x to its current value in another valid spelling (1/0 for
//     ON/OFF, another case of an enum member, a number as a string, a
//     shorter duration), then read back;
//   - for a boolean or an enum, SET GLOBAL x to another valid value, read
//     back, and set the current value again.
func varCorpus(v varInfo, skipChange map[string]string) []stmt {
	name := v.Name
	l := func(what string) string { return "var/" + name + "/" + what }
	out := []stmt{{Label: l("select-global"), SQL: "SELECT @@GLOBAL." + name}}
	if v.sessionOnly() {
		out = append(out, stmt{Label: l("select-session"), SQL: "SELECT @@SESSION." + name})
	}
	out = append(out, stmt{Label: l("show"), SQL: "SHOW GLOBAL VARIABLES LIKE " + sqlString(name)})
	set := func(what, value string) stmt {
		return stmt{Label: l(what), SQL: "SET GLOBAL " + name + " = " + value, Exec: true}
	}
	readBack := stmt{Label: l("read-back"), SQL: "SELECT @@GLOBAL." + name}
	restore := set("restore", sqlString(v.Current))
	k := v.kind()
	switch k {
	case kindBool:
		out = append(out, set("set-invalid", "'maybe'"))
	case kindEnum:
		out = append(out, set("set-invalid", "'no-such-member'"))
	case kindInt, kindFloat, kindDuration:
		out = append(out, set("set-invalid", "'abc'"))
	}
	if k == kindInt && v.Max.Valid {
		if hi, err := strconv.ParseInt(v.Max.String, 10, 64); err == nil && hi < 1<<40 && v.global() {
			out = append(out, set("set-above-max", strconv.FormatInt(hi+1, 10)), stmt{Label: l("read-above-max"), SQL: "SELECT @@GLOBAL." + name}, restore)
		}
	}
	if alt, ok := otherSpelling(k, v.Current); ok {
		out = append(out, set("set-spelling", alt), readBack)
	}
	if _, skip := skipChange[name]; skip || !v.global() {
		return out
	}
	if other, ok := otherValue(k, v); ok {
		out = append(out, set("set-other", sqlString(other)), stmt{Label: l("read-other"), SQL: "SELECT @@GLOBAL." + name}, restore)
	}
	return out
}

// otherSpelling is value in another spelling that means the same value.
func otherSpelling(k varKind, value string) (string, bool) {
	switch k {
	case kindBool:
		switch value {
		case "ON":
			return "1", true
		case "OFF":
			return "0", true
		}
	case kindEnum:
		if lower := strings.ToLower(value); lower != value {
			return sqlString(lower), true
		}
		if upper := strings.ToUpper(value); upper != value {
			return sqlString(upper), true
		}
	case kindInt, kindFloat:
		if value != "" {
			return sqlString(value), true
		}
	case kindDuration:
		if d, err := time.ParseDuration(value); err == nil {
			short := strings.TrimSuffix(strings.TrimSuffix(d.String(), "0s"), "0m")
			if short != value && short != "" {
				return sqlString(short), true
			}
		}
	}
	return "", false
}

// otherValue is another valid value of a boolean or an enum.
func otherValue(k varKind, v varInfo) (string, bool) {
	switch k {
	case kindBool:
		if v.Current == "ON" {
			return "OFF", true
		}
		return "ON", true
	case kindEnum:
		members := strings.Split(v.Possible.String, ",")
		for i, m := range members {
			if strings.EqualFold(m, v.Current) {
				return members[(i+1)%len(members)], true
			}
		}
	}
	return "", false
}

// variablesCorpus is the corpus of every variable of real or sim, sorted by
// name; a variable only one side has is generated from that side's row.
func variablesCorpus(real, sim map[string]varInfo, skipChange map[string]string) []stmt {
	names := map[string]bool{}
	for n := range real {
		names[n] = true
	}
	for n := range sim {
		names[n] = true
	}
	sorted := make([]string, 0, len(names))
	for n := range names {
		sorted = append(sorted, n)
	}
	sort.Strings(sorted)
	var out []stmt
	for _, n := range sorted {
		v, inReal := real[n]
		_, inSim := sim[n]
		if !inReal || !inSim {
			// one server lacks it: reading it shows that; SHOW, its
			// VARIABLES_INFO row and setting it would only repeat it
			if !inReal {
				v = sim[n]
			}
			out = append(out, varCorpus(v, skipChange)[:1]...)
			continue
		}
		out = append(out, varCorpus(v, skipChange)...)
	}
	return out
}

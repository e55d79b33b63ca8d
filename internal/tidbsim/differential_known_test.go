package tidbsim_test

import (
	"database/sql"
	"flag"
	"fmt"
	"os"
	"path"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// knownDifference is a difference between the emulator and the real server
// that is not fixed in the emulator, with the reason. docs/tidbsim.md lists
// every entry (generated from this table and checked by TestDifferential):
// an entry that no longer explains any difference, or a difference no entry
// explains, fails the suite.
type knownDifference struct {
	// ID names the entry in docs/tidbsim.md.
	ID string
	// Kind says where the difference comes from:
	//   - "table": the generated system-variable table the emulator serves
	//     (internal/upstream, from pingcap/docs-cn system-variables.md) says
	//     something else than the server's own definition; fixed by the
	//     table's generator (tools/catalogen), not in the emulator;
	//   - "unistore": the real server runs on unistore, not TiKV and PD; the
	//     emulator models a real cluster;
	//   - "environment": a value of the host or process the server runs on
	//     (its data directory, host name, port, build);
	//   - "not-modelled": behaviour the emulator does not model (yet).
	Kind   string
	Reason string
	// Labels are path.Match patterns of the statement labels the entry may
	// explain; Aspects the parts of the outcome (nil: any).
	Labels  []string
	Aspects []aspect
	// Match, when set, must also hold: it checks that the difference is the
	// one the reason states (from the difference itself and the facts both
	// servers report).
	Match func(d difference, f *facts) bool
	// Vars, when set, are the only variables the entry is about; each one
	// must still differ.
	Vars []string
}

// facts are what both servers say about themselves, for Match.
type facts struct {
	real, sim map[string]varInfo
	// hand names the variables the emulator models by hand; the others come
	// from the generated table.
	hand map[string]bool
	// realAddr and simAddr are the TiDB instance addresses the servers
	// report in CLUSTER_INFO.
	realAddr, simAddr string
	// shown names the variables whose SHOW GLOBAL VARIABLES LIKE statement
	// differs; readOnly those that only the real server refuses to SET
	// with 1238 "is a read only variable".
	shown, readOnly map[string]bool
}

// has reports which server has variable v ("" is no variable).
func (f *facts) has(v string) (inReal, inSim bool) {
	if v == "" {
		return false, false
	}
	_, inReal = f.real[v]
	_, inSim = f.sim[v]
	return inReal, inSim
}

// observe fills the facts the differences themselves show.
func (f *facts) observe(diffs []difference) {
	f.shown, f.readOnly = map[string]bool{}, map[string]bool{}
	for _, d := range diffs {
		switch {
		case what(d) == "show":
			f.shown[variable(d)] = true
		case d.Aspect == aspectError && strings.Contains(d.Real, "is a read only variable") && !strings.Contains(d.Sim, "is a read only variable"):
			f.readOnly[variable(d)] = true
		}
	}
}

// variable returns the variable a "var/<name>/…" label is about.
func variable(d difference) string {
	parts := strings.SplitN(d.Stmt.Label, "/", 3)
	if len(parts) < 3 || parts[0] != "var" {
		return ""
	}
	return parts[1]
}

// subject is what an explained difference is about, for the docs: the
// variable, or the statement's label without a sequence number.
func subject(d difference) string {
	if v := variable(d); v != "" {
		return v
	}
	l := d.Stmt.Label
	if i := strings.LastIndex(l, "/"); i > 0 && strings.Trim(l[i+1:], "0123456789") == "" {
		return l[:i]
	}
	return l
}

func (k *knownDifference) explains(d difference, f *facts) bool {
	if len(k.Aspects) > 0 {
		ok := false
		for _, a := range k.Aspects {
			ok = ok || a == d.Aspect
		}
		if !ok {
			return false
		}
	}
	if len(k.Vars) > 0 {
		ok := false
		for _, v := range k.Vars {
			ok = ok || v == variable(d)
		}
		if !ok {
			return false
		}
	}
	if len(k.Labels) > 0 {
		ok := false
		for _, p := range k.Labels {
			m, err := path.Match(p, d.Stmt.Label)
			ok = ok || m && err == nil
		}
		if !ok {
			return false
		}
	}
	return k.Match == nil || k.Match(d, f)
}

// explanation is the outcome of checking differences against the table.
type explanation struct {
	unexplained []difference
	// subjects lists, per entry ID, what the differences it explained were
	// about (sorted, unique); an entry with none is stale.
	subjects map[string][]string
}

func explain(diffs []difference, known []knownDifference, f *facts) explanation {
	e := explanation{subjects: map[string][]string{}}
	seen := map[string]map[string]bool{}
	for _, d := range diffs {
		found := false
		for i := range known {
			k := &known[i]
			if !k.explains(d, f) {
				continue
			}
			found = true
			if seen[k.ID] == nil {
				seen[k.ID] = map[string]bool{}
			}
			if s := subject(d); !seen[k.ID][s] {
				seen[k.ID][s] = true
				e.subjects[k.ID] = append(e.subjects[k.ID], s)
			}
			break
		}
		if !found {
			e.unexplained = append(e.unexplained, d)
		}
	}
	for id := range e.subjects {
		sort.Strings(e.subjects[id])
	}
	return e
}

// what returns the statement kind of a "var/<name>/<what>" label.
func what(d difference) string {
	parts := strings.SplitN(d.Stmt.Label, "/", 3)
	if len(parts) < 3 {
		return ""
	}
	return parts[2]
}

// isWhat reports whether d is about one of the statement kinds.
func isWhat(d difference, kinds ...string) bool {
	w := what(d)
	for _, k := range kinds {
		if w == k {
			return true
		}
	}
	return false
}

// infoDiffers reports whether the two servers' VARIABLES_INFO rows of the
// variable d is about differ in the field get reads.
func infoDiffers(d difference, f *facts, get func(varInfo) string) bool {
	v := variable(d)
	r, ok1 := f.real[v]
	m, ok2 := f.sim[v]
	return ok1 && ok2 && get(r) != get(m)
}

func nullText(n sql.NullString) string {
	if !n.Valid {
		return "NULL"
	}
	return n.String
}

// environmentVariables hold a value of the server process: its paths, its
// port, its host's time zone, its whole configuration.
var environmentVariables = map[string]string{
	"datadir":                    "the storage path (-path: the unistore directory; on a TiKV cluster the PD addresses)",
	"port":                       "the port each server listens on",
	"system_time_zone":           "the time zone of the host at bootstrap",
	"tidb_config":                "the server's whole configuration as JSON (not modelled)",
	"tidb_slow_query_file":       "the slow log path of the test harness's configuration",
	"tidb_stmt_summary_filename": "the statement log path of the test harness's configuration",
}

// sessionStateVariables are the session's runtime state.
var sessionStateVariables = map[string]bool{
	"timestamp": true, "tidb_last_query_info": true, "tidb_last_ddl_info": true,
}

// knownDifferences is every difference the emulator keeps, first match wins.
var knownDifferences = []knownDifference{
	{
		ID: "unistore-topology", Kind: "unistore",
		Reason: "The real server runs on unistore: CLUSTER_INFO lists the TiDB and one `tikv` row `store1` with no status " +
			"address, version or git hash, and no PD; CLUSTER_CONFIG has only the TiDB instance's items and warns " +
			"`tikv node store1 does not contain status address`. The emulator models TiKV and PD (its TiDB config items " +
			"are the ones tiform reads, not all of TiDB's), and each server has its own addresses and start time. " +
			"CLUSTER_HARDWARE has no row for `store1` on the server, which warns that it cannot dial it " +
			"(`address store1: missing port in address`); the emulator serves each TiKV's machine.",
		Match: func(d difference, f *facts) bool {
			q := strings.ToUpper(d.Stmt.SQL)
			unistoreWarning := func(s string) bool {
				return strings.Contains(s, "does not contain status address") || strings.Contains(s, "address store1: missing port")
			}
			switch {
			case !strings.Contains(q, "CLUSTER_INFO") && !strings.Contains(q, "CLUSTER_CONFIG") && !strings.Contains(q, "CLUSTER_HARDWARE"):
				return q == "SHOW WARNINGS" && unistoreWarning(d.Real)
			case d.Aspect == aspectWarnings:
				return unistoreWarning(d.Real) && d.Sim == ""
			case strings.Contains(q, "CLUSTER_HARDWARE") && d.Aspect == aspectRows:
				return d.Real == "" // no storage to read the hardware of
			case d.Aspect != aspectRows:
				return false
			}
			// the storage the servers have, or only the TiDB's address
			return strings.Contains(d.Real, `"store1"`) || strings.Contains(d.Sim, `("pd"`) ||
				strings.ReplaceAll(d.Real, f.realAddr, "<tidb>") == strings.ReplaceAll(d.Sim, f.simAddr, "<tidb>")
		},
	},
	{
		ID: "cluster-memtable-types", Kind: "not-modelled",
		Reason: "CLUSTER_INFO.START_TIME is a DATETIME and CLUSTER_CONFIG.VALUE a TEXT on the server " +
			"(pingcap/tidb@e4e814fdc0af:pkg/infoschema/tables.go); the emulator sends both as VARCHAR. Their " +
			"definitions are in the TiKV/PD config model (showconfig.go), owned elsewhere this session.",
		Aspects: []aspect{aspectColumns},
		Match: func(d difference, _ *facts) bool {
			return strings.ReplaceAll(strings.ReplaceAll(d.Sim, "START_TIME VARCHAR", "START_TIME DATETIME"), "VALUE VARCHAR", "VALUE TEXT") == d.Real
		},
	},
	{
		ID: "tidb-version-build", Kind: "environment",
		Reason: "TIDB_VERSION() prints the build: its commit, branch, build time and Go version are those of the " +
			"binary, and `Store:` is `unistore` on the real server, `tikv` on the emulated cluster.",
		Labels: []string{"engine/tidb-version"}, Aspects: []aspect{aspectRows},
	},
	{
		ID: "user-variable-types", Kind: "not-modelled",
		Reason: "A user variable's column takes the type of the value assigned (`SET @a = 1` makes SELECT @a a " +
			"BIGINT NOT NULL); the emulator sends every @var as a nullable VARCHAR.",
		Labels: []string{"engine/read-several", "engine/read-user-variable"}, Aspects: []aspect{aspectColumns},
	},
	{
		ID: "string-length-warning", Kind: "not-modelled",
		Reason: "Comparing a VARCHAR(32) column with a longer string constant warns 1406 `Data Too Long, field len " +
			"32, data len 33` on the server; the emulator does not keep column lengths.",
		Aspects: []aspect{aspectWarnings},
		Match: func(d difference, _ *facts) bool {
			return strings.Contains(d.Real, `"1406" "Data Too Long`) && d.Sim == ""
		},
	},
	{
		ID: "environment-variables", Kind: "environment",
		Reason:  "The value is the server process's own: " + environmentList() + ".",
		Aspects: []aspect{aspectRows},
		Match: func(d difference, _ *facts) bool {
			_, ok := environmentVariables[variable(d)]
			return ok
		},
	},
	{
		ID: "session-state", Kind: "not-modelled",
		Reason:  "The session's runtime state (@@timestamp, the last query's and DDL's JSON) is not modelled.",
		Aspects: []aspect{aspectRows},
		Match:   func(d difference, _ *facts) bool { return sessionStateVariables[variable(d)] },
	},
	{
		ID: "table-server-only-variables", Kind: "table",
		Reason: "The server has the variable; the generated table (pingcap/docs-cn system-variables.md) does not list " +
			"it: MySQL-compatibility no-op variables (pkg/sessionctx/variable/noop.go) and variables the docs omit.",
		Match: func(d difference, f *facts) bool {
			inReal, inSim := f.has(variable(d))
			return inReal && !inSim
		},
	},
	{
		ID: "table-emulator-only-variables", Kind: "table",
		Reason: "The generated table has the variable for v9.0 (docs-cn master, newer than the server's commit of " +
			"2025-11-26); the server does not.",
		Match: func(d difference, f *facts) bool {
			inReal, inSim := f.has(variable(d))
			return !inReal && inSim
		},
	},
	{
		ID: "table-scope", Kind: "table",
		Reason: "The table gives the variable another scope than the server's definition (read-only variables the " +
			"docs list as settable, SESSION-only ones listed as GLOBAL, read-only SESSION variables): the errors of " +
			"SET GLOBAL and the values read after it follow.",
		Match: func(d difference, f *facts) bool {
			return infoDiffers(d, f, func(v varInfo) string { return v.Scope })
		},
	},
	{
		ID: "table-read-only", Kind: "table",
		Reason: "The server's definition makes the variable read-only (SET is 1238 `Variable 'x' is a read only " +
			"variable`, the value stays); the table lists it as settable.",
		Match: func(d difference, f *facts) bool {
			return f.readOnly[variable(d)] && isWhat(d, "set-invalid", "set-spelling", "set-other", "set-above-max", "restore", "read-other", "read-above-max", "read-back")
		},
	},
	{
		ID: "table-type", Kind: "table",
		Reason: "The table gives the variable another type than the server's definition, which VARIABLES_INFO " +
			"does not show: `tidb_load_based_replica_read_threshold` is a duration on the server, a string in the " +
			"table (which also keeps the docs' quotes around its default), so the emulator accepts any text.",
		Vars: []string{"tidb_load_based_replica_read_threshold"},
		Match: func(d difference, _ *facts) bool {
			return isWhat(d, "set-invalid")
		},
	},
	{
		ID: "table-values", Kind: "table",
		Reason: "The table gives the variable another type or other members than the server (an enum the docs " +
			"call a string or a boolean, members spelt otherwise): what SET accepts, how it is normalised and what " +
			"SELECT @@ returns follow.",
		Match: func(d difference, f *facts) bool {
			return infoDiffers(d, f, func(v varInfo) string { return strings.ToUpper(nullText(v.Possible)) })
		},
	},
	{
		ID: "table-unsigned", Kind: "table",
		Reason: "The server declares the variable an unsigned integer (SELECT @@ returns UNSIGNED BIGINT and accepts " +
			"values past int64); the table knows only integers, so the emulator returns VARCHAR and refuses them.",
		Match: func(d difference, f *facts) bool {
			if f.hand[variable(d)] {
				return false
			}
			if d.Aspect == aspectColumns {
				return strings.Contains(d.Real, "UNSIGNED BIGINT") && !strings.Contains(d.Sim, "UNSIGNED BIGINT")
			}
			return isWhat(d, "set-spelling") && strings.Contains(d.Stmt.SQL, "18446744073709551615")
		},
	},
	{
		ID: "table-range", Kind: "table",
		Reason: "The table gives the variable another range than the server (MIN_VALUE/MAX_VALUE): a value past " +
			"the server's bound is clamped there with warning 1292.",
		Match: func(d difference, f *facts) bool {
			return infoDiffers(d, f, func(v varInfo) string { return nullText(v.Min) + "/" + nullText(v.Max) }) &&
				isWhat(d, "set-above-max", "read-above-max", "restore", "set-spelling", "read-back")
		},
	},
	{
		ID: "table-default", Kind: "table",
		Reason: "The table's default differs from the server's (a default the docs give otherwise, a float the docs " +
			"write `3.0` that TiDB prints `3`, a quoted default read with its quotes).",
		Aspects: []aspect{aspectRows},
		Match: func(d difference, f *facts) bool {
			return infoDiffers(d, f, func(v varInfo) string { return v.Default }) &&
				isWhat(d, "select-global", "select-session", "show", "read-back")
		},
	},
	{
		ID: "variable-listings", Kind: "table",
		Reason: "A statement that lists many variables (SHOW GLOBAL VARIABLES, tiform's SHOW GLOBAL VARIABLES WHERE " +
			"Variable_name IN (…)) differs exactly where the statements about each variable differ for one of the " +
			"reasons above.",
		Aspects: []aspect{aspectRows},
		Match:   listingDiffersAsVariablesDo,
	},
}

// environmentList renders environmentVariables for the reason text.
func environmentList() string {
	names := make([]string, 0, len(environmentVariables))
	for n := range environmentVariables {
		names = append(names, n)
	}
	sort.Strings(names)
	parts := make([]string, len(names))
	for i, n := range names {
		parts[i] = "`" + n + "` is " + environmentVariables[n]
	}
	return strings.Join(parts, "; ")
}

// listingRow matches a ("name", "value") row of a variable listing.
var listingRow = regexp.MustCompile(`\("([a-z0-9_.]+)", ("(?:[^"\\]|\\.)*")\)`)

// listingDiffersAsVariablesDo reports whether d is a variable listing whose
// rows differ only for variables whose own SHOW GLOBAL VARIABLES LIKE
// statement differs too (f.shown) or that only one server has.
func listingDiffersAsVariablesDo(d difference, f *facts) bool {
	if !strings.HasPrefix(strings.ToUpper(d.Stmt.SQL), "SHOW GLOBAL VARIABLES") || variable(d) != "" {
		return false
	}
	rows := func(text string) map[string]string {
		out := map[string]string{}
		for _, m := range listingRow.FindAllStringSubmatch(text, -1) {
			out[m[1]] = m[2]
		}
		return out
	}
	r, m := rows(d.Real), rows(d.Sim)
	names := map[string]bool{}
	for n := range r {
		names[n] = true
	}
	for n := range m {
		names[n] = true
	}
	differs := 0
	for n := range names {
		rv, inR := r[n]
		mv, inM := m[n]
		if inR && inM && rv == mv {
			continue
		}
		if realHas, simHas := f.has(n); !f.shown[n] && realHas == simHas {
			return false
		}
		differs++
	}
	return differs > 0
}

// The list of known differences in docs/tidbsim.md is rendered from
// knownDifferences and what each entry explained in the last run, between
// these markers; TestDifferential fails when the file says otherwise
// (go test ./internal/tidbsim -run TestDifferential -update rewrites it).
const (
	knownBegin = "<!-- known-differences:begin (generated by TestDifferential; go test ./internal/tidbsim -run TestDifferential -update) -->"
	knownEnd   = "<!-- known-differences:end -->"
)

// renderKnown is the docs block: one entry per known difference, with what
// it was seen to explain, then the table's facts that differ from the
// server's definitions.
func renderKnown(known []knownDifference, e explanation, f *facts) string {
	var b strings.Builder
	b.WriteString(knownBegin + "\n")
	for _, k := range known {
		subjects := e.subjects[k.ID]
		fmt.Fprintf(&b, "\n#### `%s` (%s; %d %s)\n\n%s\n", k.ID, k.Kind, len(subjects), plural(len(subjects), "subject"), k.Reason)
		if len(subjects) > 0 {
			quoted := make([]string, len(subjects))
			for i, s := range subjects {
				quoted[i] = "`" + s + "`"
			}
			fmt.Fprintf(&b, "\nSeen on: %s.\n", strings.Join(quoted, ", "))
		}
	}
	renderTableFacts(&b, f)
	b.WriteString("\n" + knownEnd)
	return b.String()
}

// renderTableFacts lists, for every variable both servers have, the fields
// of VARIABLES_INFO in which the generated table the emulator serves says
// something else than the server (the process's own values left out): what
// the table's generator has to learn from the server's definitions.
func renderTableFacts(b *strings.Builder, f *facts) {
	fields := []struct {
		name string
		get  func(varInfo) string
	}{
		{"scope", func(v varInfo) string { return v.Scope }},
		{"default", func(v varInfo) string { return v.Default }},
		{"min", func(v varInfo) string { return nullText(v.Min) }},
		{"max", func(v varInfo) string { return nullText(v.Max) }},
		{"values", func(v varInfo) string { return nullText(v.Possible) }},
	}
	names := make([]string, 0, len(f.real))
	for n := range f.real {
		if _, ok := f.sim[n]; ok {
			if _, env := environmentVariables[n]; !env {
				names = append(names, n)
			}
		}
	}
	sort.Strings(names)
	var rows []string
	for _, n := range names {
		r, m := f.real[n], f.sim[n]
		for _, fd := range fields {
			if rv, mv := fd.get(r), fd.get(m); rv != mv {
				rows = append(rows, fmt.Sprintf("| `%s` | %s | `%s` | `%s` |", n, fd.name, cell(rv), cell(mv)))
			}
		}
	}
	fmt.Fprintf(b, "\n#### The table's facts that differ from the server's (%d)\n\n", len(rows))
	b.WriteString("VARIABLES_INFO of both servers, for the variables both have: what the generated table says (the emulator) " +
		"against the server's own definition (pingcap/tidb@e4e814fdc0af:pkg/sessionctx/variable/sysvar.go).\n\n")
	b.WriteString("| variable | field | server | table |\n|---|---|---|---|\n")
	for _, r := range rows {
		b.WriteString(r + "\n")
	}
}

// cell makes a value fit a Markdown table cell.
func cell(s string) string {
	s = strings.ReplaceAll(s, "|", "\\|")
	s = strings.ReplaceAll(s, "`", "'")
	if len(s) > 80 {
		s = s[:77] + "..."
	}
	return s
}

func plural(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}

// checkKnownDocs compares the block of docs/tidbsim.md with want, or
// rewrites it with -update.
func checkKnownDocs(t *testing.T, want string) {
	t.Helper()
	const path = "../../docs/tidbsim.md"
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	i, j := strings.Index(doc, knownBegin), strings.Index(doc, knownEnd)
	if i < 0 || j < i {
		t.Fatalf("%s has no known-differences block (%q … %q)", path, knownBegin, knownEnd)
	}
	got := doc[i : j+len(knownEnd)]
	if got == want {
		return
	}
	if *update {
		if err := os.WriteFile(path, []byte(doc[:i]+want+doc[j+len(knownEnd):]), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("%s: the known differences are not the ones the suite found; run go test ./internal/tidbsim -run TestDifferential -update and review the diff", path)
}

var update = flag.Bool("update", false, "differential suite: rewrite the known differences in docs/tidbsim.md")

// TestExplain: the check of the known differences itself, without a
// server: a difference no entry explains is reported, an entry that
// explains nothing has no subjects, the first matching entry wins, and an
// entry's Vars restrict it.
func TestExplain(t *testing.T) {
	f := &facts{real: map[string]varInfo{"a": {Scope: "GLOBAL"}, "b": {Scope: "NONE"}}, sim: map[string]varInfo{"a": {Scope: "GLOBAL"}, "b": {Scope: "GLOBAL"}}}
	diffs := []difference{
		{Stmt: stmt{Label: "var/b/set-other"}, Aspect: aspectError, Real: "1238: x", Sim: ""},
		{Stmt: stmt{Label: "var/a/set-other"}, Aspect: aspectError, Real: "1105: y", Sim: ""},
		{Stmt: stmt{Label: "engine/x"}, Aspect: aspectRows, Real: "(1)", Sim: "(2)"},
	}
	known := []knownDifference{
		{ID: "scope", Match: func(d difference, f *facts) bool { return infoDiffers(d, f, func(v varInfo) string { return v.Scope }) }},
		{ID: "vars", Vars: []string{"b"}},
		{ID: "label", Labels: []string{"engine/*"}, Aspects: []aspect{aspectColumns}},
		{ID: "stale", Labels: []string{"nothing/*"}},
	}
	e := explain(diffs, known, f)
	if len(e.unexplained) != 2 || e.unexplained[0].Stmt.Label != "var/a/set-other" || e.unexplained[1].Stmt.Label != "engine/x" {
		t.Errorf("unexplained = %v", e.unexplained)
	}
	if got := e.subjects; len(got["scope"]) != 1 || got["scope"][0] != "b" || len(got["vars"]) != 0 || len(got["label"]) != 0 || len(got["stale"]) != 0 {
		t.Errorf("subjects = %v", got)
	}
}

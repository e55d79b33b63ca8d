package live

import (
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/tiform/tiform/state"
	"github.com/tiform/tiform/version"
	"github.com/tiform/tiform/workload"
)

// docStatements returns, in order, the statement of each row of the table
// under "## The statements" in docs/inspection.md (the row's first code span,
// `…` or “ `…` ”).
func docStatements(t *testing.T) []string {
	t.Helper()
	text := docSection(t, "## The statements")
	row := regexp.MustCompile("(?m)^\\| *[0-9]+b? *\\| *(``? ?)(.+?) ?``? *\\|")
	var out []string
	for _, m := range row.FindAllStringSubmatch(text, -1) {
		out = append(out, m[2])
	}
	return out
}

// docSection returns the section of docs/inspection.md under heading, up to
// the next "## " heading.
func docSection(t *testing.T, heading string) string {
	t.Helper()
	doc, err := os.ReadFile("../docs/inspection.md")
	if err != nil {
		t.Fatal(err)
	}
	text := string(doc)
	i := strings.Index(text, heading)
	if i < 0 {
		t.Fatalf("docs/inspection.md has no %q section", heading)
	}
	text = text[i:]
	if j := strings.Index(text[1:], "\n## "); j >= 0 {
		text = text[:j+1]
	}
	return text
}

// docs/inspection.md lists exactly the statements Inspect sends, in the
// order it sends them (the issue's bar: "the exact statement list is
// documented"). Variable names in the documented SHOW GLOBAL VARIABLES are
// placeholders, so that row is compared up to "IN (".
func TestDocumentedStatementsMatchCode(t *testing.T) {
	full := Request{
		Config: []ComponentRequest{
			{Component: state.PD, Keys: []ManagedKey{{Key: "schedule.leader-schedule-limit"}}},
			{Component: state.TiKV, Keys: []ManagedKey{{Key: "coprocessor.region-split-size"}}}},
		Variables:       []string{"tidb_enable_prepared_plan_cache"},
		ResourceGroups:  true,
		Users:           true,
		Hardware:        true,
		OnlyManagedKeys: true,
	}
	want := Statements(full)
	// 1b: TIDB_VERSION() follows VERSION() when VERSION() does not parse.
	want = append([]string{want[0], stmtTiDBVersion}, want[1:]...)
	got := docStatements(t)
	// Lists of names are placeholders: compared up to "IN (".
	for i := range got {
		for _, prefix := range []string{"SHOW GLOBAL VARIABLES WHERE Variable_name IN (",
			"SELECT TYPE, INSTANCE, `KEY`, VALUE FROM INFORMATION_SCHEMA.CLUSTER_CONFIG WHERE TYPE IN ('pd', 'tikv') AND LOWER(`KEY`) IN ("} {
			if i < len(want) && strings.HasPrefix(want[i], prefix) && strings.HasPrefix(got[i], prefix) {
				got[i], want[i] = prefix+"…)", prefix+"…)"
			}
		}
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("docs/inspection.md's statement table differs from live.Statements (-code +doc):\n%s", diff)
	}
	// The counts the page states.
	doc, err := os.ReadFile("../docs/inspection.md")
	if err != nil {
		t.Fatal(err)
	}
	plan := full
	plan.Hardware = false // a plan never reads the hosts
	claim := fmt.Sprintf("between %d and %d statements (%d with `TIDB_VERSION()`)",
		len(Statements(Request{})), len(Statements(plan)), len(Statements(plan))+1)
	if !strings.Contains(string(doc), claim) {
		t.Errorf("docs/inspection.md does not say %q", claim)
	}
	if claim := fmt.Sprintf("the TiKV hosts included (%d)", len(Statements(Everything()))); !strings.Contains(string(doc), claim) {
		t.Errorf("docs/inspection.md does not say %q", claim)
	}
}

// docs/inspection.md's "## Statement statistics" table lists the statements
// of a plan's evidence read, in order (S3 abbreviated with "…": compared up
// to the first "…" and from the FROM clause on).
func TestDocumentedStatementStatistics(t *testing.T) {
	text := docSection(t, "## Statement statistics")
	row := regexp.MustCompile("(?m)^\\| *S[0-9]+ *\\| *`(.+?)` *\\|")
	var got []string
	for _, m := range row.FindAllStringSubmatch(text, -1) {
		got = append(got, m[1])
	}
	l := &state.Live{ServerVersionParsed: version.MustParse("v8.5.1")}
	want := StatementsStatements(l, StatementsRequest{Query: workload.Query{Since: workload.DefaultSince, Limit: workload.DefaultLimit}, Variables: true})
	if len(got) != len(want) {
		t.Fatalf("documented %d statements, the read sends %d:\n%q", len(got), len(want), got)
	}
	for k := range want {
		doc := got[k]
		head, tail, abbreviated := strings.Cut(doc, "…")
		if !abbreviated {
			if doc != want[k] {
				t.Errorf("S%d: documented %q, sent %q", k+1, doc, want[k])
			}
			continue
		}
		if !strings.HasPrefix(want[k], head) {
			t.Errorf("S%d: %q does not start like the statement sent: %q", k+1, head, want[k])
		}
		if from := strings.Index(tail, " FROM "); from >= 0 && !strings.HasSuffix(want[k], tail[from:]) {
			t.Errorf("S%d: %q does not end like the statement sent: %q", k+1, tail[from:], want[k])
		}
	}
}

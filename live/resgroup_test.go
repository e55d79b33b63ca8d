package live

import (
	"bufio"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/tiform/tiform/state"
)

func ptr[T any](v T) *T { return &v }

// row builds a RESOURCE_GROUPS row; "" cells are omitted (column absent),
// "NULL" cells are SQL NULL.
func row(kv ...string) map[string]*string {
	m := map[string]*string{}
	for i := 0; i+1 < len(kv); i += 2 {
		if kv[i+1] == "NULL" {
			m[kv[i]] = nil
			continue
		}
		m[kv[i]] = ptr(kv[i+1])
	}
	return m
}

func TestParseResourceGroup(t *testing.T) {
	tests := []struct {
		name string
		row  map[string]*string
		want state.ResourceGroup
	}{
		{"v6.6 three columns (docs-cn-rg-create-v6.6)",
			row("NAME", "rg1", "RU_PER_SEC", "100", "BURSTABLE", "YES"),
			state.ResourceGroup{Name: "rg1", RUPerSec: ptr(int64(100)), Burstable: ptr(state.BurstUnlimited)}},
		{"v8.5 default UNLIMITED YES with background",
			row("NAME", "default", "RU_PER_SEC", "UNLIMITED", "PRIORITY", "MEDIUM", "BURSTABLE", "YES", "QUERY_LIMIT", "NULL", "BACKGROUND", "TASK_TYPES='br,ddl', UTILIZATION_LIMIT=30"),
			state.ResourceGroup{Name: "default", RUPerSec: ptr(state.UnlimitedRU), Priority: ptr("MEDIUM"), Burstable: ptr(state.BurstUnlimited),
				Background: &state.Background{TaskTypes: []string{"br", "ddl"}, UtilizationLimit: ptr(int64(30))}}},
		{"NO is OFF, cooldown watch (docs-cn-rg-alter-v7.4-v8.3)",
			row("NAME", "rg1", "RU_PER_SEC", "200", "PRIORITY", "LOW", "BURSTABLE", "NO", "QUERY_LIMIT", "EXEC_ELAPSED='1s', ACTION=COOLDOWN, WATCH=EXACT DURATION='30s'", "BACKGROUND", "NULL"),
			state.ResourceGroup{Name: "rg1", RUPerSec: ptr(int64(200)), Priority: ptr("LOW"), Burstable: ptr(state.BurstOff),
				QueryLimit: &state.QueryLimit{ExecElapsed: "1s", Action: "COOLDOWN", Watch: "EXACT", WatchDuration: "30s"}}},
		{"v9.0 MODERATED",
			row("NAME", "rg1", "RU_PER_SEC", "500", "PRIORITY", "MEDIUM", "BURSTABLE", "MODERATED", "QUERY_LIMIT", "NULL", "BACKGROUND", "NULL"),
			state.ResourceGroup{Name: "rg1", RUPerSec: ptr(int64(500)), Priority: ptr("MEDIUM"), Burstable: ptr(state.BurstModerated)}},
		{"Go durations canonical, 10m0s and unlimited watch (test-tidb-resource-group-test)",
			row("NAME", "x", "RU_PER_SEC", "UNLIMITED", "PRIORITY", "MEDIUM", "BURSTABLE", "YES", "QUERY_LIMIT", "EXEC_ELAPSED='15s', ACTION=DRYRUN, WATCH=SIMILAR DURATION='10m0s'", "BACKGROUND", "<nil>"),
			state.ResourceGroup{Name: "x", RUPerSec: ptr(state.UnlimitedRU), Priority: ptr("MEDIUM"), Burstable: ptr(state.BurstUnlimited),
				QueryLimit: &state.QueryLimit{ExecElapsed: "15s", Action: "DRYRUN", Watch: "SIMILAR", WatchDuration: "10m0s"}}},
		{"DURATION=UNLIMITED",
			row("NAME", "rg3", "QUERY_LIMIT", "EXEC_ELAPSED='50ms', ACTION=KILL, WATCH=EXACT DURATION=UNLIMITED"),
			state.ResourceGroup{Name: "rg3", QueryLimit: &state.QueryLimit{ExecElapsed: "50ms", Action: "KILL", Watch: "EXACT", WatchDuration: "UNLIMITED"}}},
		{"unquoted v7.2-v8.5 docs form",
			row("NAME", "rg2", "QUERY_LIMIT", "EXEC_ELAPSED=100ms, ACTION=KILL"),
			state.ResourceGroup{Name: "rg2", QueryLimit: &state.QueryLimit{ExecElapsed: "100ms", Action: "KILL"}}},
		{"v7.2 bracket watch",
			row("NAME", "rg1", "QUERY_LIMIT", "EXEC_ELAPSED=1s, ACTION=COOLDOWN, WATCH=EXACT[30s]"),
			state.ResourceGroup{Name: "rg1", QueryLimit: &state.QueryLimit{ExecElapsed: "1s", Action: "COOLDOWN", Watch: "EXACT", WatchDuration: "30s"}}},
		{"60s rendered 1m0s stays 1m0s (gh-tidb-51325)",
			row("NAME", "rg3", "QUERY_LIMIT", "EXEC_ELAPSED='1m0s', ACTION=KILL"),
			state.ResourceGroup{Name: "rg3", QueryLimit: &state.QueryLimit{ExecElapsed: "1m0s", Action: "KILL"}}},
		{"switch group, keys and RU",
			row("NAME", "rg4", "QUERY_LIMIT", "PROCESSED_KEYS=10000, RU=500, ACTION=SWITCH_GROUP(rg_slow), WATCH=PLAN DURATION='1h0m0s'"),
			state.ResourceGroup{Name: "rg4", QueryLimit: &state.QueryLimit{ProcessedKeys: ptr(int64(10000)), RU: ptr(int64(500)), Action: "SWITCH_GROUP", SwitchGroup: "rg_slow", Watch: "PLAN", WatchDuration: "1h0m0s"}}},
		// Renderings of tidb-server (pingcap/tidb@e4e814fdc0af), seen in
		// cmd/real_groups_test.go: an unquoted SWITCH_GROUP target keeps
		// its case, commas, parentheses and spaces; BACKGROUND without
		// TASK_TYPES; the empty name TiDB accepts.
		{"switch group name with comma, parentheses and a trailing space",
			row("NAME", "q", "QUERY_LIMIT", "EXEC_ELAPSED='1m0s', ACTION=SWITCH_GROUP(A,b) c ), WATCH=EXACT DURATION=UNLIMITED"),
			state.ResourceGroup{Name: "q", QueryLimit: &state.QueryLimit{ExecElapsed: "1m0s", Action: "SWITCH_GROUP", SwitchGroup: "A,b) c ", Watch: "EXACT", WatchDuration: "UNLIMITED"}}},
		{"background with a utilization limit only",
			row("NAME", "default", "BACKGROUND", "UTILIZATION_LIMIT=50"),
			state.ResourceGroup{Name: "default", Background: &state.Background{UtilizationLimit: ptr(int64(50))}}},
		{"the empty name",
			row("NAME", "", "RU_PER_SEC", "100", "BURSTABLE", "NO"),
			state.ResourceGroup{Name: "", RUPerSec: ptr(int64(100)), Burstable: ptr(state.BurstOff)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, _, err := parseResourceGroup(tt.row)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// The BURSTABLE cell says which vocabulary the server speaks.
func TestBurstSyntax(t *testing.T) {
	for cell, want := range map[string]state.BurstSyntax{"YES": state.BurstSyntaxBool, "NO": state.BurstSyntaxBool,
		"OFF": state.BurstSyntaxModes, "MODERATED": state.BurstSyntaxModes, "UNLIMITED": state.BurstSyntaxModes, "NULL": state.BurstSyntaxUnknown} {
		_, got, err := parseResourceGroup(row("NAME", "g", "BURSTABLE", cell))
		if err != nil || got != want {
			t.Errorf("BURSTABLE %s: syntax %q (%v), want %q", cell, got, err, want)
		}
	}
}

func TestParseResourceGroupErrors(t *testing.T) {
	tests := []struct {
		name string
		row  map[string]*string
		want string
	}{
		{"no name column", row("RU_PER_SEC", "1"), "row without NAME"},
		{"bad RU", row("NAME", "a", "RU_PER_SEC", "lots"), `RU_PER_SEC "lots"`},
		{"bad priority", row("NAME", "a", "PRIORITY", "URGENT"), `unknown PRIORITY "URGENT"`},
		{"bad burstable", row("NAME", "a", "BURSTABLE", "MAYBE"), `unknown BURSTABLE "MAYBE"`},
		{"bad duration", row("NAME", "a", "QUERY_LIMIT", "EXEC_ELAPSED='15d', ACTION=KILL"), `bad duration`},
		{"bad action", row("NAME", "a", "QUERY_LIMIT", "EXEC_ELAPSED='1s', ACTION=EXPLODE"), `unknown ACTION`},
		{"bad item", row("NAME", "a", "QUERY_LIMIT", "FOO=1"), `unknown item FOO`},
		{"bad background", row("NAME", "a", "BACKGROUND", "UTILIZATION_LIMIT=x"), `UTILIZATION_LIMIT`},
	}
	for _, tt := range tests {
		_, _, err := parseResourceGroup(tt.row)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: error %v, want it to contain %q", tt.name, err, tt.want)
		}
	}
}

// Every row of the real-output corpus (testdata/resource_groups.tsv, a copy
// of internal/tidbsim/testdata/corpus/resource_groups.tsv; sources in its
// SOURCES.md) parses.
func TestParseResourceGroupCorpus(t *testing.T) {
	f, err := os.Open("testdata/resource_groups.tsv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Scan() // header
	cols := []string{"NAME", "RU_PER_SEC", "PRIORITY", "BURSTABLE", "QUERY_LIMIT", "BACKGROUND"}
	n := 0
	for sc.Scan() {
		cells := strings.Split(sc.Text(), "\t")
		if len(cells) < 6 {
			continue
		}
		r := map[string]*string{}
		for i, c := range cols {
			if 2+i < len(cells) && cells[2+i] != "" {
				r[c] = ptr(cells[2+i])
			}
		}
		if _, _, err := parseResourceGroup(r); err != nil {
			t.Errorf("line %q: %v", sc.Text(), err)
		}
		n++
	}
	if n < 40 {
		t.Fatalf("read only %d corpus rows", n)
	}
}

// Fuzz the QUERY_LIMIT / BACKGROUND parsers: never panic, and a parsed
// duration is always in Go's canonical form.
func FuzzParseQueryLimit(f *testing.F) {
	for _, s := range []string{
		"EXEC_ELAPSED='1s', ACTION=COOLDOWN, WATCH=EXACT DURATION='30s'",
		"EXEC_ELAPSED=100ms, ACTION=KILL",
		"EXEC_ELAPSED=1s, ACTION=COOLDOWN, WATCH=EXACT[30s]",
		"PROCESSED_KEYS=10000, RU=500, ACTION=SWITCH_GROUP(rg_slow), WATCH=PLAN DURATION=UNLIMITED",
		"TASK_TYPES='br,ddl', UTILIZATION_LIMIT=30",
		"", ",", "=", "WATCH=", "ACTION=SWITCH_GROUP(", "EXEC_ELAPSED='",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if ql, err := parseQueryLimit(s); err == nil && ql.ExecElapsed != "" {
			if _, err := goDuration(ql.ExecElapsed); err != nil {
				t.Errorf("ExecElapsed %q is not a Go duration", ql.ExecElapsed)
			}
		}
		_, _ = parseBackground(s)
	})
}

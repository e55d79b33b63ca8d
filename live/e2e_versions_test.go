package live

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/tiform/tiform/internal/tidbsim"
	"github.com/tiform/tiform/internal/tidbsimtest"
	"github.com/tiform/tiform/state"
)

// Resource groups read back across versions: the column set and the
// BURSTABLE rendering differ (https://docs.pingcap.com/tidb/v8.5/information-schema-resource-groups and the /v7.5/, /dev/ pages);
// the state does not.
func TestResourceGroupsAcrossVersions(t *testing.T) {
	tests := []struct {
		version string
		sql     string
		want    state.ResourceGroup
	}{
		{"v7.1.5", "CREATE RESOURCE GROUP rg1 RU_PER_SEC=100 PRIORITY=HIGH BURSTABLE",
			state.ResourceGroup{Name: "rg1", RUPerSec: ptr(int64(100)), Priority: ptr("HIGH"), Burstable: ptr(state.BurstUnlimited)}},
		{"v7.5.2", "CREATE RESOURCE GROUP rg1 RU_PER_SEC=200 QUERY_LIMIT=(EXEC_ELAPSED='10m', ACTION=COOLDOWN, WATCH=SIMILAR DURATION='1h')",
			state.ResourceGroup{Name: "rg1", RUPerSec: ptr(int64(200)), Priority: ptr("MEDIUM"), Burstable: ptr(state.BurstOff),
				QueryLimit: &state.QueryLimit{ExecElapsed: "10m0s", Action: "COOLDOWN", Watch: "SIMILAR", WatchDuration: "1h0m0s"}}},
		{"v8.5.1", "CREATE RESOURCE GROUP rg1 RU_PER_SEC=300 PRIORITY=LOW BURSTABLE",
			state.ResourceGroup{Name: "rg1", RUPerSec: ptr(int64(300)), Priority: ptr("LOW"), Burstable: ptr(state.BurstUnlimited)}},
		{"v9.0.0", "CREATE RESOURCE GROUP rg1 RU_PER_SEC=400 BURSTABLE=MODERATED",
			state.ResourceGroup{Name: "rg1", RUPerSec: ptr(int64(400)), Priority: ptr("MEDIUM"), Burstable: ptr(state.BurstModerated)}},
	}
	for _, tt := range tests {
		t.Run(tt.version, func(t *testing.T) {
			s := tidbsimtest.Start(t, tidbsim.Options{Version: tt.version, SQL: []string{tt.sql}})
			db := openSim(t, s, "root", "")
			l, _ := inspectLogged(t, s, db, Request{ResourceGroups: true})
			if len(l.Incomplete()) != 0 {
				t.Fatalf("incomplete: %q", l.Incomplete())
			}
			var got *state.ResourceGroup
			for i := range l.ResourceGroups {
				if l.ResourceGroups[i].Name == "rg1" {
					got = &l.ResourceGroups[i]
				}
			}
			if got == nil {
				t.Fatalf("rg1 not read: %+v", l.ResourceGroups)
			}
			if diff := cmp.Diff(tt.want, *got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// VERSION() and CLUSTER_INFO as each release prints them parse to the same
// version (5.7.25- prefix before v7.4.0: https://docs.pingcap.com/tidb/stable/release-7.4.0;
// no "v" in CLUSTER_INFO: pingcap/tidb@v8.5.1:pkg/infoschema/tables.go).
func TestVersionsAcrossReleases(t *testing.T) {
	for _, v := range []string{"v6.5.9", "v7.1.5", "v7.5.2", "v8.1.2", "v8.5.1", "v8.5.3", "v9.0.0"} {
		t.Run(v, func(t *testing.T) {
			s := tidbsimtest.Start(t, tidbsim.Options{Version: v})
			db := openSim(t, s, "root", "")
			l, _ := inspectLogged(t, s, db, Request{})
			if got := l.ServerVersionParsed.Short(); got != v {
				t.Errorf("TiDB version %q parsed as %s", l.ServerVersion, got)
			}
			for _, c := range []state.Component{state.TiDB, state.PD, state.TiKV} {
				if min, ok := l.MinVersion(c); !ok || min.Short() != v {
					t.Errorf("MinVersion(%s) = %v, %v", c, min, ok)
				}
			}
			if len(l.Notes) != 0 || len(l.Incomplete()) != 0 {
				t.Errorf("notes %q, incomplete %q", l.Notes, l.Incomplete())
			}
		})
	}
}

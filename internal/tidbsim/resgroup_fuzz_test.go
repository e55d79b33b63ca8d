package tidbsim

import (
	"testing"

	"github.com/tiform/tiform/version"
)

// FuzzRGStatement: resource-group statements never panic; every failure is an
// SQLError.
func FuzzRGStatement(f *testing.F) {
	for _, s := range []string{
		"CREATE RESOURCE GROUP rg1 RU_PER_SEC = 100",
		"ALTER RESOURCE GROUP default BACKGROUND=(TASK_TYPES='br,ddl', UTILIZATION_LIMIT=30)",
		"CREATE RESOURCE GROUP g RU_PER_SEC=100 QUERY_LIMIT=(PROCESSED_KEYS=10 ACTION=SWITCH_GROUP(x) WATCH=PLAN DURATION=UNLIMITED)",
		"DROP RESOURCE GROUP IF EXISTS g",
		"CREATE RESOURCE GROUP x ru_per_sec=1000 QUERY_LIMIT=(EXEC_ELAPSED='15d' action kill)",
	} {
		f.Add(s, "v8.5.1")
	}
	f.Add("CREATE RESOURCE GROUP g RU_PER_SEC=1 BURSTABLE=MODERATED", "v9.0.0")
	f.Fuzz(func(t *testing.T, sql, ver string) {
		v, err := version.Parse(ver)
		if err != nil {
			return
		}
		rs := NewResourceGroups()
		_, err = rgExec(rs, RGEnv{Version: v, Enabled: true}, sql)
		if err != nil {
			if _, ok := err.(*SQLError); !ok {
				t.Fatalf("non-SQL error %T: %v", err, err)
			}
			return
		}
		for _, g := range rs.List() {
			_ = g.InfoSchemaRow(v)
			_ = g.ShowCreate()
		}
	})
}

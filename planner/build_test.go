package planner

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/tiform/tiform/diag"
	"github.com/tiform/tiform/guard"
	"github.com/tiform/tiform/plans"
	"github.com/tiform/tiform/state"
)

func TestConfigTargeting(t *testing.T) {
	tests := []struct {
		name   string
		setup  func(l *state.Live)
		config []state.ConfigSetting
		want   []summary
	}{
		{
			name: "some instances drifted: only they are targeted",
			setup: func(l *state.Live) {
				tikvAll(l, "storage.block-cache.capacity", "8GiB")
				setRow(l, "tikv", "10.0.1.18:20160", "storage.block-cache.capacity", "6GiB")
			},
			config: []state.ConfigSetting{cfgS("tikv", "storage.block-cache.capacity", "8GiB", 1)},
			want: []summary{{
				Address: "tikv.storage.block-cache.capacity", Action: "drift",
				Before: []plans.InstanceValue{{Instance: "10.0.1.18:20160", Value: "6GiB"}}, After: "8GiB",
				Statements: []string{"SET CONFIG '10.0.1.18:20160' `storage.block-cache.capacity` = '8GiB'"},
				Rollback:   []string{"SET CONFIG '10.0.1.18:20160' `storage.block-cache.capacity` = '6GiB'"},
			}},
		},
		{
			name: "all differ with different values: type-wide statement, per-instance rollback",
			setup: func(l *state.Live) {
				tikvAll(l, "storage.block-cache.capacity", "4GiB")
				setRow(l, "tikv", "10.0.1.19:20160", "storage.block-cache.capacity", "6GiB")
			},
			config: []state.ConfigSetting{cfgS("tikv", "storage.block-cache.capacity", "8GiB", 1)},
			want: []summary{{
				Address: "tikv.storage.block-cache.capacity", Action: "update",
				Before: []plans.InstanceValue{{Instance: "10.0.1.17:20160", Value: "4GiB"}, {Instance: "10.0.1.18:20160", Value: "4GiB"}, {Instance: "10.0.1.19:20160", Value: "6GiB"}}, After: "8GiB",
				Statements: []string{"SET CONFIG tikv `storage.block-cache.capacity` = '8GiB'"},
				Rollback: []string{
					"SET CONFIG '10.0.1.17:20160' `storage.block-cache.capacity` = '4GiB'",
					"SET CONFIG '10.0.1.18:20160' `storage.block-cache.capacity` = '4GiB'",
					"SET CONFIG '10.0.1.19:20160' `storage.block-cache.capacity` = '6GiB'",
				},
			}},
		},
		{
			name:  "per-instance value overrides the type-wide one",
			setup: func(l *state.Live) { tikvAll(l, "storage.block-cache.capacity", "4GiB") },
			config: []state.ConfigSetting{
				cfgS("tikv", "storage.block-cache.capacity", "8GiB", 1),
				cfgI("tikv", "10.0.1.19:20160", "storage.block-cache.capacity", "16GiB", 2),
			},
			want: []summary{
				{
					Address: "tikv.storage.block-cache.capacity", Action: "update",
					Before: []plans.InstanceValue{{Instance: "10.0.1.17:20160", Value: "4GiB"}, {Instance: "10.0.1.18:20160", Value: "4GiB"}}, After: "8GiB",
					Statements: []string{
						"SET CONFIG '10.0.1.17:20160' `storage.block-cache.capacity` = '8GiB'",
						"SET CONFIG '10.0.1.18:20160' `storage.block-cache.capacity` = '8GiB'",
					},
					Rollback: []string{
						"SET CONFIG '10.0.1.17:20160' `storage.block-cache.capacity` = '4GiB'",
						"SET CONFIG '10.0.1.18:20160' `storage.block-cache.capacity` = '4GiB'",
					},
				},
				{
					Address: `tikv["10.0.1.19:20160"].storage.block-cache.capacity`, Action: "update",
					Before: []plans.InstanceValue{{Instance: "10.0.1.19:20160", Value: "4GiB"}}, After: "16GiB",
					Statements: []string{"SET CONFIG '10.0.1.19:20160' `storage.block-cache.capacity` = '16GiB'"},
					Rollback:   []string{"SET CONFIG '10.0.1.19:20160' `storage.block-cache.capacity` = '4GiB'"},
				},
			},
		},
		{
			name:  "per-instance value already in place: only the others change",
			setup: func(l *state.Live) { tikvAll(l, "storage.block-cache.capacity", "16GiB") },
			config: []state.ConfigSetting{
				cfgS("tikv", "storage.block-cache.capacity", "8GiB", 1),
				cfgI("tikv", "10.0.1.19:20160", "storage.block-cache.capacity", "16GiB", 2),
			},
			want: []summary{{
				Address: "tikv.storage.block-cache.capacity", Action: "update",
				Before: []plans.InstanceValue{{Instance: "10.0.1.17:20160", Value: "16GiB"}, {Instance: "10.0.1.18:20160", Value: "16GiB"}}, After: "8GiB",
				Statements: []string{
					"SET CONFIG '10.0.1.17:20160' `storage.block-cache.capacity` = '8GiB'",
					"SET CONFIG '10.0.1.18:20160' `storage.block-cache.capacity` = '8GiB'",
				},
				Rollback: []string{
					"SET CONFIG '10.0.1.17:20160' `storage.block-cache.capacity` = '16GiB'",
					"SET CONFIG '10.0.1.18:20160' `storage.block-cache.capacity` = '16GiB'",
				},
			}},
		},
		{
			name:   "PD: one statement for the shared config",
			setup:  func(l *state.Live) { setRow(l, "pd", "10.0.1.10:2379", "schedule.max-merge-region-size", "20") },
			config: []state.ConfigSetting{cfgN("pd", "schedule.max-merge-region-size", "54", 1)},
			want: []summary{{
				Address: "pd.schedule.max-merge-region-size", Action: "update",
				Before: []plans.InstanceValue{{Instance: "10.0.1.10:2379", Value: "20"}}, After: "54",
				Statements: []string{"SET CONFIG pd `schedule.max-merge-region-size` = 54"},
				Rollback:   []string{"SET CONFIG pd `schedule.max-merge-region-size` = 20"},
			}},
		},
		{
			name:   "missing row: absent, no rollback",
			setup:  func(l *state.Live) {},
			config: []state.ConfigSetting{cfgS("tikv", "storage.block-cache.capacity", "8GiB", 1)},
			want: []summary{{
				Address: "tikv.storage.block-cache.capacity", Action: "update",
				Before: []plans.InstanceValue{{Instance: "10.0.1.17:20160", Value: plans.Absent}, {Instance: "10.0.1.18:20160", Value: plans.Absent}, {Instance: "10.0.1.19:20160", Value: plans.Absent}}, After: "8GiB",
				Statements: []string{"SET CONFIG tikv `storage.block-cache.capacity` = '8GiB'"},
			}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := cluster("8.5.4")
			tt.setup(l)
			cp := build(t, &state.DesiredCluster{Config: tt.config}, l)
			if diff := cmp.Diff(tt.want, summarize(cp)); diff != "" {
				t.Errorf("changes (-want +got):\n%s", diff)
			}
		})
	}
}

func TestResourceGroups(t *testing.T) {
	ql := &state.QueryLimit{ExecElapsed: "1m0s", Action: "COOLDOWN", Watch: "EXACT", WatchDuration: "10m0s"}
	tests := []struct {
		name    string
		version string
		setup   func(l *state.Live)
		dc      state.DesiredCluster
		want    []summary
		unman   []string
	}{
		{
			name:    "create with only declared options; burstable=true is bare BURSTABLE on 8.5",
			version: "8.5.4",
			dc:      state.DesiredCluster{ResourceGroups: []state.ResourceGroup{{Name: "OLTP", RUPerSec: i64(2000), BurstableBool: bl(true)}}},
			want: []summary{{
				Address: "resource_group.oltp", Action: "create", After: "RU_PER_SEC=2000, BURSTABLE=UNLIMITED",
				Statements: []string{"CREATE RESOURCE GROUP `oltp` RU_PER_SEC = 2000, BURSTABLE"},
				Rollback:   []string{"DROP RESOURCE GROUP IF EXISTS `oltp`"},
			}},
		},
		{
			name:    "burstable=true is explicit UNLIMITED on 9.0",
			version: "9.0.0",
			dc:      state.DesiredCluster{ResourceGroups: []state.ResourceGroup{{Name: "oltp", RUPerSec: i64(2000), BurstableBool: bl(true)}}},
			want: []summary{{
				Address: "resource_group.oltp", Action: "create", After: "RU_PER_SEC=2000, BURSTABLE=UNLIMITED",
				Statements: []string{"CREATE RESOURCE GROUP `oltp` RU_PER_SEC = 2000, BURSTABLE = UNLIMITED"},
				Rollback:   []string{"DROP RESOURCE GROUP IF EXISTS `oltp`"},
			}},
		},
		{
			name:    "burstable=false on 8.5",
			version: "8.5.4",
			dc:      state.DesiredCluster{ResourceGroups: []state.ResourceGroup{{Name: "oltp", RUPerSec: i64(2000), BurstableBool: bl(false)}}},
			want: []summary{{
				Address: "resource_group.oltp", Action: "create", After: "RU_PER_SEC=2000, BURSTABLE=OFF",
				Statements: []string{"CREATE RESOURCE GROUP `oltp` RU_PER_SEC = 2000, BURSTABLE = FALSE"},
				Rollback:   []string{"DROP RESOURCE GROUP IF EXISTS `oltp`"},
			}},
		},
		{
			name:    "alter only what changed; QUERY_LIMIT replaced whole",
			version: "8.5.4",
			setup: func(l *state.Live) {
				l.ResourceGroups = append(l.ResourceGroups, state.ResourceGroup{Name: "oltp", RUPerSec: i64(2000), Priority: str("MEDIUM"), Burstable: str(state.BurstOff), QueryLimit: ql})
			},
			dc: state.DesiredCluster{ResourceGroups: []state.ResourceGroup{{Name: "oltp", RUPerSec: i64(2000), Priority: str("high"),
				QueryLimit: &state.QueryLimit{ExecElapsed: "60s", Action: "KILL", Watch: "EXACT", WatchDuration: "10m"}}}},
			want: []summary{{
				Address: "resource_group.oltp", Action: "update",
				Before:     []plans.InstanceValue{{Instance: "", Value: "PRIORITY=MEDIUM, QUERY_LIMIT=(EXEC_ELAPSED='1m0s', ACTION=COOLDOWN, WATCH=EXACT DURATION='10m0s')"}},
				After:      "PRIORITY=HIGH, QUERY_LIMIT=(EXEC_ELAPSED='1m0s', ACTION=KILL, WATCH=EXACT DURATION='10m0s')",
				Statements: []string{"ALTER RESOURCE GROUP `oltp` PRIORITY = HIGH, QUERY_LIMIT = (EXEC_ELAPSED = '1m0s', ACTION = KILL, WATCH = EXACT DURATION = '10m0s')"},
				Rollback:   []string{"ALTER RESOURCE GROUP `oltp` PRIORITY = MEDIUM, QUERY_LIMIT = (EXEC_ELAPSED = '1m0s', ACTION = COOLDOWN, WATCH = EXACT DURATION = '10m0s')"},
			}},
		},
		{
			name:    "query limit declared empty removes it",
			version: "8.5.4",
			setup: func(l *state.Live) {
				l.ResourceGroups = append(l.ResourceGroups, state.ResourceGroup{Name: "oltp", RUPerSec: i64(2000), QueryLimit: ql})
			},
			dc: state.DesiredCluster{ResourceGroups: []state.ResourceGroup{{Name: "oltp", QueryLimit: &state.QueryLimit{Empty: true}}}},
			want: []summary{{
				Address: "resource_group.oltp", Action: "update",
				Before:     []plans.InstanceValue{{Instance: "", Value: "QUERY_LIMIT=(EXEC_ELAPSED='1m0s', ACTION=COOLDOWN, WATCH=EXACT DURATION='10m0s')"}},
				After:      "QUERY_LIMIT=NULL",
				Statements: []string{"ALTER RESOURCE GROUP `oltp` QUERY_LIMIT = NULL"},
				Rollback:   []string{"ALTER RESOURCE GROUP `oltp` QUERY_LIMIT = (EXEC_ELAPSED = '1m0s', ACTION = COOLDOWN, WATCH = EXACT DURATION = '10m0s')"},
			}},
		},
		{
			name:    "default group: alter background, never create",
			version: "8.5.4",
			dc: state.DesiredCluster{ResourceGroups: []state.ResourceGroup{{Name: "default",
				Background: &state.Background{TaskTypes: []string{"ddl", "br"}, UtilizationLimit: i64(30)}}}},
			want: []summary{{
				Address: "resource_group.default", Action: "update",
				Before:     []plans.InstanceValue{{Instance: "", Value: "BACKGROUND=NULL"}},
				After:      "BACKGROUND=(TASK_TYPES='br,ddl', UTILIZATION_LIMIT=30)",
				Statements: []string{"ALTER RESOURCE GROUP `default` BACKGROUND = (TASK_TYPES = 'br,ddl', UTILIZATION_LIMIT = 30)"},
				Rollback:   []string{"ALTER RESOURCE GROUP `default` BACKGROUND = NULL"},
			}},
		},
		{
			name:    "unmanaged groups are listed, not dropped; default never listed",
			version: "8.5.4",
			setup: func(l *state.Live) {
				l.ResourceGroups = append(l.ResourceGroups, state.ResourceGroup{Name: "zeta", RUPerSec: i64(1)}, state.ResourceGroup{Name: "alpha", RUPerSec: i64(1)})
			},
			unman: []string{"alpha", "zeta"},
		},
		{
			name:    "unmanaged groups dropped on opt-in, recreated on rollback",
			version: "8.5.4",
			setup: func(l *state.Live) {
				l.ResourceGroups = append(l.ResourceGroups, state.ResourceGroup{Name: "alpha", RUPerSec: i64(100), Priority: str("LOW"), Burstable: str(state.BurstUnlimited)})
			},
			dc: state.DesiredCluster{DropUnmanagedGroups: true},
			want: []summary{{
				Address: "resource_group.alpha", Action: "delete",
				Before:     []plans.InstanceValue{{Instance: "", Value: "RU_PER_SEC=100, PRIORITY=LOW, BURSTABLE=UNLIMITED, QUERY_LIMIT=NULL"}},
				Statements: []string{"DROP RESOURCE GROUP `alpha`"},
				Rollback:   []string{"CREATE RESOURCE GROUP IF NOT EXISTS `alpha` RU_PER_SEC = 100, PRIORITY = LOW, BURSTABLE"},
			}},
		},
		{
			name:    "users: bind listed, unbind unlisted to default",
			version: "8.5.4",
			setup: func(l *state.Live) {
				l.ResourceGroups = append(l.ResourceGroups, state.ResourceGroup{Name: "oltp", RUPerSec: i64(100)})
				l.Users = []state.UserBinding{
					{UserRef: state.UserRef{User: "app", Host: "%"}},
					{UserRef: state.UserRef{User: "old", Host: "%"}, ResourceGroup: "oltp"},
					{UserRef: state.UserRef{User: "ok", Host: "%"}, ResourceGroup: "OLTP"},
				}
			},
			dc: state.DesiredCluster{ResourceGroups: []state.ResourceGroup{{Name: "oltp", RUPerSec: i64(100),
				Users: []state.UserRef{{User: "ok", Host: "%"}, {User: "app", Host: "%"}}}}},
			want: []summary{
				{
					Address: `user."app"@"%".resource_group`, Action: "update", Before: []plans.InstanceValue{{Instance: "", Value: "default"}}, After: "oltp",
					Statements: []string{"ALTER USER 'app'@'%' RESOURCE GROUP `oltp`"},
					Rollback:   []string{"ALTER USER 'app'@'%' RESOURCE GROUP `default`"},
				},
				{
					Address: `user."old"@"%".resource_group`, Action: "update", Before: []plans.InstanceValue{{Instance: "", Value: "oltp"}}, After: "default",
					Statements: []string{"ALTER USER 'old'@'%' RESOURCE GROUP `default`"},
					Rollback:   []string{"ALTER USER 'old'@'%' RESOURCE GROUP `oltp`"},
				},
			},
		},
		{
			// The real server at v9.0.0-beta.2.pre (master e4e814fdc0af)
			// shows YES/NO and refuses BURSTABLE = UNLIMITED: what the
			// cluster shows decides over the version.
			name:    "a 9.0 server that shows YES/NO: bare BURSTABLE",
			version: "9.0.0",
			setup:   func(l *state.Live) { l.BurstSyntax = state.BurstSyntaxBool },
			dc:      state.DesiredCluster{ResourceGroups: []state.ResourceGroup{{Name: "oltp", RUPerSec: i64(2000), BurstableBool: bl(true)}}},
			want: []summary{{
				Address: "resource_group.oltp", Action: "create", After: "RU_PER_SEC=2000, BURSTABLE=UNLIMITED",
				Statements: []string{"CREATE RESOURCE GROUP `oltp` RU_PER_SEC = 2000, BURSTABLE"},
				Rollback:   []string{"DROP RESOURCE GROUP IF EXISTS `oltp`"},
			}},
		},
		{
			name:    "an 8.5 server that shows modes: BURSTABLE = mode",
			version: "8.5.4",
			setup:   func(l *state.Live) { l.BurstSyntax = state.BurstSyntaxModes },
			dc:      state.DesiredCluster{ResourceGroups: []state.ResourceGroup{{Name: "oltp", RUPerSec: i64(2000), BurstableBool: bl(false)}}},
			want: []summary{{
				Address: "resource_group.oltp", Action: "create", After: "RU_PER_SEC=2000, BURSTABLE=OFF",
				Statements: []string{"CREATE RESOURCE GROUP `oltp` RU_PER_SEC = 2000, BURSTABLE = OFF"},
				Rollback:   []string{"DROP RESOURCE GROUP IF EXISTS `oltp`"},
			}},
		},
		{
			// RU_PER_SEC = UNLIMITED makes TiDB's group burstable
			// (SetDirectResourceGroupRUSecondOption): the declared burst is
			// written after it, and read back, though it did not change.
			name:    "RU_PER_SEC to UNLIMITED restates the declared burst",
			version: "8.5.4",
			setup: func(l *state.Live) {
				l.ResourceGroups = append(l.ResourceGroups, state.ResourceGroup{Name: "bu", RUPerSec: i64(100), Burstable: str(state.BurstOff)})
			},
			dc: state.DesiredCluster{ResourceGroups: []state.ResourceGroup{{Name: "bu", RUPerSec: i64(state.UnlimitedRU), BurstableBool: bl(false)}}},
			want: []summary{{
				Address: "resource_group.bu", Action: "update",
				Before:     []plans.InstanceValue{{Instance: "", Value: "RU_PER_SEC=100"}},
				After:      "RU_PER_SEC=UNLIMITED",
				Statements: []string{"ALTER RESOURCE GROUP `bu` RU_PER_SEC = UNLIMITED, BURSTABLE = FALSE"},
				Rollback:   []string{"ALTER RESOURCE GROUP `bu` RU_PER_SEC = 100"},
			}},
		},
		{
			name:    "background: a utilization limit without task types; the empty list is NULL",
			version: "8.5.4",
			setup: func(l *state.Live) {
				for i := range l.ResourceGroups {
					if l.ResourceGroups[i].Name == "default" {
						l.ResourceGroups[i].Background = &state.Background{UtilizationLimit: i64(50)}
					}
				}
			},
			dc: state.DesiredCluster{ResourceGroups: []state.ResourceGroup{{Name: "default", Background: &state.Background{TaskTypes: []string{}}}}},
			want: []summary{{
				Address: "resource_group.default", Action: "update",
				Before:     []plans.InstanceValue{{Instance: "", Value: "BACKGROUND=(UTILIZATION_LIMIT=50)"}},
				After:      "BACKGROUND=NULL",
				Statements: []string{"ALTER RESOURCE GROUP `default` BACKGROUND = NULL"},
				Rollback:   []string{"ALTER RESOURCE GROUP `default` BACKGROUND = (TASK_TYPES = '', UTILIZATION_LIMIT = 50)"},
			}},
		},
		{
			// Spaces are part of a name (TiDB keeps them); the empty name
			// TiDB accepts is never dropped (it refuses while any account is
			// bound to no group).
			name:    "names: a trailing space is another group; the empty one is kept",
			version: "8.5.4",
			setup: func(l *state.Live) {
				l.ResourceGroups = append(l.ResourceGroups, state.ResourceGroup{Name: "trail", RUPerSec: i64(100)},
					state.ResourceGroup{Name: "", RUPerSec: i64(1)})
			},
			dc: state.DesiredCluster{DropUnmanagedGroups: true, ResourceGroups: []state.ResourceGroup{{Name: "trail ", RUPerSec: i64(100)}, {Name: "trail", RUPerSec: i64(100)}}},
			want: []summary{{
				Address: `resource_group."trail "`, Action: "create", After: "RU_PER_SEC=100",
				Statements: []string{"CREATE RESOURCE GROUP `trail ` RU_PER_SEC = 100"},
				Rollback:   []string{"DROP RESOURCE GROUP IF EXISTS `trail `"},
			}},
			unman: []string{""},
		},
		{
			name:    "users not declared: bindings untouched",
			version: "8.5.4",
			setup: func(l *state.Live) {
				l.ResourceGroups = append(l.ResourceGroups, state.ResourceGroup{Name: "oltp", RUPerSec: i64(100)})
				l.Users = []state.UserBinding{{UserRef: state.UserRef{User: "old", Host: "%"}, ResourceGroup: "oltp"}}
			},
			dc: state.DesiredCluster{ResourceGroups: []state.ResourceGroup{{Name: "oltp", RUPerSec: i64(100)}}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := cluster(tt.version)
			if tt.setup != nil {
				tt.setup(l)
			}
			dc := tt.dc
			cp := build(t, &dc, l)
			if diff := cmp.Diff(tt.want, summarize(cp)); diff != "" {
				t.Errorf("changes (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.unman, cp.Unmanaged); diff != "" {
				t.Errorf("unmanaged (-want +got):\n%s", diff)
			}
		})
	}
}

func TestBuildErrors(t *testing.T) {
	tests := []struct {
		name  string
		setup func(l *state.Live)
		dc    state.DesiredCluster
		want  string
		// at is the line of the diagnostic an error caused by the
		// configuration carries (-1: a declaration without a source line in
		// this hand-built state); 0 for errors about the cluster.
		at int
	}{
		{name: "pd per instance", dc: state.DesiredCluster{Config: []state.ConfigSetting{cfgI("pd", "10.0.1.10:2379", "schedule.max-merge-region-size", "54", 3)}},
			want: "main.hcl:3:3: pd[\"10.0.1.10:2379\"].schedule.max-merge-region-size: PD config is shared", at: 3},
		{name: "unknown instance", dc: state.DesiredCluster{Config: []state.ConfigSetting{cfgI("tikv", "10.9.9.9:20160", "storage.block-cache.capacity", "1GiB", 4)}},
			want: "the cluster has no tikv instance \"10.9.9.9:20160\"", at: 4},
		{name: "tidb config", dc: state.DesiredCluster{Config: []state.ConfigSetting{cfgS("tidb", "log.level", "info", 5)}},
			want: "TiDB does not change config online", at: 5},
		{name: "declared twice", dc: state.DesiredCluster{Config: []state.ConfigSetting{cfgS("tikv", "a.b", "1", 1), cfgS("tikv", "A.B", "2", 2)}},
			want: "declared twice", at: 2},
		{name: "bad value", dc: state.DesiredCluster{Config: []state.ConfigSetting{cfgS("tikv", "coprocessor.region-split-size", "big", 7)}},
			want: "main.hcl:7:", at: 7},
		{name: "variable name", dc: state.DesiredCluster{Variables: []state.VariableSetting{varS("x; DROP TABLE t", "1", state.LiteralNumber, 1)}},
			want: "not a system variable name", at: 1},
		{name: "user missing", dc: state.DesiredCluster{ResourceGroups: []state.ResourceGroup{{Name: "g", RUPerSec: i64(1), Users: []state.UserRef{{User: "ghost", Host: "%"}}}}},
			want: "user ghost@% is listed in resource_group \"g\" but does not exist", at: -1},
		{name: "user in two groups", dc: state.DesiredCluster{ResourceGroups: []state.ResourceGroup{
			{Name: "a", RUPerSec: i64(1), Users: []state.UserRef{{User: "u", Host: "%"}}},
			{Name: "b", RUPerSec: i64(1), Users: []state.UserRef{{User: "u", Host: "%"}}}}},
			want: "is listed in resource groups", at: -1},
		{name: "moderated before 9.0", dc: state.DesiredCluster{ResourceGroups: []state.ResourceGroup{{Name: "g", RUPerSec: i64(1), Burstable: str("MODERATED")}}},
			want: "needs TiDB v9.0.0", at: -1},
		{name: "moderated where the cluster shows YES/NO", setup: func(l *state.Live) { l.BurstSyntax = state.BurstSyntaxBool },
			dc:   state.DesiredCluster{ResourceGroups: []state.ResourceGroup{{Name: "g", RUPerSec: i64(1), Burstable: str("MODERATED")}}},
			want: "needs a TiDB with burst modes: this cluster (TiDB v8.5.4) shows BURSTABLE as YES/NO", at: -1},
		{name: "a new group without RU_PER_SEC", dc: state.DesiredCluster{ResourceGroups: []state.ResourceGroup{{Name: "g", Priority: str("HIGH")}}},
			want: "a new group needs ru_per_sec", at: -1},
		{name: "background outside default", dc: state.DesiredCluster{ResourceGroups: []state.ResourceGroup{{Name: "g", RUPerSec: i64(1), Background: &state.Background{TaskTypes: []string{"br"}}}}},
			want: "only be set on the default group", at: -1},
		{name: "bad watch", dc: state.DesiredCluster{ResourceGroups: []state.ResourceGroup{{Name: "g", RUPerSec: i64(1), QueryLimit: &state.QueryLimit{ExecElapsed: "1s", Action: "KILL", Watch: "EXACT') --"}}}},
			want: "watch must be EXACT, SIMILAR or PLAN", at: -1},
		{name: "incomplete without AllowPartial", setup: func(l *state.Live) { l.Gaps = []state.Gap{{Kind: state.GapRead, Reason: "tikv 10.0.1.19 down"}} },
			want: "the live state is incomplete (tikv 10.0.1.19 down)"},
		{name: "groups not read", setup: func(l *state.Live) { l.ResourceGroupsRead = false },
			dc:   state.DesiredCluster{DropUnmanagedGroups: true},
			want: "resource groups were not read"},
		{name: "users not read", setup: func(l *state.Live) { l.UsersRead = false },
			dc:   state.DesiredCluster{ResourceGroups: []state.ResourceGroup{{Name: "g", RUPerSec: i64(1), Users: []state.UserRef{}}}},
			want: "user bindings were not read"},
		{name: "config not read", setup: func(l *state.Live) { l.ConfigRead = nil },
			dc:   state.DesiredCluster{Config: []state.ConfigSetting{cfgS("tikv", "a.b", "1", 1)}},
			want: "tikv config was not read"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := cluster("8.5.4")
			l.Users = append(l.Users, state.UserBinding{UserRef: state.UserRef{User: "u", Host: "%"}})
			if tt.setup != nil {
				tt.setup(l)
			}
			dc := tt.dc
			dc.Name = "prod"
			_, err := BuildCluster(&dc, l, Options{})
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("want error containing %q, got %v", tt.want, err)
			}
			ds, ok := diag.As(err)
			if ok != (tt.at != 0) {
				t.Fatalf("carries diagnostics: %v, want %v (%v)", ok, tt.at != 0, err)
			}
			if tt.at > 0 && (ds[0].Range.Start.Line != tt.at || ds[0].Severity != diag.Error) {
				t.Errorf("diagnostic %+v, want an error at line %d", ds[0], tt.at)
			}
		})
	}
}

func TestIncompleteAllowed(t *testing.T) {
	l := cluster("8.5.4")
	l.Gaps = []state.Gap{{Kind: state.GapRead, Reason: "tikv 10.0.1.19 down"}}
	cp, err := BuildCluster(&state.DesiredCluster{Name: "prod"}, l, Options{AllowPartial: true})
	if err != nil {
		t.Fatal(err)
	}
	var ie *IncompleteError
	_, err = BuildCluster(&state.DesiredCluster{Name: "prod"}, l, Options{})
	if !errors.As(err, &ie) || ie.Cluster != "prod" {
		t.Fatalf("want *IncompleteError, got %v", err)
	}
	if diff := cmp.Diff([]string{"tikv 10.0.1.19 down"}, cp.Incomplete); diff != "" {
		t.Error(diff)
	}
}

func TestPreventDestroy(t *testing.T) {
	dc := &state.DesiredCluster{ResourceGroups: []state.ResourceGroup{{Name: "Payments", PreventDestroy: true, Range: rng(4)}}}
	del := &plans.Change{Addr: state.GroupAddress("payments"), Action: plans.Delete}
	if err := checkPreventDestroy([]*plans.Change{del}, dc); err == nil || !strings.Contains(err.Error(), "main.hcl:4:3: resource_group \"payments\" has prevent_destroy") {
		t.Fatalf("want a prevent_destroy error, got %v", err)
	}
	del.Addr = state.GroupAddress("other")
	if err := checkPreventDestroy([]*plans.Change{del}, dc); err != nil {
		t.Fatalf("unprotected drop refused: %v", err)
	}
	// Through the planner: with drop_unmanaged_groups, the protected group is
	// kept (and altered), the undeclared one dropped.
	l := cluster("8.5.4")
	l.ResourceGroups = append(l.ResourceGroups, state.ResourceGroup{Name: "payments", RUPerSec: i64(1)}, state.ResourceGroup{Name: "scratch", RUPerSec: i64(1)})
	cp := build(t, &state.DesiredCluster{DropUnmanagedGroups: true,
		ResourceGroups: []state.ResourceGroup{{Name: "payments", RUPerSec: i64(2), PreventDestroy: true}}}, l)
	var got []string
	for _, c := range cp.Changes {
		got = append(got, c.Action.String()+" "+c.Addr.String())
	}
	if diff := cmp.Diff([]string{"update resource_group.payments", "delete resource_group.scratch"}, got); diff != "" {
		t.Error(diff)
	}
}

func TestInstanceVariable(t *testing.T) {
	l := cluster("8.5.4")
	l.Variables["tidb_slow_log_threshold"] = "300"
	cp := build(t, &state.DesiredCluster{Variables: []state.VariableSetting{varS("tidb_slow_log_threshold", "1000", state.LiteralNumber, 1)}}, l)
	c := cp.Changes[0]
	if c.Persistence != plans.PersistInstanceOnly || cp.Reach(c.Addr, c.Persistence) != "10.0.1.1:4000" {
		t.Errorf("INSTANCE variable: persistence %q reaches %q", c.Persistence, cp.Reach(c.Addr, c.Persistence))
	}
}

func TestGuardsSeePlanAndFindingsAttach(t *testing.T) {
	l := cluster("8.5.4")
	l.Variables["tidb_enable_non_prepared_plan_cache"] = "OFF"
	var seen guard.Input
	fake := func(in guard.Input) []guard.Finding {
		seen = in
		return []guard.Finding{
			{Code: "TF200", Severity: diag.Warning, Address: "variable.tidb_enable_non_prepared_plan_cache"},
			{Code: "TF100", Severity: diag.Info, Address: "variable.tidb_enable_non_prepared_plan_cache"},
			{Code: "TF200", Severity: diag.Warning, Address: "variable.tidb_enable_non_prepared_plan_cache"},
			{Code: "TF300", Severity: diag.Error},
		}
	}
	dc := &state.DesiredCluster{Name: "prod", Variables: []state.VariableSetting{varS("tidb_enable_non_prepared_plan_cache", "ON", state.LiteralBool, 2)}}
	cp, err := BuildCluster(dc, l, Options{Now: testNow, Guards: fake})
	if err != nil {
		t.Fatal(err)
	}
	// The guards see the planned changes themselves.
	if len(seen.Changes) != 1 || seen.Changes[0] != cp.Changes[0] {
		t.Errorf("guard input changes %v, want the plan's %v", seen.Changes, cp.Changes)
	}
	if seen.Desired != dc || seen.Live != l || !seen.Now.Equal(testNow) {
		t.Error("guard input lacks desired, live or now")
	}
	if diff := cmp.Diff([]string{"TF100", "TF200"}, cp.Changes[0].Findings); diff != "" {
		t.Errorf("change findings (-want +got):\n%s", diff)
	}
	if len(cp.Findings) != 4 {
		t.Errorf("cluster findings: %d, want 4", len(cp.Findings))
	}
}

// The real guard package is wired by default.
func TestRealGuardsRun(t *testing.T) {
	l := cluster("8.5.1")
	tikvAll(l, "coprocessor.region-split-size", "96MiB")
	tikvAll(l, "coprocessor.region-max-size", "1GiB")
	cp := build(t, &state.DesiredCluster{Config: []state.ConfigSetting{cfgS("tikv", "coprocessor.region-split-size", "256MiB", 1)}}, l)
	if len(cp.Findings) == 0 || len(cp.Changes[0].Findings) == 0 {
		t.Fatal("guard.Evaluate produced no finding for a region-size change on v8.5.1")
	}
}

func TestVerifyHelpers(t *testing.T) {
	v := cluster("8.5.4")
	ver, _ := v.MinVersion(state.TiDB)
	ql := &state.QueryLimit{ExecElapsed: "60s", Action: "KILL", Watch: "EXACT", WatchDuration: "10m"}
	live := &state.ResourceGroup{Name: "oltp", RUPerSec: i64(2000), Priority: str("HIGH"), QueryLimit: ql}
	// Checks as the planner writes them.
	l := cluster("8.5.4")
	l.ResourceGroups = append(l.ResourceGroups, state.ResourceGroup{Name: "oltp", RUPerSec: i64(1000), Priority: str("LOW")})
	cp := build(t, &state.DesiredCluster{ResourceGroups: []state.ResourceGroup{{Name: "oltp", RUPerSec: i64(2000), Priority: str("HIGH"), QueryLimit: ql}}}, l)
	check := cp.Changes[0].Verify[0]
	want := []plans.GroupOption{{Name: "RU_PER_SEC", Value: "2000"}, {Name: "PRIORITY", Value: "HIGH"},
		{Name: "QUERY_LIMIT", Value: "EXEC_ELAPSED='1m0s', ACTION=KILL, WATCH=EXACT DURATION='10m0s'"}}
	if diff := cmp.Diff(want, check.Options); diff != "" {
		t.Errorf("typed options (-want +got):\n%s", diff)
	}
	if !GroupSatisfied(check, live, ver) {
		t.Errorf("%v not satisfied by the applied group", check.Options)
	}
	live.Priority = str("MEDIUM")
	if GroupSatisfied(check, live, ver) {
		t.Errorf("%v satisfied by a group at MEDIUM", check.Options)
	}
	if GroupSatisfied(check, nil, ver) || !GroupSatisfied(plans.Check{Addr: state.GroupAddress("oltp"), Want: plans.Absent}, nil, ver) {
		t.Error("absent group handling")
	}
	if !Satisfied(plans.Check{Addr: state.UserAddress(state.UserRef{User: "u", Host: "%"}), Want: "default"}, "") ||
		Satisfied(plans.Check{Addr: state.UserAddress(state.UserRef{User: "u", Host: "%"}), Want: "oltp"}, "batch") {
		t.Error("Satisfied for users")
	}
}

func TestCatalogRules(t *testing.T) {
	l := cluster("8.5.4")
	l.Instances = append(l.Instances, inst(state.TiFlash, "10.0.1.30:3930", "8.5.4"))
	l.ConfigRead = append(l.ConfigRead, state.TiFlash)
	_, err := BuildCluster(&state.DesiredCluster{Name: "p", Config: []state.ConfigSetting{cfgS("tiflash", "profiles.default.max_memory_usage", "1", 2)}}, l, Options{})
	if err == nil || !strings.Contains(err.Error(), "raftstore-proxy") {
		t.Errorf("tiflash non-proxy key: %v", err)
	}
	_, err = BuildCluster(&state.DesiredCluster{Name: "p", Variables: []state.VariableSetting{varS("last_plan_from_cache", "ON", state.LiteralBool, 3)}}, l, Options{})
	if err == nil || !strings.Contains(err.Error(), "cannot be set with SET GLOBAL") {
		t.Errorf("session variable: %v", err)
	}
	tikvAll(l, "in-memory-engine.enable", "false")
	cp := build(t, &state.DesiredCluster{Config: []state.ConfigSetting{cfgS("tikv", "in-memory-engine.enable", "true", 4)}}, l)
	if len(cp.Changes) != 1 || !cp.Changes[0].RestartRequired {
		t.Errorf("IME enable false→true must need a restart: %+v", cp.Changes)
	}
	// Accepted online and written to the config file, only effective after a restart.
	if p := cp.Changes[0].Persistence; p != plans.PersistTiKVFile {
		t.Errorf("IME enable persistence = %s, want %s", p, plans.PersistTiKVFile)
	}
	// A restart-only item is kept nowhere by SET CONFIG (TiKV refuses it:
	// tikv/tikv@v8.5.1:src/config/mod.rs, to_config_change).
	tikvAll(l, "resource-control.enabled", "true")
	cp = build(t, &state.DesiredCluster{Config: []state.ConfigSetting{cfgS("tikv", "resource-control.enabled", "false", 5)}}, l)
	if len(cp.Changes) != 1 || !cp.Changes[0].RestartRequired || cp.Changes[0].Persistence != plans.PersistDeployment {
		t.Errorf("resource-control.enabled: want restart required and %s, got %+v", plans.PersistDeployment, cp.Changes)
	}
}

// A partial plan (AllowPartial) covers only what could be read: an instance
// that returned no config rows, or no row for a managed key, is unknown, not
// "<absent>"; it is neither compared nor sent a statement (issue 5: never
// mistake "could not read" for an answer).
func TestPartialPlanLeavesUnreadInstancesAlone(t *testing.T) {
	down := "10.0.1.19:20160"
	mk := func() *state.Live {
		l := cluster("8.5.4")
		for _, a := range []string{"10.0.1.17:20160", "10.0.1.18:20160"} {
			setRow(l, state.TiKV, a, "coprocessor.region-split-size", "96MiB")
			setRow(l, state.TiKV, a, "storage.block-cache.capacity", "8GiB")
		}
		setRow(l, state.PD, "10.0.1.10:2379", "schedule.max-merge-region-size", "20")
		l.Gaps = []state.Gap{{Kind: state.GapInstance, Component: state.TiKV, Instance: down, Reason: "tikv " + down + " returned no config rows"}}
		return l
	}
	tests := []struct {
		name       string
		live       func(*state.Live)
		dc         state.DesiredCluster
		wantAction plans.Action
		wantStmts  []string
		wantReason string
	}{
		{
			name:       "every readable instance differs: per-instance statements, not a type-wide one",
			dc:         state.DesiredCluster{Config: []state.ConfigSetting{cfgS("tikv", "coprocessor.region-split-size", "256MiB", 1)}},
			wantAction: plans.Update,
			wantStmts: []string{
				"SET CONFIG '10.0.1.17:20160' `coprocessor.region-split-size` = '256MiB'",
				"SET CONFIG '10.0.1.18:20160' `coprocessor.region-split-size` = '256MiB'",
			},
			wantReason: "10.0.1.19:20160 could not be read and is left alone",
		},
		{
			name: "readable instances match: no change",
			dc:   state.DesiredCluster{Config: []state.ConfigSetting{cfgS("tikv", "storage.block-cache.capacity", "8GiB", 1)}},
		},
		{
			name: "a per-instance declaration on the unread instance: no change",
			dc:   state.DesiredCluster{Config: []state.ConfigSetting{cfgI("tikv", down, "storage.block-cache.capacity", "4GiB", 1)}},
		},
		{
			name: "a key gap on one instance",
			live: func(l *state.Live) {
				l.Gaps = []state.Gap{{Kind: state.GapConfigKey, Component: state.TiKV, Instance: "10.0.1.18:20160", Key: "storage.block-cache.capacity", Reason: "no row"}}
				setRow(l, state.TiKV, down, "storage.block-cache.capacity", "4GiB")
				var rows []state.ConfigRow
				for _, r := range l.Config {
					if r.Instance != "10.0.1.18:20160" || r.Key != "storage.block-cache.capacity" {
						rows = append(rows, r)
					}
				}
				l.Config = rows
			},
			dc:         state.DesiredCluster{Config: []state.ConfigSetting{cfgS("tikv", "storage.block-cache.capacity", "8GiB", 1)}},
			wantAction: plans.Drift,
			wantStmts:  []string{"SET CONFIG '10.0.1.19:20160' `storage.block-cache.capacity` = '8GiB'"},
			wantReason: "10.0.1.18:20160 could not be read and is left alone",
		},
		{
			name: "an unreported variable is not compared",
			live: func(l *state.Live) {
				l.Gaps = append(l.Gaps, state.Gap{Kind: state.GapVariable, Key: "tidb_some_future_var", Reason: "not reported"})
			},
			dc: state.DesiredCluster{Variables: []state.VariableSetting{varS("tidb_some_future_var", "ON", state.LiteralBool, 1)}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := mk()
			if tt.live != nil {
				tt.live(l)
			}
			dc := tt.dc
			dc.Name = "prod"
			cp, err := BuildCluster(&dc, l, Options{AllowPartial: true, Guards: func(guard.Input) []guard.Finding { return nil }})
			if err != nil {
				t.Fatal(err)
			}
			if len(cp.Incomplete) == 0 {
				t.Error("the plan lost the incomplete list")
			}
			if tt.wantStmts == nil {
				if len(cp.Changes) != 0 {
					t.Fatalf("changes = %+v, want none", cp.Changes[0])
				}
				return
			}
			if len(cp.Changes) != 1 {
				t.Fatalf("%d changes, want 1", len(cp.Changes))
			}
			c := cp.Changes[0]
			var stmts []string
			for _, s := range c.Statements {
				stmts = append(stmts, s.SQL)
			}
			if diff := cmp.Diff(tt.wantStmts, stmts); diff != "" {
				t.Errorf("statements (-want +got):\n%s", diff)
			}
			if c.Action != tt.wantAction {
				t.Errorf("action = %v, want %v", c.Action, tt.wantAction)
			}
			for _, b := range c.Before {
				if b.Value == plans.Absent {
					t.Errorf("before %+v: an unread instance shown as absent", b)
				}
			}
			for _, v := range c.Verify {
				if v.Addr.Instance == "" {
					t.Errorf("verify %+v would read back the unread instance too", v)
				}
			}
			if !strings.Contains(c.Reason, tt.wantReason) {
				t.Errorf("reason %q lacks %q", c.Reason, tt.wantReason)
			}
		})
	}
}

// Inspection's notes reach the plan, once each: the reviewer learns that an
// INSTANCE-scoped variable was read from the connected TiDB only (issue 5).
func TestLiveNotesReachThePlan(t *testing.T) {
	l := cluster("8.5.4")
	note := "INSTANCE-scoped variables (max_connections) were read from 10.0.1.1:4000 only; other TiDB instances may hold other values (https://docs.pingcap.com/tidb/stable/system-variables)"
	l.Notes = []string{note, note}
	l.Variables["max_connections"] = "0"
	cp := build(t, &state.DesiredCluster{Variables: []state.VariableSetting{varS("max_connections", "0", state.LiteralNumber, 1)}}, l)
	if diff := cmp.Diff([]string{note}, cp.Notes); diff != "" {
		t.Errorf("notes (-want +got):\n%s", diff)
	}
}

// What inspection already reported as not read is listed once, not again by
// the planner in other words (a SEM cluster listed every component twice).
func TestIncompleteListedOnce(t *testing.T) {
	l := cluster("8.5.4")
	l.ConfigRead = nil
	l.SEM = true
	reason := "tikv config cannot be read: INFORMATION_SCHEMA.CLUSTER_CONFIG is hidden"
	l.Gaps = []state.Gap{{Kind: state.GapComponent, Component: state.TiKV, Reason: reason}}
	cp, err := BuildCluster(&state.DesiredCluster{Name: "prod", Config: []state.ConfigSetting{
		cfgS("tikv", "storage.block-cache.capacity", "8GiB", 1),
		cfgN("pd", "schedule.max-merge-region-size", "54", 2),
	}}, l, Options{AllowPartial: true, Guards: func(guard.Input) []guard.Finding { return nil }})
	if err != nil {
		t.Fatal(err)
	}
	// PD has no live gap (a hand-built state): the planner's own reason stays.
	want := []string{reason, "pd config was not read; its declared items were not compared"}
	if diff := cmp.Diff(want, cp.Incomplete); diff != "" {
		t.Errorf("incomplete (-want +got):\n%s", diff)
	}
}

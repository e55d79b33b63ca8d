package catalog

import (
	"strings"

	"github.com/tiform/tiform/version"
)

// Constraints between system variables that TiDB does not check when one of
// them is set with SET GLOBAL, but that matter later: the combination makes
// the server fail, so a plan must not produce it. Each is read from the
// upstream code that enforces it, at the commit of the probed server
// (internal/upstream/sysvar_probe.json), and holds from the version the
// variable was introduced.

// Constraint says that when Variable holds When, Requires must hold Value.
type Constraint struct {
	Variable, When  string
	Requires, Value string
	// Since is the first version the constraint holds in.
	Since version.Version
	// Why says what happens otherwise; Source cites the code.
	Why, Source string
}

var constraints = []Constraint{{
	Variable: "tidb_stats_update_during_ddl", When: "ON",
	Requires: "tidb_analyze_version", Value: "2",
	Since: mustVersion("v8.5.4"),
	Why: "TiDB accepts both SET GLOBALs, but every new session then fails to start with \"tidb_stats_update_during_ddl can only be " +
		"enabled with tidb_analyze_version 2\" (the variable's SetSession runs when a session loads the global values): " +
		"no new connection succeeds until one of them is changed back from a session that is still open",
	Source: "pingcap/tidb@e4e814fdc0af:pkg/sessionctx/variable/sysvar.go (TiDBEnableStatsUpdateDuringDDL, SetSession); " +
		"https://docs.pingcap.com/tidb/stable/system-variables#tidb_stats_update_during_ddl-new-in-v854-and-v900",
}}

// ConstraintsIn lists the constraints that hold at TiDB v (all of them when
// v is zero).
func ConstraintsIn(v version.Version) []Constraint {
	var out []Constraint
	for _, c := range constraints {
		if v.IsZero() || v.Compare(c.Since) >= 0 {
			out = append(out, c)
		}
	}
	return out
}

// Broken reports whether values (final value per lower-case variable name:
// declared, else live; a missing name is unknown) break c.
func (c Constraint) Broken(values map[string]string) bool {
	when, ok1 := values[c.Variable]
	req, ok2 := values[c.Requires]
	if !ok1 || !ok2 {
		return false
	}
	vs := SettingFor(TargetVariable, "tidb", c.Variable)
	rs := SettingFor(TargetVariable, "tidb", c.Requires)
	return vs.Equal(when, c.When) && !rs.Equal(strings.TrimSpace(req), c.Value)
}

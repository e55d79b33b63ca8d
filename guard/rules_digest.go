package guard

import (
	"fmt"

	"github.com/tiform/tiform/diag"
	"github.com/tiform/tiform/state"
)

// Plan-digest rule: TF127, tidb_ignore_inlist_plan_digest across the
// v8.5.6 upgrade (pingcap/tidb#68136; the default change: the pingcap/docs-cn
// release notes of v8.5.6, the upgrade fix: those of v8.5.7).

const (
	varInlistDigest = "tidb_ignore_inlist_plan_digest"
	linkTidb68136   = "https://github.com/pingcap/tidb/issues/68136"
)

func init() {
	register(&Rule{
		Code: "TF127", Severity: diag.Warning, Live: true,
		Title: "Plan digests change meaning across the v8.5.6 upgrade (tidb#68136)",
		Link:  linkTidb68136,
		Versions: "TiDB v8.5.6 (its default changed in v8.5.6 by pingcap/tidb#66624; upgrades keep the value from " +
			"v8.5.7 on, pingcap/tidb#68137 and #68138), and a planned upgrade to v8.5.6 from an earlier version",
		Reasoning: "TiDB v8.5.6 changed the default of tidb_ignore_inlist_plan_digest from OFF to ON: plan digests then " +
			"ignore the elements of IN lists. A cluster upgraded to v8.5.6 from an earlier version that never set the " +
			"variable has no row for it in mysql.global_variables, so it reads the new default and the value flips " +
			"from OFF to ON at the upgrade (pingcap/tidb#68136): statement-summary history, bindings and dashboards " +
			"keyed by plan digest change meaning at that moment, unnoticed. v8.5.7 writes the missing row during the " +
			"upgrade. A declared value is stored with SET GLOBAL, which no upgrade changes; the rule fires when the " +
			"configuration manages system variables but not this one.",
		Sources: []string{linkTidb68136, "https://github.com/pingcap/tidb/pull/66624", "https://github.com/pingcap/tidb/pull/68137",
			"https://github.com/pingcap/tidb/pull/68138", "https://docs.pingcap.com/tidb/stable/release-8.5.6",
			"https://docs.pingcap.com/tidb/stable/release-8.5.7",
			linkSysvars + "#tidb_ignore_inlist_plan_digest-new-in-v760"},
		check: checkInlistDigest,
	})
}

func checkInlistDigest(c *context) []Finding {
	tidb, ok := c.version(state.TiDB)
	if !ok || c.variable(varInlistDigest) != nil {
		return nil // declared: SET GLOBAL stores it, whatever the binary's default
	}
	if c.hcl && len(c.d.Variables) == 0 {
		return nil // the configuration manages no variable: its plan reads none
	}
	addr := state.VariableAddress(varInlistDigest).String()
	live, read := c.liveVariable(varInlistDigest)
	declare := "Declare the value you mean in the variables block — " + varInlistDigest + " = false keeps the " +
		"digests of before v8.5.6, true the new ones — so that tiform stores it with SET GLOBAL and no upgrade " +
		"changes it."
	if tidb.InlistPlanDigestFlip() && read && isOn(live) {
		return []Finding{{
			Address: addr, Range: c.d.Range,
			Summary: fmt.Sprintf("%s is ON on TiDB %s and not declared: if the cluster was upgraded from before "+
				"v8.5.6, the upgrade turned it on (tidb#68136)", varInlistDigest, tidb.Short()),
			Detail: fmt.Sprintf("TiDB v8.5.6 changed the default of %s from OFF to ON (pingcap/tidb#66624). A cluster "+
				"upgraded to v8.5.6 from an earlier version that never set it has no row for it in "+
				"mysql.global_variables and reads the new default: from the upgrade on, plan digests ignore the "+
				"elements of IN lists, so STATEMENTS_SUMMARY history, plan bindings and dashboards keyed by plan "+
				"digest changed meaning. v8.5.7 writes the missing row during upgrades (pingcap/tidb#68137, #68138). %s",
				varInlistDigest, declare),
		}}
	}
	t, planned := c.in.TargetVersions[state.TiDB]
	if planned && t.InlistPlanDigestFlip() && tidb.Before(8, 5, 6) && !(read && isOn(live)) {
		return []Finding{{
			Address: addr, Range: c.d.Range,
			Summary: fmt.Sprintf("upgrading TiDB to %s turns %s ON unless it is set: plan digests change meaning "+
				"(tidb#68136)", t.Short(), varInlistDigest),
			Detail: fmt.Sprintf("The cluster runs TiDB %s, where %s defaults to OFF. v8.5.6 changed the default to ON "+
				"(pingcap/tidb#66624), and an upgraded cluster whose mysql.global_variables has no row for the variable "+
				"reads the new default (pingcap/tidb#68136): plan digests stop distinguishing IN lists at the upgrade. "+
				"Upgrade straight to v8.5.7 or later, which writes the missing row during the upgrade "+
				"(pingcap/tidb#68137, #68138), or set the variable before upgrading. %s", tidb.Short(), varInlistDigest, declare),
		}}
	}
	return nil
}

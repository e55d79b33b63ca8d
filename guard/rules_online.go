package guard

import (
	"fmt"
	"strings"

	"github.com/tiform/tiform/diag"
	"github.com/tiform/tiform/plans"
	"github.com/tiform/tiform/state"
)

// Online-change hazards of single TiKV items: TF144 (tikv/tikv#17066),
// TF145 (raftstore.store-io-pool-size between 0 and non-0,
// https://docs.pingcap.com/tidb/stable/dynamic-config).

const (
	keyFullCompactTimes = "raftstore.periodic-full-compact-start-times"
	keyStoreIOPool      = "raftstore.store-io-pool-size"
	linkTikv17066       = "https://github.com/tikv/tikv/issues/17066"
)

func init() {
	register(
		&Rule{
			Code: "TF144", Severity: diag.Error,
			Title: "Online change of raftstore.periodic-full-compact-start-times panics TiKV (tikv#17066)",
			Link:  linkTikv17066,
			Versions: "TiKV v7.6.0–v8.1.0 (the item is new in v7.6.0; fixed in v8.1.1 by tikv/tikv#17335 and in " +
				"v8.2.0 by tikv/tikv#17069)",
			Reasoning: "On TiKV v7.6.0–v8.1.0, SET CONFIG of raftstore.periodic-full-compact-start-times makes every " +
				"TiKV instance it reaches panic (tikv/tikv#17066, severity critical). The fix's first tags are v8.1.1 " +
				"(release-8.1 cherry-pick tikv/tikv#17335) and v8.2.0 (tikv/tikv#17069); the 7.6 and 8.0 lines have no " +
				"later patch. On those versions the schedule belongs in the deployment, with a rolling restart.",
			Sources: []string{linkTikv17066, "https://github.com/tikv/tikv/pull/17069", "https://github.com/tikv/tikv/pull/17335",
				"https://docs.pingcap.com/tidb/stable/release-8.1.1", "https://docs.pingcap.com/tidb/stable/release-8.2.0",
				linkTikvConfig + "#periodic-full-compact-start-times-new-in-v760"},
			check: checkFullCompactOnline,
		},
		&Rule{
			Code: "TF145", Severity: diag.Error,
			Title:    "raftstore.store-io-pool-size changed online between 0 and non-0",
			Link:     linkDynamicConfig,
			Versions: "TiKV v6.6.0+ (online-changeable from v6.6.0, tikv/tikv#13965; restart-only before: TF140)",
			Reasoning: "store-io-pool-size 0 writes Raft logs synchronously in the store threads; a non-zero size runs " +
				"the asynchronous StoreWriter pool. TiKV resizes the pool online but refuses to switch between the two " +
				"modes (\"SYNC mode, not allowed to resize the size of store-io-pool-size\", \"ASYNC mode, not allowed " +
				"to be set to SYNC mode by resizing store-io-pool-size to 0\"), and the documentation says so: SET " +
				"CONFIG answers a per-instance warning and the value stays. Under Dynamic Regions (raftstore-v2) it " +
				"could not be resized online at all before v7.2.0 (tikv/tikv#14485).",
			Sources: []string{linkDynamicConfig + "#modify-tikv-configuration-dynamically", "https://github.com/tikv/tikv/issues/14485",
				"https://github.com/tikv/tikv/pull/13965",
				"tikv/tikv@v8.5.1:components/raftstore/src/store/config.rs (RaftstoreConfigManager::dispatch)"},
			check: checkStoreIOPoolMode,
		},
	)
}

// tikvChanges returns the planned TiKV changes of key that set a value.
func (c *context) tikvChanges(key string) []*plans.Change {
	var out []*plans.Change
	for _, ch := range c.configChanges() {
		if ch.Addr.Component == state.TiKV && ch.Action != plans.Delete && strings.EqualFold(ch.Addr.Key, key) {
			out = append(out, ch)
		}
	}
	return out
}

func checkFullCompactOnline(c *context) []Finding {
	tv, ok := c.version(state.TiKV)
	if !ok || !tv.FullCompactScheduleOnlinePanic() {
		return nil
	}
	var out []Finding
	for _, ch := range c.tikvChanges(keyFullCompactTimes) {
		out = append(out, Finding{
			Address: ch.Addr.String(), Range: ch.Range,
			Summary: fmt.Sprintf("an online change of %s panics TiKV %s (tikv#17066)", keyFullCompactTimes, tv.Short()),
			Detail: fmt.Sprintf("On TiKV v7.6.0–v8.1.0 (the lowest TiKV in the cluster runs %s), SET CONFIG of %s "+
				"makes every TiKV instance it reaches panic (tikv/tikv#17066, severity critical; fixed in v8.1.1 and "+
				"v8.2.0). Change it in the deployment instead, with a rolling restart:\n\n%s\n\nthen `tiup cluster "+
				"reload %s -R tikv` (TiDB Operator: spec.tikv.config). Or upgrade TiKV to v8.1.1, v8.2.0 or later "+
				"first. Until then, remove it from this configuration (or acknowledge TF144 with the date of the "+
				"planned restart) so that apply does not send it.",
				tv.Short(), keyFullCompactTimes, tiupSnippet(c, ch), c.clusterName()),
		})
	}
	return out
}

func checkStoreIOPoolMode(c *context) []Finding {
	tv, ok := c.version(state.TiKV)
	if !ok {
		return nil
	}
	if e, known := c.configEntry("tikv", keyStoreIOPool); !known || !e.OnlineIn(tv) {
		return nil // restart-only there: TF140
	}
	var out []Finding
	for _, ch := range c.tikvChanges(keyStoreIOPool) {
		after, ok := parseCount(ch.After)
		if !ok {
			continue
		}
		var crossing []string
		for _, b := range ch.Before {
			if before, ok := parseCount(b.Value); ok && (before == 0) != (after == 0) {
				where := b.Instance
				if where == "" {
					where = "every instance"
				}
				crossing = append(crossing, fmt.Sprintf("%s (%d)", where, before))
			}
		}
		if len(crossing) == 0 {
			continue
		}
		mode := "from 0 (synchronous Raft log writes) to a StoreWriter pool"
		if after == 0 {
			mode = "from a StoreWriter pool to 0 (synchronous Raft log writes)"
		}
		out = append(out, Finding{
			Address: ch.Addr.String(), Range: ch.Range,
			Summary: fmt.Sprintf("%s cannot change online %s: TiKV refuses it", keyStoreIOPool, mode),
			Detail: fmt.Sprintf("TiKV resizes the StoreWriter pool online but refuses to switch between synchronous "+
				"(0) and asynchronous (non-0) Raft log writes: SET CONFIG would answer a per-instance warning (\"SYNC "+
				"mode, not allowed to resize…\" or \"ASYNC mode, not allowed to be set to SYNC mode…\") and keep the "+
				"old value on %s. Change it in the deployment, with a rolling restart:\n\n%s\n\nthen `tiup cluster "+
				"reload %s -R tikv` (TiDB Operator: spec.tikv.config), and remove it from this configuration until "+
				"then (or acknowledge TF145 with the date of the restart).",
				strings.Join(crossing, ", "), tiupSnippet(c, ch), c.clusterName()),
		})
	}
	return out
}

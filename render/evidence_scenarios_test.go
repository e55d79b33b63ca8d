package render

import (
	"time"

	"github.com/tiform/tiform/guard"
	"github.com/tiform/tiform/state"
	"github.com/tiform/tiform/workload"
)

// Plans that carry evidence (workload.Evidence): the figures are computed by
// the real analysis from fixed statement statistics, and the evidence rules
// (TF125, TF126, TF134, TF135) are the real ones, so the goldens show the
// finding citing the figures.

// unqualifiedSample is the statement summary of a workload dominated by
// string-vs-integer comparisons and OR predicates (the emulator's
// plancache-unqualified seed, six 30-minute windows).
func unqualifiedSample() workload.Sample {
	ms := func(f float64, n int64) time.Duration {
		return time.Duration(f * float64(n) * float64(time.Millisecond))
	}
	st := func(digest, text, table string, n, hits, unq int64, lat, compile float64, reason string) workload.Statement {
		s := workload.Statement{Digest: digest, Text: text, Schema: "shop", Tables: []string{table}, Type: "Select", Prepared: true,
			Executions: n, Latency: ms(lat, n), CompileTime: ms(compile, n), CacheHits: hits, Unqualified: unq}
		if reason != "" {
			s.Reasons = map[string]int64{reason: unq}
		}
		return s
	}
	return workload.Sample{
		Statements: []workload.Statement{
			st("3f1c", "select `id` , `total` from `orders` where `customer_id` = ?", "shop.orders", 48000, 0, 48000, 2.0, 0.45, "'12345' may be converted to INT"),
			st("9a07", "select * from `orders` where `status` = ? and ( `created_at` > ? or `priority` = ? )", "shop.orders", 36000, 0, 36000, 3.0, 0.6, "OR predicate simplification is triggered"),
			st("c2d8", "select `name` from `customers` where `id` = ?", "shop.customers", 12000, 11400, 0, 0.8, 0.3, ""),
		},
		Source: "INFORMATION_SCHEMA.CLUSTER_STATEMENTS_SUMMARY_HISTORY", ClusterWide: true,
		Query: workload.Query{Since: 24 * time.Hour, Limit: workload.DefaultLimit}, Version: "v8.5.1",
		From: now.Add(-150 * time.Minute), To: now.Add(30 * time.Minute), Unqualified: true, RocksDB: true,
		Variables: map[string]string{"tidb_enable_prepared_plan_cache": "ON", "tidb_enable_non_prepared_plan_cache": "OFF",
			"tidb_enable_instance_plan_cache": "OFF", "tidb_session_plan_cache_size": "100"},
	}
}

// queueSample is a queue-like table read with heavy MVCC amplification.
func queueSample() workload.Sample {
	s := workload.Sample{Source: "INFORMATION_SCHEMA.CLUSTER_STATEMENTS_SUMMARY_HISTORY", ClusterWide: true,
		Query: workload.Query{Since: 24 * time.Hour, Limit: workload.DefaultLimit, Order: workload.ByScannedKeys}, Version: "v8.5.1",
		From: now.Add(-150 * time.Minute), To: now.Add(30 * time.Minute), Unqualified: true, RocksDB: true,
		Variables: map[string]string{"tidb_gc_life_time": "10m0s"}}
	s.Statements = []workload.Statement{{Digest: "51aa", Text: "select * from `jobs` where `status` = ? order by `id` limit ?", Schema: "shop",
		Tables: []string{"shop.jobs"}, Type: "Select", Prepared: true, Executions: 7200, Latency: 7200 * 1250 * time.Millisecond,
		TotalKeys: 7200 * 1358517, ProcessedKeys: 7200 * 2, DeleteSkipped: 7200 * 1201000}}
	return s
}

// withEvidenceGuards runs the real evidence rules next to the fixed ones.
func withEvidenceGuards(in guard.Input) []guard.Finding {
	out := fakeGuards(in)
	for _, f := range guard.Evaluate(in) {
		switch f.Code {
		case "TF125", "TF126", "TF134", "TF135":
			out = append(out, f)
		}
	}
	guard.Sort(out)
	return out
}

func evidenceScenarios() []scenario {
	var out []scenario
	// 18. Enabling the instance plan cache on a workload that cannot use it:
	// the plan shows the hit ratio and the top reasons, and TF125/TF126 cite
	// them.
	{
		l := liveCluster("8.5.1", "10.0.1")
		pc := workload.PlanCache(unqualifiedSample())
		sc := one("evidence-instance-plan-cache", &state.DesiredCluster{
			Variables: []state.VariableSetting{variable("tidb_enable_instance_plan_cache", "ON", 2)},
		}, l)
		sc.opts.Guards = withEvidenceGuards
		sc.opts.Evidence = map[string]*workload.Evidence{"prod": {PlanCache: &pc}}
		out = append(out, sc)
	}
	// 19. Enabling the In-Memory Engine where a queue-like table reads many
	// stale versions.
	{
		l := liveCluster("8.5.3", "10.0.1")
		for _, a := range l.InstancesOf(state.TiKV) {
			setRow(l, state.TiKV, a, "in-memory-engine.enable", "false")
		}
		m := workload.MVCC(queueSample(), workload.MVCCOptions{})
		sc := one("evidence-in-memory-engine", &state.DesiredCluster{
			Config: []state.ConfigSetting{
				{Component: state.TiKV, Key: "in-memory-engine.enable", Value: state.Value{Text: "true", Type: state.LiteralBool}, Range: at(3)},
			},
		}, l)
		sc.opts.Guards = withEvidenceGuards
		sc.opts.Evidence = map[string]*workload.Evidence{"prod": {MVCC: &m}}
		out = append(out, sc)
	}
	// 20. A plan-cache change planned from a snapshot: no figures, and the
	// plan says why.
	{
		l := liveCluster("8.5.1", "10.0.1")
		sc := one("evidence-unavailable", &state.DesiredCluster{
			Variables: []state.VariableSetting{variable("tidb_enable_non_prepared_plan_cache", "ON", 2)},
		}, l)
		sc.opts.Guards = withEvidenceGuards
		sc.opts.Evidence = map[string]*workload.Evidence{"prod": {Unavailable: "planned from a snapshot, which holds no statement statistics"}}
		out = append(out, sc)
	}
	return out
}

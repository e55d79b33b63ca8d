// Package workload turns a cluster's own statement statistics
// (INFORMATION_SCHEMA.STATEMENTS_SUMMARY_HISTORY and its CLUSTER_ variant)
// into evidence for the settings whose benefit depends on the workload: the
// plan caches and the TiKV MVCC In-Memory Engine.
//
// It owns:
//
//   - the model of what was read (sample.go: Sample, Statement, Query);
//   - the plan-cache analysis (plancache.go: PlanCache): hit ratios weighted by
//     executions and by latency, prepared and not, the digests that would gain
//     most, the top reasons statements cannot use the cache;
//   - the catalogue of those reasons, each with its meaning and fix
//     (reasons.go: Explain);
//   - the plan-cache recommendation with its evidence (advice.go);
//   - the MVCC analysis (mvcc.go: MVCC): statements whose scanned versions far
//     exceed the keys they process, grouped by table;
//   - the evidence a plan carries when it changes one of these settings
//     (evidence.go: Evidence, Needs).
//
// Contracts: every function is pure (no I/O, no clock: times come in the
// Sample); the same Sample gives the same report, sorted deterministically.
// Figures are never invented: what the read could not see (a TiDB version
// without PLAN_CACHE_UNQUALIFIED, a truncated read, a local-only table) is
// said in the report, not guessed.
//
// It must not send SQL (live reads the tables and fills a Sample) and must
// not import guard, planner, render or live; the guards and the views import
// it. Its texts cite public sources only.
package workload

// Package guard holds tiform's version-aware rules: what an expert TiDB operator
// would tell a reviewer about a plan. Each rule has a stable code (TF1xx), a
// severity, a message that says what to do, a link, and the source range it is
// about. Findings of severity error block apply unless acknowledged.
//
// Contracts:
//
//   - Rules are pure functions of Input: the desired state, the live state (with
//     per-component versions; rules use the lowest version of each component,
//     as PD's cluster-version does: https://docs.pingcap.com/tidb/stable/pd-control)
//     and the planned changes. No I/O, no clock (Input.Now).
//   - Evaluate never fails and never panics on user input: a rule that cannot
//     decide (unknown version, a value it cannot parse) stays silent.
//   - Its result is deterministic and sorted (severity, code, address, position).
//   - Rules read the planned changes themselves (Input.Changes, the plans
//     package's Change); a finding's address is a state.Address's text
//     (tikv.coprocessor.region-split-size, variable.name,
//     resource_group.name), so the planner can link findings to changes;
//     Range is the HCL declaration the finding is about.
//   - Acknowledgements (state.Acknowledgement) mark matching findings
//     Acknowledged; expired, unused, unknown and never-expiring
//     acknowledgements are findings themselves (TF190–TF193).
//   - The registry (Rules) is the single source of docs/guards.md, which a test
//     regenerates with -update and compares.
//   - Rules read live config only through context.liveConfig/liveConfigOn,
//     and only the keys LiveConfigKeys lists: a plan reads those besides the
//     declared keys (live.RequestFor), nothing else. Reading another key
//     panics, so the rule's tests catch it.
//
// The package reads the catalog (existence by version, restart-only items,
// scopes), version capability methods and workload's reports (the evidence
// rules TF125, TF126, TF134, TF135 cite Input.Evidence); it must not import
// planner, live or applier. EnableIMEFindings lends the In-Memory Engine rules
// to `tiform check mvcc`, so their knowledge has one owner.
package guard

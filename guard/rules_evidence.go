package guard

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/tiform/tiform/diag"
	"github.com/tiform/tiform/plans"
	"github.com/tiform/tiform/state"
	"github.com/tiform/tiform/workload"
)

// Evidence rules: TF125, TF126 (plan cache) and TF134, TF135 (In-Memory
// Engine). When a plan changes a plan-cache variable or
// in-memory-engine.enable, the planner reads the cluster's statement
// statistics once (Input.Evidence) and these rules put the figures next to
// the change, so the reviewer decides on data rather than on "measure
// whether it helps".

const (
	linkCheckPlanCache = "https://github.com/tiform/tiform/blob/main/docs/checks.md#tiform-check-plan-cache"
	linkCheckMVCC      = "https://github.com/tiform/tiform/blob/main/docs/checks.md#tiform-check-mvcc"
)

func init() {
	register(
		&Rule{
			Code: "TF125", Severity: diag.Info,
			Title:    "Plan-cache change: the cluster's own figures",
			Link:     linkCheckPlanCache,
			Versions: "all versions (reasons from TiDB v8.2.0: PLAN_CACHE_UNQUALIFIED)",
			Reasoning: "Whether a plan cache pays depends on the workload: statements compared with mistyped literals, OR " +
				"predicates (tidb#56136) and subqueries never use it, and the instance plan cache can cost more than it saves. " +
				"The plan reads the cluster's statement summary and shows the hit ratio, what cannot use the cache and why, " +
				"next to the change.",
			Sources: []string{linkStmtSummary, "https://docs.pingcap.com/tidb/stable/sql-prepared-plan-cache",
				linkNonPrepared, linkTidb56136},
			check: checkPlanCacheEvidence,
		},
		&Rule{
			Code: "TF126", Severity: diag.Warning,
			Title:    "Plan-cache change against the cluster's figures",
			Link:     linkCheckPlanCache,
			Versions: "all versions (reasons from TiDB v8.2.0)",
			Reasoning: "Enabling a plan cache when most executions cannot use it, or compiling is a negligible part of the " +
				"time, adds memory and checks for no gain; disabling a cache that serves most executions brings the compile " +
				"time back. The statement summary says which case the cluster is in.",
			Sources: []string{linkStmtSummary, linkPerfTuning},
			check:   checkPlanCacheAgainstEvidence,
		},
		&Rule{
			Code: "TF134", Severity: diag.Info,
			Title:    "In-Memory Engine change: the cluster's own figures",
			Link:     linkCheckMVCC,
			Versions: "TiKV v8.5.0+",
			Reasoning: "The In-Memory Engine only helps reads that scan many MVCC versions for few keys (Total_keys ≫ " +
				"Process_keys): queue-like and frequently updated tables. The plan reads the cluster's statement summary and " +
				"shows which tables read that way, next to the change.",
			Sources: []string{linkIME, linkStmtSummary},
			check:   checkIMEEvidence,
		},
		&Rule{
			Code: "TF135", Severity: diag.Warning,
			Title:    "In-Memory Engine enabled without reads it would help",
			Link:     linkCheckMVCC,
			Versions: "TiKV v8.5.0+",
			Reasoning: "The engine takes memory from the block cache and adds operational risk (TF133); when no statement " +
				"scans many more versions than it keeps, it has nothing to accelerate.",
			Sources: []string{linkIME, linkStmtSummary},
			check:   checkIMEAgainstEvidence,
		},
	)
}

// evidenceCodes are the rules whose findings quote the statement statistics.
var evidenceCodes = map[string]bool{"TF125": true, "TF126": true, "TF134": true, "TF135": true}

// FromEvidence reports whether code's findings quote the cluster's statement
// statistics (which change from one read to the next): a plan's hash leaves
// them out, so a reviewed plan and its apply hash alike.
func FromEvidence(code string) bool { return evidenceCodes[code] }

// evidenceChanges returns the planned changes that call for evidence of the
// kind want, the most telling first: cache switches before sizes, then plan
// order.
func (c *context) evidenceChanges(want workload.Need) []*plans.Change {
	var out []*plans.Change
	for _, ch := range c.in.Changes {
		if ch.Action == plans.NoOp {
			continue
		}
		n := workload.NeedFor(string(ch.Addr.Kind), string(ch.Addr.Component), ch.Addr.Key)
		if n.PlanCache && want.PlanCache || n.MVCC && want.MVCC {
			out = append(out, ch)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return evidenceRank(out[i].Addr.Key) < evidenceRank(out[j].Addr.Key) })
	return out
}

func evidenceRank(key string) int {
	switch strings.ToLower(key) {
	case workload.VarInstanceCache:
		return 0
	case workload.VarNonPreparedCache:
		return 1
	case workload.VarPreparedCache:
		return 2
	}
	return 3
}

// changeText is "name OFF → ON" (or "name → 200" for a create).
func changeText(ch *plans.Change) string {
	before := strings.Join(uniq(beforeValues(ch)), ", ")
	if before == "" {
		return fmt.Sprintf("%s → %s", ch.Addr.Key, ch.After)
	}
	return fmt.Sprintf("%s %s → %s", ch.Addr.Key, before, ch.After)
}

// beforeValues lists a change's values before, one per instance.
func beforeValues(ch *plans.Change) []string {
	out := make([]string, 0, len(ch.Before))
	for _, b := range ch.Before {
		out = append(out, b.Value)
	}
	return out
}

func uniq(list []string) []string {
	var out []string
	for _, s := range list {
		if !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}

// alsoChanged lists the other relevant changes of a plan.
func alsoChanged(chs []*plans.Change) string {
	if len(chs) < 2 {
		return ""
	}
	var names []string
	for _, ch := range chs[1:] {
		names = append(names, changeText(ch))
	}
	return "\n\nThe plan also changes " + strings.Join(names, "; ") + "."
}

// unavailable explains why a plan carries no figures.
func unavailable(ev *workload.Evidence) string {
	if ev != nil && ev.Unavailable != "" {
		return ev.Unavailable
	}
	return "the statement statistics were not read"
}

func checkPlanCacheEvidence(c *context) []Finding {
	chs := c.evidenceChanges(workload.Need{PlanCache: true})
	if len(chs) == 0 {
		return nil
	}
	f := Finding{Address: chs[0].Addr.String(), Range: chs[0].Range}
	ev := c.in.Evidence
	if ev == nil || ev.PlanCache == nil {
		f.Summary = fmt.Sprintf("%s: no plan-cache figures from the cluster (%s)", changeText(chs[0]), unavailable(ev))
		f.Detail = "Run `tiform check plan-cache` against the cluster before applying: it reads the statement summary and " +
			"says whether the plan cache can help this workload." + alsoChanged(chs)
		return []Finding{f}
	}
	rep := ev.PlanCache
	f.Summary = changeText(chs[0]) + ": " + rep.Headline()
	var b strings.Builder
	fmt.Fprintf(&b, "What the cluster's statement summary says: %s.\n", rep.Advice.Summary)
	for _, e := range rep.Advice.Evidence {
		fmt.Fprintf(&b, "\n- %s", e)
	}
	for _, r := range rep.Reasons {
		fmt.Fprintf(&b, "\n- %s of executions cannot use the cache because of: %s. Fix: %s", workload.Pct(r.Share), r.Title, r.Fix)
	}
	for _, g := range rep.CannotSee {
		fmt.Fprintf(&b, "\n- not visible: %s", g)
	}
	fmt.Fprintf(&b, "\n\nFigures from %s over %s, read while planning; `tiform check plan-cache` gives the full report.",
		rep.Source, workload.Span(rep.Since))
	f.Detail = b.String() + alsoChanged(chs)
	return []Finding{f}
}

func checkPlanCacheAgainstEvidence(c *context) []Finding {
	ev := c.in.Evidence
	if ev == nil || ev.PlanCache == nil {
		return nil
	}
	rep := ev.PlanCache
	var out []Finding
	for _, ch := range c.evidenceChanges(workload.Need{PlanCache: true}) {
		key := strings.ToLower(ch.Addr.Key)
		if key != workload.VarInstanceCache && key != workload.VarNonPreparedCache && key != workload.VarPreparedCache {
			continue
		}
		enable, disable := isOn(ch.After) && !anyOn(beforeValues(ch)), !isOn(ch.After) && anyOn(beforeValues(ch))
		switch {
		case enable && rep.Advice.Verdict == workload.VerdictNotWorth:
			out = append(out, Finding{Address: ch.Addr.String(), Range: ch.Range,
				Summary: fmt.Sprintf("enabling %s against the cluster's figures: %s", key, rep.Advice.Summary),
				Detail: fmt.Sprintf("%s. A cache the statements cannot use costs memory and cacheability checks and saves "+
					"nothing; fix the top reasons first (TF125 lists them with their fixes), check again with `tiform check "+
					"plan-cache`, then enable it. Acknowledge TF126 to enable it anyway, for example to measure.", rep.Headline()),
			})
		case disable && rep.Advice.Verdict == workload.VerdictWorking:
			out = append(out, Finding{Address: ch.Addr.String(), Range: ch.Range,
				Summary: fmt.Sprintf("disabling %s, which serves the workload: %s", key, rep.Headline()),
				Detail: fmt.Sprintf("%s. Turning the cache off brings the compile time of those executions back. "+
					"Acknowledge TF126 if that is intended.", rep.Advice.Summary),
			})
		}
	}
	return out
}

func anyOn(vals []string) bool {
	for _, v := range vals {
		if isOn(v) {
			return true
		}
	}
	return false
}

func checkIMEEvidence(c *context) []Finding {
	chs := c.evidenceChanges(workload.Need{MVCC: true})
	if len(chs) == 0 {
		return nil
	}
	f := Finding{Address: chs[0].Addr.String(), Range: chs[0].Range}
	ev := c.in.Evidence
	if ev == nil || ev.MVCC == nil {
		f.Summary = fmt.Sprintf("%s: no MVCC figures from the cluster (%s)", changeText(chs[0]), unavailable(ev))
		f.Detail = "Run `tiform check mvcc` against the cluster before applying: it lists the tables whose reads scan many " +
			"more MVCC versions than they keep, which is what the In-Memory Engine accelerates." + alsoChanged(chs)
		return []Finding{f}
	}
	rep := ev.MVCC
	f.Summary = changeText(chs[0]) + ": " + rep.Headline()
	var b strings.Builder
	fmt.Fprintf(&b, "What the cluster's statement summary says: %s.\n", rep.Summary)
	for _, t := range rep.Tables {
		fmt.Fprintf(&b, "\n- %s (%s): %s", t.Table, t.Verdict, t.Why)
	}
	fmt.Fprintf(&b, "\n\nAfter enabling, watch:")
	for _, w := range rep.Watch {
		fmt.Fprintf(&b, "\n- %s", w)
	}
	fmt.Fprintf(&b, "\n\nFigures from %s over %s, read while planning; `tiform check mvcc` gives the full report.",
		rep.Source, workload.Span(rep.Since))
	f.Detail = b.String() + alsoChanged(chs)
	return []Finding{f}
}

func checkIMEAgainstEvidence(c *context) []Finding {
	ev := c.in.Evidence
	if ev == nil || ev.MVCC == nil {
		return nil
	}
	rep := ev.MVCC
	if rep.Verdict != workload.MVCCUnlikely && rep.Verdict != workload.MVCCNoData {
		return nil
	}
	var out []Finding
	for _, ch := range c.evidenceChanges(workload.Need{MVCC: true}) {
		if isOn(ch.After) && !anyOn(beforeValues(ch)) {
			out = append(out, Finding{Address: ch.Addr.String(), Range: ch.Range,
				Summary: "enabling the In-Memory Engine with no read it would help: " + rep.Summary,
				Detail: fmt.Sprintf("%s. The engine takes memory from the block cache and needs a TiKV restart (TF131); "+
					"enable it when `tiform check mvcc` finds tables whose reads scan far more versions than they keep. "+
					"Acknowledge TF135 to enable it anyway.", rep.Headline()),
			})
		}
	}
	return out
}

// imeCodes are the rules about the In-Memory Engine itself (rules_ime.go).
var imeCodes = map[string]bool{"TF130": true, "TF131": true, "TF132": true, "TF133": true}

// EnableIMEFindings returns what the In-Memory Engine rules would report if
// a configuration for cluster turned the engine on over l: its prerequisites
// on this version (TF130, TF131) and its known problems (TF133). `tiform
// check mvcc` shows them, so the guards stay the one place that knows them.
func EnableIMEFindings(cluster string, l *state.Live, now time.Time) []Finding {
	d := &state.DesiredCluster{Name: cluster, Config: []state.ConfigSetting{{
		Component: state.TiKV, Key: workload.IMEEnableKey, Value: state.Value{Text: "true", Type: state.LiteralBool},
	}}}
	var out []Finding
	for _, f := range Evaluate(Input{Desired: d, Live: l, Now: now}) {
		if imeCodes[f.Code] {
			out = append(out, f)
		}
	}
	return out
}

package render

import (
	"io"
	"math"
	"sort"
	"time"

	"github.com/tiform/tiform/guard"
	"github.com/tiform/tiform/views"
	"github.com/tiform/tiform/workload"
)

// Builders of the JSON views of the workload reports (views/workload.go,
// docs/checks.md): `tiform check plan-cache --format json`, `tiform check
// mvcc --format json`, and a plan cluster's "evidence" object. The internal
// report types are never marshalled directly.

// round4 keeps shares byte-stable and readable.
func round4(f float64) float64 { return math.Round(f*10000) / 10000 }

func readJSON(r workload.Read) views.WorkloadRead {
	return views.WorkloadRead{Source: r.Source, ClusterWide: r.ClusterWide, SinceSeconds: int64(r.Since / time.Second), From: timeText(r.From),
		To: timeText(r.To), Limit: r.Limit, Truncated: r.Truncated, Statements: r.StatementsRead, TiDBVersion: r.Version}
}

func ratioJSON(r workload.Ratio, reduced bool) views.PlanCacheRatio {
	j := views.PlanCacheRatio{Digests: r.Digests, Executions: r.Executions, Hits: r.Hits, Bypassed: r.Bypassed, NotRecorded: r.NotRecorded, LatencyNS: int64(r.Latency),
		HitLatencyNS: int64(r.HitLatency), CompileNS: int64(r.CompileTime), MissCompileNS: int64(r.MissCompileTime),
		HitRatioByExec: round4(r.ByExecutions()), HitRatioByLatency: round4(r.ByLatency()), SavingBound: round4(r.SavingBound())}
	if !reduced {
		u, s := r.Unqualified, round4(r.UnqualifiedShare())
		j.Unqualified, j.UnqualifiedShare = &u, &s
	}
	return j
}

func planCacheJSON(r workload.PlanCacheReport) views.PlanCacheReport {
	j := views.PlanCacheReport{
		Read:    readJSON(r.Read),
		Reduced: r.Reduced, CannotSee: views.Strings(r.CannotSee), Headline: r.Headline(), Settings: map[string]string{},
		All: ratioJSON(r.All, r.Reduced), Prepared: ratioJSON(r.Prepared, r.Reduced), NonPrepared: ratioJSON(r.NonPrepared, r.Reduced),
		OtherExecutions: r.OtherExecutions, CacheableShapes: r.CacheableShapes, NotCounted: []views.PlanCacheNotCounted{},
		Reasons: []views.PlanCacheReason{}, Gains: []views.PlanCacheGain{},
		Advice: views.PlanCacheAdvice{Verdict: string(r.Advice.Verdict), Summary: r.Advice.Summary, Changes: []views.Suggestion{},
			Evidence: views.Strings(r.Advice.Evidence), Caveats: views.Strings(r.Advice.Caveats)},
		Notes: views.Strings(r.Notes),
	}
	for k, v := range r.Settings {
		j.Settings[k] = v
	}
	for _, nc := range r.NotCounted {
		j.NotCounted = append(j.NotCounted, views.PlanCacheNotCounted{Kind: string(nc.Kind), Title: nc.Title, Meaning: nc.Meaning,
			Check: nc.Check, Executions: nc.Executions, Statements: nc.Digests, Example: nc.Example})
	}
	for _, rc := range r.Reasons {
		j.Reasons = append(j.Reasons, views.PlanCacheReason{Key: rc.Key, Title: rc.Title, Meaning: rc.Meaning, Fix: rc.Fix, Link: rc.Link,
			Texts: views.Strings(rc.Texts), Unqualified: rc.Unqualified, Share: round4(rc.Share), Statements: rc.Digests, Example: rc.Example})
	}
	for _, g := range r.Gains {
		jg := views.PlanCacheGain{Digest: g.Digest, Text: g.Text, Prepared: g.Prepared, Executions: g.Executions, Hits: g.Hits,
			Unqualified: g.Unqualified, MissCompileNS: int64(g.MissCompileTime), AvgLatencyNS: int64(g.AvgLatency)}
		if g.Blocker.Key != "" {
			k := g.Blocker.Key
			jg.Blocker = &k
		}
		j.Gains = append(j.Gains, jg)
	}
	for _, s := range r.Advice.Changes {
		j.Advice.Changes = append(j.Advice.Changes, views.Suggestion(s))
	}
	return j
}

func mvccJSON(r workload.MVCCReport) views.MVCCReport {
	j := views.MVCCReport{
		Read:     readJSON(r.Read),
		Headline: r.Headline(), Threshold: r.Threshold, ThresholdSource: r.ThresholdSource, RocksDB: r.RocksDB,
		GCLifeTime: r.GCLifeTime, Verdict: string(r.Verdict), Summary: r.Summary, Tables: []views.MVCCTable{},
		Watch: views.Strings(r.Watch), Notes: views.Strings(r.Notes),
	}
	for _, tb := range r.Tables {
		jt := views.MVCCTable{Table: tb.Table, Verdict: string(tb.Verdict), Why: tb.Why, Executions: tb.Executions,
			Amplification: round4(tb.Amplification), StaleVersions: math.Round(tb.StaleVersions), LatencyNS: int64(tb.Latency),
			Statements: []views.MVCCStatement{}}
		for _, s := range tb.Statements {
			jt.Statements = append(jt.Statements, views.MVCCStatement{Digest: s.Digest, Text: s.Text, Type: s.Type, Prepared: s.Prepared,
				Executions: s.Executions, AvgTotalKeys: round4(s.AvgTotalKeys), AvgProcessedKeys: round4(s.AvgProcessedKeys),
				AvgDeleteSkipped: round4(s.AvgDeleteSkipped), Amplification: round4(s.Amplification), AvgLatencyNS: int64(s.AvgLatency)})
		}
		j.Tables = append(j.Tables, jt)
	}
	return j
}

func checkHeaderJSON(check string, h CheckHeader) views.WorkloadCheckHeader {
	j := views.WorkloadCheckHeader{Header: views.NewHeader(), Check: check, Versions: map[string]string{}, Incomplete: views.Strings(h.Incomplete)}
	keys := make([]string, 0, len(h.Versions))
	for k := range h.Versions {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		j.Versions[k] = h.Versions[k]
	}
	return j
}

func findingsJSON(fs []guard.Finding) []views.Finding {
	out := []views.Finding{}
	for _, f := range fs {
		out = append(out, f.View())
	}
	return out
}

// evidenceView is a plan cluster's evidence object (nil: null).
func evidenceView(ev *workload.Evidence) *views.Evidence {
	if ev == nil {
		return nil
	}
	j := &views.Evidence{Unavailable: ev.Unavailable}
	if ev.PlanCache != nil {
		pc := planCacheJSON(*ev.PlanCache)
		j.PlanCache = &pc
	}
	if ev.MVCC != nil {
		m := mvccJSON(*ev.MVCC)
		j.MVCC = &m
	}
	return j
}

// PlanCacheJSON writes `tiform check plan-cache --format json`.
func PlanCacheJSON(w io.Writer, h CheckHeader, r workload.PlanCacheReport) error {
	return views.Write(w, views.PlanCacheCheck{WorkloadCheckHeader: checkHeaderJSON("plan-cache", h), PlanCache: planCacheJSON(r)})
}

// MVCCJSON writes `tiform check mvcc --format json`.
func MVCCJSON(w io.Writer, h CheckHeader, v MVCCView) error {
	return views.Write(w, views.MVCCCheck{WorkloadCheckHeader: checkHeaderJSON("mvcc", h), MVCC: mvccJSON(v.Report),
		InMemoryEngine: views.InMemoryEngine{Enabled: v.IMEEnabled, Findings: findingsJSON(v.IMEFindings)}})
}

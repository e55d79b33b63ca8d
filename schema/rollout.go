package schema

import (
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
	_ "time/tzdata" // time_zone names load the same on every machine, a container without zoneinfo included

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/tiform/tiform/catalog"
	"github.com/tiform/tiform/diag"
	"github.com/tiform/tiform/state"
)

// The fleet's change plan: rollout { stage "NAME" { … } } and
// window "NAME" { … } (docs/language.md, "Rolling out to a fleet"). Both are
// top-level only. Which clusters a stage takes and whether a time is inside
// a window are state's rules (Rollout.Assign, AllowedAt); this file decodes
// the blocks and checks them against the declared clusters.

var (
	rolloutAttrs = []string{"stop_on"}
	stageAttrs   = []string{"clusters", "labels", "max_clusters", "percent", "pause", "approval"}
	windowAttrs  = []string{"labels", "days", "from", "to", "time_zone", "blackout"}
)

// rolloutDecl is a decoded rollout block with the ranges its checks point at.
type rolloutDecl struct {
	r      state.Rollout
	rng    hcl.Range // the block's keyword
	stages []stageDecl
}

type stageDecl struct {
	label hcl.Range
	// names are the clusters attribute's elements, with their ranges.
	names    []string
	nameRngs []hcl.Range
}

// rolloutBlock decodes rollout { … }. A second one is an error.
func (l *loader) rolloutBlock(blk *hclsyntax.Block, first *rolloutDecl) *rolloutDecl {
	if first != nil {
		l.b.duplicate(blk.TypeRange, first.rng, "the rollout is declared twice", "A configuration has one rollout: its stages, in order.")
		return nil
	}
	if len(blk.Labels) > 0 {
		l.b.errorf(blk.LabelRanges[0], "rollout takes no label", `Write rollout { stage "canary" { clusters = ["alpha"] } … }.`, "")
	}
	d := &rolloutDecl{rng: blk.TypeRange, r: state.Rollout{Range: rangeOf(blk.Range())}}
	for _, a := range sortedAttrs(blk.Body) {
		switch a.Name {
		case "stop_on":
			d.r.StopOn = l.stopOn(a)
		default:
			l.b.errorf(a.NameRange, fmt.Sprintf("unknown attribute %q in rollout", a.Name),
				"rollout takes stop_on and stage blocks.", didYouMean(a.Name, append(rolloutAttrs, "stage"), ""))
		}
	}
	seen := map[string]hcl.Range{}
	for _, nb := range blk.Body.Blocks {
		if nb.Type != "stage" {
			l.b.errorf(nb.TypeRange, fmt.Sprintf("unexpected block %q in rollout", nb.Type),
				`rollout holds stage "NAME" { … } blocks, applied in order.`, didYouMean(nb.Type, []string{"stage"}, ""))
			continue
		}
		if len(nb.Labels) != 1 {
			l.b.errorf(nb.TypeRange, "stage needs a name", `Write stage "canary" { clusters = ["alpha"] }.`, "")
			continue
		}
		name := nb.Labels[0]
		if !clusterNameRe.MatchString(name) {
			l.b.errorf(nb.LabelRanges[0], fmt.Sprintf("invalid stage name %q", name),
				"A stage name starts with a letter or digit and holds letters, digits, '.', '_' and '-'.", `rename it, for example stage "wave-1"`)
			continue
		}
		if firstRng, dup := seen[name]; dup {
			l.b.duplicate(nb.LabelRanges[0], firstRng, fmt.Sprintf("duplicate stage %q", name), "Each stage of the rollout has its own name.")
			continue
		}
		seen[name] = nb.LabelRanges[0]
		st, sd := l.stageBlock(nb)
		d.r.Stages = append(d.r.Stages, st)
		d.stages = append(d.stages, sd)
	}
	if len(d.r.Stages) == 0 && !l.b.hasErrors() {
		l.b.errorf(blk.TypeRange, "the rollout has no stage",
			"A rollout applies its stages in order; without one it would apply nothing.",
			`add stage "all" {} (every cluster), or remove the rollout block to apply every cluster at once`)
	}
	return d
}

// stopOn decodes stop_on = ["failed_change", …].
func (l *loader) stopOn(a *hclsyntax.Attribute) []state.StopCondition {
	names := make([]string, len(state.StopConditions))
	for i, c := range state.StopConditions {
		names[i] = string(c)
	}
	vals, rngs, ok := l.stringList(a, `stop_on = ["failed_change", "error_finding", "unreachable"]`)
	if !ok {
		return nil
	}
	out := []state.StopCondition{}
	for i, v := range vals {
		c := state.StopCondition(strings.ToLower(v))
		if !slices.Contains(state.StopConditions, c) {
			l.b.errorf(rngs[i], fmt.Sprintf("unknown stop condition %q", v),
				"A rollout stops on failed_change (an apply that did not complete), error_finding (a plan with an error finding) "+
					"or unreachable (a cluster that could not be read); all three unless stop_on says otherwise.",
				didYouMean(v, names, ""))
			continue
		}
		if !slices.Contains(out, c) {
			out = append(out, c)
		}
	}
	return out
}

// stageBlock decodes stage "NAME" { … }.
func (l *loader) stageBlock(blk *hclsyntax.Block) (state.Stage, stageDecl) {
	st := state.Stage{Name: blk.Labels[0], Range: rangeOf(blk.Range())}
	sd := stageDecl{label: blk.LabelRanges[0]}
	for _, a := range sortedAttrs(blk.Body) {
		switch a.Name {
		case "clusters":
			vals, rngs, ok := l.stringList(a, `clusters = ["alpha", "beta"]`)
			if ok {
				st.Clusters, sd.names, sd.nameRngs = vals, vals, rngs
			}
		case "labels":
			st.Labels = l.labelMap(a)
		case "max_clusters":
			if n, ok := l.wholeNumber(a, 1, math.MaxInt32, "max_clusters caps how many of the matching clusters the stage takes: a whole number, at least 1."); ok {
				st.MaxClusters = int(n)
			}
		case "percent":
			v, ok := l.eval(a.Expr)
			if !ok || !v.IsWhollyKnown() {
				continue
			}
			f, isNum := numberOf(v)
			if !isNum || f <= 0 || f > 100 {
				l.b.errorf(a.Expr.Range(), "percent must be a number above 0 and at most 100",
					"percent caps the stage at that share of the rollout's clusters, rounded up (at least one cluster).", "write percent = 25")
				continue
			}
			st.Percent = f
		case "pause":
			s, ok := l.evalString(a)
			if !ok {
				continue
			}
			d, err := catalog.ParseDuration(s)
			if err != nil || d < 0 {
				l.b.errorf(a.Expr.Range(), fmt.Sprintf("invalid pause %q", s),
					"pause is how long apply waits after the stage before its checks and the next stage: a duration.", `write pause = "10m"`)
				continue
			}
			st.Pause = d
		case "approval":
			v, ok := l.eval(a.Expr)
			if !ok || !v.IsWhollyKnown() {
				continue
			}
			if v.IsNull() || v.Type() != cty.Bool {
				l.b.errorf(a.Expr.Range(), "approval must be true or false",
					"approval = true makes apply ask a person before the next stage (a run that cannot ask stops there, and apply --resume continues).", "write approval = true")
				continue
			}
			st.Approval = v.True()
		default:
			l.b.errorf(a.NameRange, fmt.Sprintf("unknown attribute %q in stage", a.Name),
				"A stage takes clusters, labels, max_clusters, percent (which clusters), and pause, approval and check blocks (its gate).",
				didYouMean(a.Name, stageAttrs, ""))
		}
	}
	seen := map[state.CheckKind]hcl.Range{}
	for _, nb := range blk.Body.Blocks {
		if nb.Type != "check" {
			l.b.errorf(nb.TypeRange, fmt.Sprintf("unexpected block %q in stage", nb.Type),
				`A stage holds check "KIND" { … } blocks: no_drift, plan_cache_hit_ratio.`, didYouMean(nb.Type, []string{"check"}, ""))
			continue
		}
		c, ok := l.checkBlock(nb)
		if !ok {
			continue
		}
		if first, dup := seen[c.Kind]; dup {
			l.b.duplicate(nb.LabelRanges[0], first, fmt.Sprintf("check %q is declared twice in stage %q", c.Kind, st.Name), "Declare each check once per stage.")
			continue
		}
		seen[c.Kind] = nb.LabelRanges[0]
		st.Checks = append(st.Checks, c)
	}
	return st, sd
}

// checkBlock decodes check "KIND" { max_drop = … }.
func (l *loader) checkBlock(blk *hclsyntax.Block) (state.StageCheck, bool) {
	kinds := make([]string, len(state.CheckKinds))
	for i, k := range state.CheckKinds {
		kinds[i] = string(k)
	}
	if len(blk.Labels) != 1 {
		l.b.errorf(blk.TypeRange, "check needs its kind as its label", `Write check "no_drift" {}.`, "")
		return state.StageCheck{}, false
	}
	kind := state.CheckKind(strings.ToLower(blk.Labels[0]))
	if !slices.Contains(state.CheckKinds, kind) {
		l.b.errorf(blk.LabelRanges[0], fmt.Sprintf("unknown check %q", blk.Labels[0]),
			"A stage's gate checks no_drift (its clusters planned again show no change) or plan_cache_hit_ratio (the "+
				"plan-cache hit ratio of its clusters did not drop).", didYouMean(blk.Labels[0], kinds, ""))
		return state.StageCheck{}, false
	}
	c := state.StageCheck{Kind: kind, Range: rangeOf(blk.Range())}
	for _, nb := range blk.Body.Blocks {
		l.b.errorf(nb.TypeRange, fmt.Sprintf("unexpected block %q in check", nb.Type), "A check takes attributes only.", "remove the block")
	}
	for _, a := range sortedAttrs(blk.Body) {
		if a.Name != "max_drop" || kind != state.CheckPlanCacheHitRatio {
			allowed := "no_drift takes no attribute."
			if kind == state.CheckPlanCacheHitRatio {
				allowed = "plan_cache_hit_ratio takes max_drop."
			}
			l.b.errorf(a.NameRange, fmt.Sprintf("unknown attribute %q in check %q", a.Name, kind), allowed, "remove the attribute")
			continue
		}
		v, ok := l.eval(a.Expr)
		if !ok || !v.IsWhollyKnown() {
			continue
		}
		f, isNum := numberOf(v)
		if !isNum || f < 0 || f >= 1 {
			l.b.errorf(a.Expr.Range(), "max_drop must be a fraction from 0 up to (not including) 1",
				"max_drop is how far the hit ratio may fall below its value before the stage: 0.02 is two points (0.80 → 0.78 passes, 0.77 does not).",
				"write max_drop = 0.02")
			continue
		}
		c.MaxDrop = f
	}
	return c, true
}

// windowBlock decodes window "NAME" { … }.
func (l *loader) windowBlock(blk *hclsyntax.Block, seen map[string]hcl.Range) (state.Window, bool) {
	if len(blk.Labels) != 1 {
		l.b.errorf(blk.TypeRange, "window needs a name",
			`Write window "prod-nights" { labels = { env = "prod" }, days = ["Mon"], from = "22:00", to = "06:00", time_zone = "Asia/Tokyo" }.`, "")
		return state.Window{}, false
	}
	name := blk.Labels[0]
	if first, dup := seen[name]; dup {
		l.b.duplicate(blk.LabelRanges[0], first, fmt.Sprintf("duplicate window %q", name), "Each window has its own name.")
		return state.Window{}, false
	}
	seen[name] = blk.LabelRanges[0]
	w := state.Window{Name: name, Range: rangeOf(blk.Range())}
	for _, nb := range blk.Body.Blocks {
		l.b.errorf(nb.TypeRange, fmt.Sprintf("unexpected block %q in window", nb.Type), "A window takes attributes only.", "remove the block")
	}
	var fromA, toA, tzA *hclsyntax.Attribute
	ok := true
	for _, a := range sortedAttrs(blk.Body) {
		switch a.Name {
		case "labels":
			w.Labels = l.labelMap(a)
		case "days":
			w.Days, ok = l.days(a)
		case "from":
			fromA = a
		case "to":
			toA = a
		case "time_zone":
			tzA = a
		case "blackout":
			v, vok := l.eval(a.Expr)
			if !vok || !v.IsWhollyKnown() {
				continue
			}
			if v.IsNull() || v.Type() != cty.Bool {
				l.b.errorf(a.Expr.Range(), "blackout must be true or false",
					"blackout = true makes the window a time when apply is refused, instead of the only time it is allowed.", "write blackout = true")
				continue
			}
			w.Blackout = v.True()
		default:
			l.b.errorf(a.NameRange, fmt.Sprintf("unknown attribute %q in window", a.Name),
				"A window takes labels, days, from, to, time_zone and blackout.", didYouMean(a.Name, windowAttrs, ""))
		}
	}
	if tzA == nil {
		l.b.errorf(blk.TypeRange, fmt.Sprintf("window %q needs a time_zone", name),
			"The times of a window are wall-clock times in one time zone, named as the IANA time zone database names it; "+
				"tiform never guesses it from the machine it runs on.", `add time_zone = "Asia/Tokyo" (or "UTC")`)
		ok = false
	} else if tz, tok := l.evalString(tzA); tok {
		loc, err := time.LoadLocation(tz)
		if err != nil || tz == "" || strings.EqualFold(tz, "local") {
			l.b.errorf(tzA.Expr.Range(), fmt.Sprintf("unknown time zone %q", tz),
				"time_zone is a name of the IANA time zone database, such as \"Asia/Tokyo\", \"Europe/Berlin\" or \"UTC\".",
				`write time_zone = "Asia/Tokyo"`)
			ok = false
		} else {
			w.TimeZone, w.Location = tz, loc
		}
	} else {
		ok = false
	}
	switch {
	case fromA == nil && toA == nil:
		// Whole days: from 00:00 to 00:00 the next day.
	case fromA == nil || toA == nil:
		given := fromA
		if given == nil {
			given = toA
		}
		l.b.errorf(given.NameRange, "a window needs both from and to, or neither",
			"from and to are the local times the window opens and closes; without both, the window covers whole days.",
			`write from = "22:00" and to = "06:00"`)
		ok = false
	default:
		f, fok := l.clock(fromA, false)
		t, tok := l.clock(toA, true)
		if !fok || !tok {
			ok = false
			break
		}
		if f == t || (f == 0 && t == 24*60) {
			l.b.errorf(toA.Expr.Range(), fmt.Sprintf("from and to are both %s: the window would last no time or a whole day", state.ClockText(f)),
				"A window opens at from and closes at to; a to earlier than from closes on the next day (22:00 to 06:00).",
				"for whole days, remove from and to")
			ok = false
			break
		}
		w.From, w.To = f, t
	}
	return w, ok
}

// clockRe is a 24-hour clock time, HH:MM; 24:00 only as an end.
var clockRe = regexp.MustCompile(`^([01][0-9]|2[0-4]):([0-5][0-9])$`)

// clock parses "HH:MM" (00:00–23:59; to may also be 24:00) into minutes.
func (l *loader) clock(a *hclsyntax.Attribute, isTo bool) (int, bool) {
	s, ok := l.evalString(a)
	if !ok {
		return 0, false
	}
	m := clockRe.FindStringSubmatch(s)
	var h, min int
	if m != nil {
		h, _ = strconv.Atoi(m[1])
		min, _ = strconv.Atoi(m[2])
	}
	if m == nil || (h == 24 && (!isTo || min != 0)) {
		l.b.errorf(a.Expr.Range(), fmt.Sprintf("invalid time %q for %s", s, a.Name),
			"from and to are local times written HH:MM on a 24-hour clock, from 00:00 to 23:59 (to may be 24:00).",
			map[bool]string{false: `write from = "22:00"`, true: `write to = "06:00"`}[isTo])
		return 0, false
	}
	return h*60 + min, true
}

// days decodes days = ["Mon", …] (three-letter or full English names, any case).
func (l *loader) days(a *hclsyntax.Attribute) ([]time.Weekday, bool) {
	vals, rngs, ok := l.stringList(a, `days = ["Mon", "Tue", "Wed", "Thu", "Fri"]`)
	if !ok {
		return nil, false
	}
	var names []string
	for d := time.Sunday; d <= time.Saturday; d++ {
		names = append(names, d.String()[:3])
	}
	var out []time.Weekday
	for i, v := range vals {
		found := false
		for d := time.Sunday; d <= time.Saturday; d++ {
			if strings.EqualFold(v, d.String()) || strings.EqualFold(v, d.String()[:3]) {
				if !slices.Contains(out, d) {
					out = append(out, d)
				}
				found = true
			}
		}
		if !found {
			l.b.errorf(rngs[i], fmt.Sprintf("unknown day %q", v),
				"days are English day names: Mon, Tue, Wed, Thu, Fri, Sat, Sun (or in full).", didYouMean(v, names, ""))
			ok = false
		}
	}
	if len(vals) == 0 {
		l.b.errorf(a.Expr.Range(), "days is empty: the window would never open",
			"days lists the days the window opens; leave it out for every day.", "list the days, or remove days")
		ok = false
	}
	return out, ok
}

// stringList evaluates a list of strings, with each element's range when
// the list is written literally (the whole expression's otherwise).
func (l *loader) stringList(a *hclsyntax.Attribute, example string) ([]string, []hcl.Range, bool) {
	v, ok := l.eval(a.Expr)
	if !ok || !v.IsWhollyKnown() {
		return nil, nil, false
	}
	if v.IsNull() || !(v.Type().IsListType() || v.Type().IsTupleType() || v.Type().IsSetType()) {
		l.b.errorf(a.Expr.Range(), fmt.Sprintf("%s must be a list of strings", a.Name), "Write "+example+".", "")
		return nil, nil, false
	}
	var elems []hclsyntax.Expression
	if tup, isTup := a.Expr.(*hclsyntax.TupleConsExpr); isTup {
		elems = tup.Exprs
	}
	var vals []string
	var rngs []hcl.Range
	i := 0
	for it := v.ElementIterator(); it.Next(); i++ {
		_, ev := it.Element()
		rng := a.Expr.Range()
		if i < len(elems) {
			rng = elems[i].Range()
		}
		if ev.IsNull() || ev.Type() != cty.String {
			l.b.errorf(rng, fmt.Sprintf("%s must be a list of strings", a.Name), "Write "+example+".", "")
			return nil, nil, false
		}
		vals = append(vals, ev.AsString())
		rngs = append(rngs, rng)
	}
	return vals, rngs, true
}

// labelMap evaluates labels = { key = "value" }.
func (l *loader) labelMap(a *hclsyntax.Attribute) map[string]string {
	v, ok := l.eval(a.Expr)
	if !ok || !v.IsWhollyKnown() {
		return nil
	}
	if v.IsNull() || !(v.Type().IsObjectType() || v.Type().IsMapType()) {
		l.b.errorf(a.Expr.Range(), "labels must be a map of strings", `Write labels = { env = "prod" }.`, "")
		return nil
	}
	out := map[string]string{}
	for it := v.ElementIterator(); it.Next(); {
		k, ev := it.Element()
		if ev.IsNull() || ev.Type() != cty.String {
			l.b.errorf(a.Expr.Range(), fmt.Sprintf("label %q must be a string", k.AsString()), "", `write labels = { env = "prod" }`)
			continue
		}
		out[k.AsString()] = ev.AsString()
	}
	return out
}

// wholeNumber evaluates a whole number in [lo, hi].
func (l *loader) wholeNumber(a *hclsyntax.Attribute, lo, hi int64, detail string) (int64, bool) {
	v, ok := l.eval(a.Expr)
	if !ok || !v.IsWhollyKnown() {
		return 0, false
	}
	f, isNum := numberOf(v)
	if !isNum || f != math.Trunc(f) || f < float64(lo) || f > float64(hi) {
		l.b.errorf(a.Expr.Range(), fmt.Sprintf("%s must be a whole number from %d", a.Name, lo), detail, fmt.Sprintf("write %s = %d", a.Name, max(lo, 2)))
		return 0, false
	}
	return int64(f), true
}

// numberOf is v as a float64 when it is a known number.
func numberOf(v cty.Value) (float64, bool) {
	if v.IsNull() || v.Type() != cty.Number {
		return 0, false
	}
	f, _ := v.AsBigFloat().Float64()
	return f, true
}

// checkRollout checks the rollout against the clusters: every named cluster
// exists, is taken by the stage naming it (no earlier stage took it) and has
// the stage's labels; no stage is empty; every cluster is in a stage. It
// also warns about windows that cover no cluster.
func (l *loader) checkRollout(d *rolloutDecl, clusters []*state.DesiredCluster) {
	errorsBefore := len(l.b.diags.Errors())
	names := make([]string, len(clusters))
	byName := map[string]*state.DesiredCluster{}
	for i, c := range clusters {
		names[i] = c.Name
		byName[c.Name] = c
	}
	assigned, rest := d.r.Assign(clusters)
	for i := range assigned {
		d.r.Stages[i].Members = assigned[i].Clusters
	}
	takenBy := map[string]int{}
	for i, sc := range assigned {
		for _, n := range sc.Clusters {
			takenBy[n] = i
		}
	}
	bad := map[int]bool{} // stages with an error already
	for i, sd := range d.stages {
		st := &d.r.Stages[i]
		for j, n := range sd.names {
			c := byName[n]
			switch {
			case c == nil:
				l.b.errorf(sd.nameRngs[j], fmt.Sprintf("stage %q names no declared cluster %q", st.Name, n),
					fmt.Sprintf("The configuration declares: %s.", strings.Join(names, ", ")), didYouMean(n, names, ""))
				bad[i] = true
			case takenBy[n] < i && slices.Contains(assigned[takenBy[n]].Clusters, n):
				earlier := d.stages[takenBy[n]]
				l.b.add(duplicateDiag(sd.nameRngs[j], earlier.label,
					fmt.Sprintf("stages %q and %q overlap: cluster %q is already in stage %q", assigned[takenBy[n]].Stage.Name, st.Name, n, assigned[takenBy[n]].Stage.Name),
					"A stage takes the clusters its selector matches that no earlier stage took; a cluster named here would never be applied by this stage.",
					fmt.Sprintf("remove %q from one of the two stages", n), "the earlier stage"))
				bad[i] = true
			case !state.HasLabels(c.Labels, st.Labels):
				l.b.errorf(sd.nameRngs[j], fmt.Sprintf("stage %q names cluster %q, whose labels do not match the stage's", st.Name, n),
					"With both clusters and labels, a stage takes the named clusters that have the labels.",
					"remove the cluster from clusters, or the labels from the stage")
				bad[i] = true
			case !slices.Contains(assigned[i].Clusters, n):
				l.b.errorf(sd.nameRngs[j], fmt.Sprintf("stage %q names cluster %q beyond its max_clusters/percent", st.Name, n),
					"The stage takes the named clusters in order up to its cap; the ones after it would be in no stage.",
					"raise the cap, or move the cluster to a later stage")
				bad[i] = true
			}
		}
		if len(assigned[i].Clusters) == 0 && !bad[i] {
			why := "every cluster it matches is taken by an earlier stage"
			if len(st.Labels) > 0 && !anyHasLabels(clusters, st.Labels) {
				why = "no cluster has its labels"
			}
			l.b.errorf(sd.label, fmt.Sprintf("stage %q takes no cluster: %s", st.Name, why),
				"A stage takes the clusters its selector matches that no earlier stage took; an empty stage would only pause the rollout.",
				"remove the stage, or change its selector")
		}
	}
	if len(rest) > 0 && len(l.b.diags.Errors()) == errorsBefore {
		l.b.errorf(d.rng, fmt.Sprintf("%s in no stage of the rollout: %s", pluralClusters(len(rest)), strings.Join(rest, ", ")),
			"apply follows the rollout: a cluster no stage takes would never be applied.",
			`add a last stage without a selector, stage "rest" {}, which takes every cluster left`)
	}
}

// anyHasLabels reports whether a cluster has the labels.
func anyHasLabels(clusters []*state.DesiredCluster, labels map[string]string) bool {
	for _, c := range clusters {
		if state.HasLabels(c.Labels, labels) {
			return true
		}
	}
	return false
}

// checkWindows warns about a window that covers no declared cluster.
func (l *loader) checkWindows(ws []state.Window, rngs []hcl.Range, clusters []*state.DesiredCluster) {
	for i, w := range ws {
		if !anyHasLabels(clusters, w.Labels) {
			l.b.warnf(rngs[i], fmt.Sprintf("window %q covers no cluster: no cluster has its labels", w.Name),
				"A window applies to the clusters whose labels include its labels; this one changes nothing.",
				"fix its labels, or remove it")
		}
	}
}

func pluralClusters(n int) string {
	if n == 1 {
		return "1 cluster is"
	}
	return fmt.Sprintf("%d clusters are", n)
}

// duplicateDiag is an error at r that also points at first, with its own
// hint and a message for the second place.
func duplicateDiag(r, first hcl.Range, summary, detail, hint, firstMsg string) diag.Diagnostic {
	return diag.Diagnostic{Severity: diag.Error, Summary: summary, Detail: detail, Hint: hint, Range: rangeOf(r),
		Related: []diag.Related{{Message: firstMsg, Range: rangeOf(first)}}}
}

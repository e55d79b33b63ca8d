package state

import (
	"math"
	"slices"
	"time"

	"github.com/tiform/tiform/diag"
)

// Rollout is the order in which apply changes the clusters of a fleet
// (rollout { stage "NAME" { … } … }): stage after stage, each taking the
// clusters its selector matches that no earlier stage took, with a gate after
// each stage (a pause, checks, a manual approval) and conditions that stop
// the whole rollout.
type Rollout struct {
	Stages []Stage
	// StopOn lists what stops the rollout at once (the clusters not yet
	// applied are not touched); DefaultStopOn when not declared.
	StopOn []StopCondition
	Range  diag.SourceRange
}

// StopCondition is one event that stops a rollout.
type StopCondition string

const (
	// StopFailedChange: a cluster's apply did not complete (a change failed,
	// the apply was refused: stale plan, held lock, the plan changed).
	StopFailedChange StopCondition = "failed_change"
	// StopErrorFinding: a cluster's plan has an unacknowledged error
	// finding (apply never applies such a plan; without this condition the
	// cluster is skipped and the rollout goes on).
	StopErrorFinding StopCondition = "error_finding"
	// StopUnreachable: a cluster could not be read (unreachable, or read
	// only in part).
	StopUnreachable StopCondition = "unreachable"
)

// StopConditions lists every stop condition, in the order docs show them.
var StopConditions = []StopCondition{StopFailedChange, StopErrorFinding, StopUnreachable}

// DefaultStopOn is what stops a rollout that does not say: everything.
var DefaultStopOn = StopConditions

// Stops reports whether c stops the rollout.
func (r *Rollout) Stops(c StopCondition) bool {
	if r == nil || r.StopOn == nil {
		return slices.Contains(DefaultStopOn, c)
	}
	return slices.Contains(r.StopOn, c)
}

// Stage is one step of a rollout: a selector of clusters, and the gate that
// must pass after it before the next stage starts.
type Stage struct {
	Name string
	// Clusters names clusters (in this order); Labels selects clusters whose
	// labels include every key=value. Both given: a cluster must be named and
	// match. Neither: every cluster not taken by an earlier stage.
	Clusters []string
	Labels   map[string]string
	// MaxClusters (> 0) and Percent (> 0, of the rollout's clusters, rounded
	// up, at least one) cap how many of the matching clusters the stage
	// takes, in the order above (declaration order for labels); both given,
	// the smaller cap holds. Zero: no cap.
	MaxClusters int
	Percent     float64
	// The gate after the stage: Pause is waited first, then every check runs
	// on the stage's clusters, then Approval asks a person.
	Pause    time.Duration
	Checks   []StageCheck
	Approval bool
	Range    diag.SourceRange
	// Members are the clusters the stage takes among every cluster the
	// configuration declares (Assign's result, set when the configuration
	// is loaded), in the order they are applied.
	Members []string
}

// StageCheck is one check of a stage's gate (check "KIND" { … }).
type StageCheck struct {
	Kind CheckKind
	// MaxDrop is, for CheckPlanCacheHitRatio, how far (a fraction: 0.02 is
	// two points) the ratio may fall below its value before the stage.
	MaxDrop float64
	Range   diag.SourceRange
}

// CheckKind names a stage check.
type CheckKind string

const (
	// CheckNoDrift: the stage's clusters are planned again and must show no
	// change (the rollout's changes held, nothing drifted).
	CheckNoDrift CheckKind = "no_drift"
	// CheckPlanCacheHitRatio: the plan-cache hit ratio of each of the stage's
	// clusters, from its statement summary, measured before the stage and
	// again after the pause, must not drop by more than MaxDrop.
	CheckPlanCacheHitRatio CheckKind = "plan_cache_hit_ratio"
)

// CheckKinds lists every check kind.
var CheckKinds = []CheckKind{CheckNoDrift, CheckPlanCacheHitRatio}

// StageClusters is what a stage takes.
type StageClusters struct {
	Stage *Stage
	// Clusters are the names the stage takes, in the order they are applied.
	Clusters []string
}

// Assign decides which clusters each stage of r takes among clusters (the
// whole fleet, in declaration order): each stage takes, of the clusters no
// earlier stage took, those its selector matches, capped by MaxClusters and
// Percent. Rest lists the clusters no stage took, in declaration order. It is
// the one rule of stage membership: schema checks the configuration with it,
// apply follows it.
func (r *Rollout) Assign(clusters []*DesiredCluster) (stages []StageClusters, rest []string) {
	taken := map[string]bool{}
	byName := map[string]*DesiredCluster{}
	for _, c := range clusters {
		byName[c.Name] = c
	}
	for i := range r.Stages {
		st := &r.Stages[i]
		var cands []string
		if len(st.Clusters) > 0 {
			for _, n := range st.Clusters {
				c := byName[n]
				if c != nil && !taken[n] && !slices.Contains(cands, n) && HasLabels(c.Labels, st.Labels) {
					cands = append(cands, n)
				}
			}
		} else {
			for _, c := range clusters {
				if !taken[c.Name] && HasLabels(c.Labels, st.Labels) {
					cands = append(cands, c.Name)
				}
			}
		}
		if n := st.cap(len(clusters)); n >= 0 && len(cands) > n {
			cands = cands[:n]
		}
		for _, n := range cands {
			taken[n] = true
		}
		stages = append(stages, StageClusters{Stage: st, Clusters: cands})
	}
	for _, c := range clusters {
		if !taken[c.Name] {
			rest = append(rest, c.Name)
		}
	}
	return stages, rest
}

// cap is how many clusters the stage may take in a rollout of total
// clusters; -1 for no cap.
func (st *Stage) cap(total int) int {
	n := -1
	if st.MaxClusters > 0 {
		n = st.MaxClusters
	}
	if st.Percent > 0 {
		p := int(math.Ceil(st.Percent / 100 * float64(total)))
		p = max(p, 1)
		if n < 0 || p < n {
			n = p
		}
	}
	return n
}

// HasLabels reports whether labels hold every key=value of want (an empty
// want matches every cluster). It is the one label match of stages, windows
// and --label.
func HasLabels(labels, want map[string]string) bool {
	for k, v := range want {
		if got, ok := labels[k]; !ok || got != v {
			return false
		}
	}
	return true
}

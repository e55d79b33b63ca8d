package render

import (
	"fmt"

	"github.com/tiform/tiform/planner"
	"github.com/tiform/tiform/plans"
	"github.com/tiform/tiform/views"
)

// Differences: the views of what differs between a cluster and its
// configuration, shared by the plan views (ignored differences) and the drift
// report.

// differenceOf is c as a difference: live values and declared value, no SQL.
// c must be Shown (sensitive values masked).
func differenceOf(c *plans.Change) views.Difference {
	d := views.Difference{Address: c.Addr.String(), Kind: string(c.Addr.Kind), Action: c.Action.String(),
		Component: string(c.Addr.Component), Key: c.Addr.Name(), Instance: c.Addr.Instance, Live: []views.Value{},
		Declared: c.After, Range: views.NewRange(c.Range)}
	for _, b := range c.Before {
		d.Live = append(d.Live, views.Value{Instance: b.Instance, Value: b.Value})
	}
	return d
}

// ignoredOf is the view of an ignored difference.
func ignoredOf(ig plans.Ignored) views.IgnoredDifference {
	v := views.IgnoredDifference{Difference: differenceOf(planner.ShownChange(ig.Change)),
		Ignore: views.IgnoreBlock{Pattern: string(ig.Pattern), Reason: ig.Reason, Range: views.NewRange(ig.Range)}}
	if !ig.Until.IsZero() {
		u := ig.Until.Format("2006-01-02")
		v.Ignore.Until = &u
	}
	return v
}

func ignoredJSON(cp *planner.ClusterPlan) []views.IgnoredDifference {
	out := []views.IgnoredDifference{}
	for _, ig := range cp.Ignored {
		out = append(out, ignoredOf(ig))
	}
	return out
}

// liveText is a difference's live side in one line: "4", "absent",
// "1.1 on 2 instances, 1.2 on 1 instance".
func liveText(d views.Difference) string {
	if len(d.Live) == 0 {
		return "absent"
	}
	var vs []plans.InstanceValue
	for _, v := range d.Live {
		vs = append(vs, plans.InstanceValue{Instance: v.Instance, Value: v.Value})
	}
	groups := groupBefore(vs)
	if len(groups) == 1 {
		g := groups[0]
		switch {
		case len(g.instances) == 1 && d.Instance == "":
			return g.value + " on " + g.instances[0]
		case len(g.instances) > 1:
			return g.value + " on " + plural(len(g.instances), "instance", "instances")
		}
		return g.value
	}
	s := ""
	for i, g := range groups {
		if i > 0 {
			s += ", "
		}
		s += g.value + " on " + plural(len(g.instances), "instance", "instances")
	}
	return s
}

// declaredText is a difference's declared side: the value, or "not declared
// (dropped)" for a delete.
func declaredText(d views.Difference) string {
	if d.Action == plans.Delete.String() {
		return "not declared (dropped)"
	}
	return d.Declared
}

// ignoreText says which block accepted a difference: `ignore "tikv.raftstore.*"
// until 2027-03-31 (main.hcl:20): INC-123`.
func ignoreText(b views.IgnoreBlock) string {
	s := fmt.Sprintf("ignore %q", b.Pattern)
	if b.Until != nil {
		s += " until " + *b.Until
	} else {
		s += " (no expiry)"
	}
	if b.Range != nil {
		s += fmt.Sprintf(" at %s:%d", b.Range.Filename, b.Range.Start.Line)
	}
	return s + ": " + b.Reason
}

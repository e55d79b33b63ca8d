package planner

import (
	"strings"

	"github.com/tiform/tiform/plans"
	"github.com/tiform/tiform/state"
)

// Sensitive changes. A change whose declared value comes from a variable
// marked sensitive (Change.Sensitive) keeps its real values and SQL in memory,
// for apply alone. Everything that shows or stores a plan — the text,
// Markdown and JSON views, plan files, the apply report and the audit log —
// takes Plan.Shown or ShownChange instead, where every value of the change is
// SensitiveText and every statement shows "(sensitive)" in place of its value.

// SensitiveText stands for a sensitive value in every view.
const SensitiveText = state.SensitiveText

// ShownChange returns c as it may be shown: c itself when it is not
// sensitive, else a copy with After, every Before value and every check's
// Want replaced by SensitiveText, every statement's value masked
// (MaskAssignment) and every value removed from Reason.
func ShownChange(c *plans.Change) *plans.Change {
	if c == nil || !c.Sensitive {
		return c
	}
	values := []string{c.After}
	out := *c
	out.After = SensitiveText
	out.Before = make([]plans.InstanceValue, len(c.Before))
	for i, b := range c.Before {
		values = append(values, b.Value)
		out.Before[i] = plans.InstanceValue{Instance: b.Instance, Value: SensitiveText}
	}
	out.Verify = make([]plans.Check, len(c.Verify))
	for i, v := range c.Verify {
		values = append(values, v.Want)
		v.Want = SensitiveText
		out.Verify[i] = v
	}
	out.Statements = maskStatements(c.Statements)
	out.Rollback = maskStatements(c.Rollback)
	out.Spec.Set, out.Spec.Unset = maskAssignments(c.Spec.Set), maskAssignments(c.Spec.Unset)
	out.Reason = maskValues(c.Reason, values)
	return &out
}

// Shown returns p as it may be shown: p itself when no change is sensitive,
// else a copy whose sensitive changes are Shown and whose fingerprint values
// of the same settings are SensitiveText.
func (p *Plan) Shown() *Plan {
	if p == nil || !p.hasSensitive() {
		return p
	}
	out := *p
	out.Clusters = make([]*ClusterPlan, len(p.Clusters))
	for i, cp := range p.Clusters {
		c := *cp
		hidden := map[state.Address]bool{}
		c.Changes = make([]*plans.Change, len(cp.Changes))
		for j, ch := range cp.Changes {
			c.Changes[j] = ShownChange(ch)
			if ch.Sensitive {
				hidden[ch.Addr.OnEveryInstance()] = true
			}
		}
		c.Ignored = make([]plans.Ignored, len(cp.Ignored))
		for j, ig := range cp.Ignored {
			if ig.Change.Sensitive {
				hidden[ig.Change.Addr.OnEveryInstance()] = true
			}
			ig.Change = ShownChange(ig.Change)
			c.Ignored[j] = ig
		}
		c.Fingerprint = make([]plans.Dependency, len(cp.Fingerprint))
		for j, d := range cp.Fingerprint {
			if hidden[d.Addr.OnEveryInstance()] {
				d.Value = SensitiveText
			}
			c.Fingerprint[j] = d
		}
		out.Clusters[i] = &c
	}
	return &out
}

func (p *Plan) hasSensitive() bool {
	for _, cp := range p.Clusters {
		for _, ch := range cp.Changes {
			if ch.Sensitive {
				return true
			}
		}
		for _, ig := range cp.Ignored {
			if ig.Change.Sensitive {
				return true
			}
		}
	}
	return false
}

// HasSensitive reports whether any change of p is sensitive.
func (p *Plan) HasSensitive() bool { return p != nil && p.hasSensitive() }

func maskStatements(ss []plans.Statement) []plans.Statement {
	if ss == nil {
		return nil
	}
	out := make([]plans.Statement, len(ss))
	for i, s := range ss {
		out[i] = plans.Statement{SQL: MaskAssignment(s.SQL), Target: s.Target}
	}
	return out
}

func maskAssignments(as []plans.Assignment) []plans.Assignment {
	if as == nil {
		return nil
	}
	out := make([]plans.Assignment, len(as))
	for i, a := range as {
		a.Value.Text, a.Rendered = SensitiveText, SensitiveText
		out[i] = a
	}
	return out
}

// MaskAssignment replaces the value of a SET GLOBAL / SET CONFIG statement,
// everything after its first " = ", with SensitiveText. The statements of a
// sensitive change are always of that form: a variable name and a config
// target (a component or a quoted address) hold no " = ".
func MaskAssignment(sql string) string {
	i := strings.Index(sql, " = ")
	if i < 0 {
		return SensitiveText
	}
	return sql[:i] + " = " + SensitiveText
}

// maskValues replaces every non-empty value of values in text.
func maskValues(text string, values []string) string {
	for _, v := range values {
		if v != "" && v != plans.Absent {
			text = strings.ReplaceAll(text, v, SensitiveText)
		}
	}
	return text
}

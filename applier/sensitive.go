package applier

import (
	"strings"

	"github.com/tiform/tiform/planner"
	"github.com/tiform/tiform/plans"
	"github.com/tiform/tiform/state"
)

// Sensitive changes (plans.Change.Sensitive): apply sends their real
// statements, and nothing it writes shows their values. The audit records of
// such a change carry planner.SensitiveText for every value and the statement
// with its value masked (planner.MaskAssignment); the report does the same
// (Report.hideSensitive), and any text of the server (an error, a warning)
// has the change's values masked too, in case it quotes them.

// hideRecord masks an audit record of the sensitive change ch.
func hideRecord(r *AuditRecord, ch *plans.Change) {
	values := changeValues(ch)
	for _, v := range append(append([]AuditValue(nil), r.Before...), r.After...) {
		values = append(values, v.Value)
	}
	if r.Statement != "" {
		r.Statement = planner.MaskAssignment(r.Statement)
	}
	r.Before, r.After = hideAudit(r.Before), hideAudit(r.After)
	if r.Want != "" {
		r.Want = planner.SensitiveText
	}
	r.Error = maskValues(r.Error, values)
	for i := range r.Warnings {
		r.Warnings[i].Message = maskValues(r.Warnings[i].Message, values)
	}
}

func hideAudit(vs []AuditValue) []AuditValue {
	out := make([]AuditValue, len(vs))
	for i, v := range vs {
		v.Value = planner.SensitiveText
		out[i] = v
	}
	return out
}

// changeValues are the texts of ch's values: declared, planned before, and
// wanted on read-back.
func changeValues(ch *plans.Change) []string {
	values := []string{ch.After}
	for _, b := range ch.Before {
		values = append(values, b.Value)
	}
	for _, v := range ch.Verify {
		values = append(values, v.Want)
	}
	return values
}

// hideSensitive masks the results of cp's sensitive changes in the report,
// and the stale values of the settings they change.
func (r *Report) hideSensitive(cp *planner.ClusterPlan) {
	sensitive := map[state.Address]*plans.Change{}
	settings := map[state.Address]*plans.Change{}
	for _, ch := range cp.Changes {
		if ch.Sensitive {
			sensitive[ch.Addr] = ch
			settings[ch.Addr.OnEveryInstance()] = ch
		}
	}
	if len(sensitive) == 0 {
		return
	}
	for i := range r.Stale {
		s := &r.Stale[i]
		if ch := settings[s.Addr.OnEveryInstance()]; ch != nil {
			s.Planned, s.Now = planner.SensitiveText, planner.SensitiveText
		}
	}
	for _, c := range r.Changes {
		ch := sensitive[c.Addr]
		if ch == nil {
			continue
		}
		values := changeValues(ch)
		for _, in := range c.Instances {
			values = append(values, in.Before, in.After, in.Want)
		}
		c.Reason = maskValues(c.Reason, values)
		for i := range c.Instances {
			in := &c.Instances[i]
			in.Before, in.After, in.Want = planner.SensitiveText, planner.SensitiveText, planner.SensitiveText
			in.Reason = maskValues(in.Reason, values)
		}
		for i := range c.Statements {
			st := &c.Statements[i]
			st.SQL = planner.MaskAssignment(st.SQL)
			st.Error = maskValues(st.Error, values)
			for j := range st.Warnings {
				st.Warnings[j].Message = maskValues(st.Warnings[j].Message, values)
			}
		}
	}
}

// maskValues replaces every non-empty value of values in text with
// planner.SensitiveText.
func maskValues(text string, values []string) string {
	for _, v := range values {
		if v != "" && v != Absent && v != planner.SensitiveText {
			text = strings.ReplaceAll(text, v, planner.SensitiveText)
		}
	}
	return text
}

// maskIfSensitive masks ch's values in text when ch is sensitive.
func maskIfSensitive(ch *plans.Change, text string) string {
	if !ch.Sensitive {
		return text
	}
	return maskValues(text, changeValues(ch))
}

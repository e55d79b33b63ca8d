package guard

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/tiform/tiform/diag"
	"github.com/tiform/tiform/state"
)

// Evaluate runs every registered rule over in, applies the acknowledgements
// declared in in.Desired, and returns the findings sorted by severity
// (highest first), code, address and source position. It never fails: a rule
// that cannot decide (unknown version, value it cannot parse) stays silent.
func Evaluate(in Input) []Finding {
	return evaluate(newContext(in), false)
}

// CheckCluster runs the rules that need no HCL (Rule.Live) against a live
// cluster: the advice `tiform check` prints before any configuration exists.
func CheckCluster(l *state.Live, now time.Time) []Finding {
	return Check(Input{Live: l, Now: now})
}

// Check is CheckCluster with the rest of Input: in.TargetVersions (a planned
// upgrade, `tiform check --upgrade-to`) is used; in.Desired and in.Changes
// are ignored.
func Check(in Input) []Finding {
	in.Desired, in.Changes = nil, nil
	return evaluate(newContext(in), true)
}

func evaluate(c *context, liveOnly bool) []Finding {
	var out []Finding
	for _, r := range byCode {
		if r.check == nil || liveOnly && !r.Live {
			continue
		}
		for _, f := range r.check(c) {
			f.Code = r.Code
			f.Severity = r.Severity
			if f.Link == "" {
				f.Link = r.Link
			}
			out = append(out, f)
		}
	}
	out = acknowledge(c, out)
	Sort(out)
	return out
}

// Blocking returns the findings that stop apply: unacknowledged errors.
func Blocking(fs []Finding) []Finding {
	var out []Finding
	for _, f := range fs {
		if f.Severity == diag.Error && !f.Acknowledged {
			out = append(out, f)
		}
	}
	return out
}

// Sort orders findings deterministically: severity descending, then code,
// address, file, line, column and summary.
func Sort(fs []Finding) {
	sort.SliceStable(fs, func(i, j int) bool {
		a, b := fs[i], fs[j]
		switch {
		case a.Severity != b.Severity:
			return a.Severity > b.Severity
		case a.Code != b.Code:
			return a.Code < b.Code
		case a.Address != b.Address:
			return a.Address < b.Address
		case a.Range.Filename != b.Range.Filename:
			return a.Range.Filename < b.Range.Filename
		case a.Range.Start.Line != b.Range.Start.Line:
			return a.Range.Start.Line < b.Range.Start.Line
		case a.Range.Start.Column != b.Range.Start.Column:
			return a.Range.Start.Column < b.Range.Start.Column
		}
		return a.Summary < b.Summary
	})
}

// Codes of the findings about acknowledgements themselves. They cannot be
// acknowledged.
const (
	CodeAckExpired   = "TF190"
	CodeAckUnused    = "TF191"
	CodeAckUnknown   = "TF192"
	CodeAckForever   = "TF193"
	ackLink          = "https://github.com/tiform/tiform/blob/main/docs/guards.md#acknowledging-a-finding"
	dateLayout       = "2006-01-02"
	ackAddressPrefix = "acknowledge."
)

// InForce reports whether a silencing block whose last day is until
// (inclusive, UTC; zero: no expiry) holds at now: a block until 2027-03-31
// still holds on that day everywhere on Earth and expires on 2027-04-01 UTC.
// It is the one expiry rule of acknowledge and ignore blocks.
func InForce(until, now time.Time) bool {
	if until.IsZero() {
		return true
	}
	y, m, d := until.Date()
	end := time.Date(y, m, d, 0, 0, 0, 0, time.UTC).AddDate(0, 0, 1)
	return now.Before(end)
}

func ackActive(a state.Acknowledgement, now time.Time) bool { return InForce(a.Until, now) }

// AckActive reports whether a is in force at now (InForce). Apply uses it to
// refuse a saved plan whose acknowledgements expired after it was made.
func AckActive(a state.Acknowledgement, now time.Time) bool { return ackActive(a, now) }

// acknowledge marks the findings matched by active acknowledgements and adds
// the findings about the acknowledgements themselves (TF190–TF193).
func acknowledge(c *context, fs []Finding) []Finding {
	var extra []Finding
	for _, a := range c.d.Acknowledgements {
		code := strings.ToUpper(strings.TrimSpace(a.Code))
		addr := ackAddressPrefix + code
		if _, known := registry[code]; !known || isAckCode(code) {
			extra = append(extra, Finding{
				Code: CodeAckUnknown, Severity: diag.Warning, Address: addr, Range: a.Range, Link: ackLink,
				Summary: fmt.Sprintf("acknowledge %q names no guard rule", a.Code),
				Detail: fmt.Sprintf("No guard has the code %q, so this block suppresses nothing. "+
					"Check the spelling against docs/guards.md (codes look like TF101) or remove the block.", a.Code),
			})
			continue
		}
		if !ackActive(a, c.in.Now) {
			extra = append(extra, Finding{
				Code: CodeAckExpired, Severity: diag.Warning, Address: addr, Range: a.Range, Link: ackLink,
				Summary: fmt.Sprintf("acknowledgement of %s expired on %s", code, a.Until.Format(dateLayout)),
				Detail: fmt.Sprintf("The acknowledgement of %s (reason: %q) was valid until %s and no longer "+
					"suppresses anything: %s findings are reported, and block apply if they are errors. "+
					"Re-check the reason and either fix what %s reports, or extend `until` after review.",
					code, a.Reason, a.Until.Format(dateLayout), code, code),
			})
			continue
		}
		matched := 0
		for i := range fs {
			if fs[i].Code == code && !fs[i].Acknowledged {
				fs[i].Acknowledged = true
				fs[i].AckReason = a.Reason
				matched++
			}
		}
		if (a.Until.IsZero() || untilTooFar(a.Until, c.in.Now)) && matched > 0 {
			// Suppression must expire (docs/guards.md, "Acknowledging a finding"): one without a date still
			// works, but says so on every plan.
			extra = append(extra, Finding{
				Code: CodeAckForever, Severity: diag.Warning, Address: addr, Range: a.Range, Link: ackLink,
				Summary: fmt.Sprintf("acknowledgement of %s %s", code, untilText(a.Until)),
				Detail: fmt.Sprintf("This block suppresses %s (reason: %q) for ever. Acknowledgements are meant to be "+
					"temporary and reviewed: set until = \"YYYY-MM-DD\" within a year (the last day it holds, for example "+
					"the date of the planned fix), or fix what %s reports.", code, a.Reason, code),
			})
		}
		if matched == 0 {
			until := "without expiry"
			if !a.Until.IsZero() {
				until = "until " + a.Until.Format(dateLayout)
			}
			extra = append(extra, Finding{
				Code: CodeAckUnused, Severity: diag.Info, Address: addr, Range: a.Range, Link: ackLink,
				Summary: fmt.Sprintf("acknowledgement of %s matches no finding", code),
				Detail: fmt.Sprintf("Nothing in this plan reports %s, so the acknowledgement (%s) has no effect. "+
					"Remove it once the condition it covered is gone.", code, until),
			})
		}
	}
	return append(fs, extra...)
}

// isAckCode reports whether code is about a silencing block itself
// (acknowledge, ignore): such findings cannot be acknowledged.
func isAckCode(code string) bool {
	switch code {
	case CodeAckExpired, CodeAckUnused, CodeAckUnknown, CodeAckForever, CodeIgnoreExpired, CodeIgnoreForever, CodeIgnoreUnused:
		return true
	}
	return false
}

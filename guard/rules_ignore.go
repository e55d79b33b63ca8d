package guard

import (
	"fmt"

	"github.com/tiform/tiform/diag"
)

// Codes of the findings about ignore blocks (accepted, known drift). Like the
// acknowledgement codes, they cannot be acknowledged: an ignore that expired
// or matches nothing is fixed in the block itself.
const (
	CodeIgnoreExpired = "TF194"
	CodeIgnoreForever = "TF195"
	CodeIgnoreUnused  = "TF196"
	ignoreLink        = "https://github.com/tiform/tiform/blob/main/docs/workflows.md#accepted-drift-ignore-blocks"
	ignoreAddrPrefix  = "ignore."
)

func init() {
	register(
		&Rule{
			Code: CodeIgnoreExpired, Severity: diag.Warning,
			Title:    "Ignore expired",
			Link:     ignoreLink,
			Versions: "all versions",
			Reasoning: "An ignore block accepts known drift until a date. After that date it accepts nothing: the " +
				"difference is planned (and applied) again, and the expired block says so, so that a temporary " +
				"exception cannot become permanent unnoticed, nor end silently.",
			Sources: []string{linkIgnore},
			check:   checkIgnoreExpired,
		},
		&Rule{
			Code: CodeIgnoreForever, Severity: diag.Warning,
			Title:    "Ignore without expiry",
			Link:     ignoreLink,
			Versions: "all versions",
			Reasoning: "An ignore block without `until`, or with an `until` more than a year away (`9999-12-31`), " +
				"keeps its addresses out of every plan for ever. It still works, but accepted drift is meant to be " +
				"reviewed again, so every plan says so until a date within a year is set.",
			Sources: []string{linkIgnore},
			check:   checkIgnoreForever,
		},
		&Rule{
			Code: CodeIgnoreUnused, Severity: diag.Info,
			Title:    "Ignore matches no difference",
			Link:     ignoreLink,
			Versions: "all versions",
			Reasoning: "An ignore block whose addresses no longer differ is dead configuration: the drift it " +
				"accepted is gone (or its pattern is misspelt). Remove it, so that a later drift on the same " +
				"addresses is reported.",
			Sources: []string{linkIgnore},
			check:   checkIgnoreUnused,
		},
	)
}

func checkIgnoreExpired(c *context) []Finding {
	var out []Finding
	for _, ig := range c.d.Ignores {
		if InForce(ig.Until, c.in.Now) {
			continue
		}
		out = append(out, Finding{
			Address: ignoreAddrPrefix + string(ig.Pattern), Range: ig.Range,
			Summary: fmt.Sprintf("ignore %q expired on %s: its differences are planned again", string(ig.Pattern), ig.Until.Format(dateLayout)),
			Detail: fmt.Sprintf("The ignore block for %q (reason: %q) held until %s and no longer keeps anything out of the "+
				"plan: differences on the addresses it matches are planned and applied again. Re-check the reason, then "+
				"either remove the block and let apply restore the declared value, or extend until after review.",
				string(ig.Pattern), ig.Reason, ig.Until.Format(dateLayout)),
		})
	}
	return out
}

func checkIgnoreForever(c *context) []Finding {
	var out []Finding
	for _, ig := range c.d.Ignores {
		if !ig.Until.IsZero() && !untilTooFar(ig.Until, c.in.Now) || c.ignoredBy(string(ig.Pattern)) == 0 {
			continue
		}
		out = append(out, Finding{
			Address: ignoreAddrPrefix + string(ig.Pattern), Range: ig.Range,
			Summary: fmt.Sprintf("ignore %q %s", string(ig.Pattern), untilText(ig.Until)),
			Detail: fmt.Sprintf("This block keeps the addresses %q matches out of every plan (reason: %q) for ever. "+
				"Accepted drift is meant to be temporary and reviewed: set until = \"YYYY-MM-DD\" within a year (the "+
				"last day it holds), or declare the live value and remove the block.", string(ig.Pattern), ig.Reason),
		})
	}
	return out
}

func checkIgnoreUnused(c *context) []Finding {
	var out []Finding
	for _, ig := range c.d.Ignores {
		if !InForce(ig.Until, c.in.Now) || c.ignoredBy(string(ig.Pattern)) > 0 {
			continue
		}
		out = append(out, Finding{
			Address: ignoreAddrPrefix + string(ig.Pattern), Range: ig.Range,
			Summary: fmt.Sprintf("ignore %q matches no difference", string(ig.Pattern)),
			Detail: fmt.Sprintf("No address %q matches differs between the cluster and the configuration, so the "+
				"block keeps nothing out of the plan. Remove it once the drift it accepted is gone, so that the next "+
				"drift on these addresses is reported; check the spelling against the addresses the plan prints.",
				string(ig.Pattern)),
		})
	}
	return out
}

// ignoredBy counts the differences the ignore block with pattern kept out
// of the plan (Input.Ignored; each names its pattern in Reason).
func (c *context) ignoredBy(pattern string) int {
	n := 0
	for _, ch := range c.in.Ignored {
		if string(ch.Pattern) == pattern {
			n++
		}
	}
	for _, p := range c.in.IgnoredUnmanaged {
		if string(p) == pattern {
			n++
		}
	}
	return n
}

package guard

import (
	"fmt"
	"slices"
	"strings"

	"github.com/tiform/tiform/diag"
)

// Rule is one guard: a stable code, what it is about, and the check that
// produces its findings. The same fields generate docs/guards.md, so the
// documentation cannot drift from the code (TestGuardsDoc).
type Rule struct {
	// Code is stable forever ("TF101"): acknowledge blocks and CI scripts name it.
	Code string
	// Severity of every finding the rule produces.
	Severity diag.Severity
	// Title is a short name for the rule.
	Title string
	// Link is the default link of its findings (a docs.pingcap.com page or a
	// GitHub issue); a finding may carry a more specific one.
	Link string
	// Versions says, in words, which versions the rule applies to.
	Versions string
	// Reasoning explains why the rule exists (Markdown, one paragraph).
	Reasoning string
	// Sources lists the public sources of the rule's facts: documentation
	// URLs, GitHub issues and PRs, upstream source paths at a release tag.
	// At least one is an https URL or an owner/repo#N reference (TestRegistry).
	Sources []string
	// Live marks rules that need no HCL: CheckCluster runs them against the
	// live state alone.
	Live bool

	// check produces the rule's findings; nil for the acknowledgement codes
	// (TF19x), which Evaluate produces itself while applying acknowledgements.
	check func(c *context) []Finding
}

// registry holds every rule by code, and byCode the same rules sorted by
// code (the order Evaluate runs them in); both are written only at init.
var (
	registry = map[string]*Rule{}
	byCode   []*Rule
)

// register adds rules at init time; a duplicate code is a programming error.
func register(rs ...*Rule) {
	for _, r := range rs {
		if _, dup := registry[r.Code]; dup {
			panic(fmt.Sprintf("guard: rule %s registered twice", r.Code))
		}
		registry[r.Code] = r
		i, _ := slices.BinarySearchFunc(byCode, r.Code, func(r *Rule, code string) int { return strings.Compare(r.Code, code) })
		byCode = slices.Insert(byCode, i, r)
	}
}

// Rules returns every registered rule sorted by code. The returned values are
// copies: changing them changes nothing.
func Rules() []Rule {
	out := make([]Rule, len(byCode))
	for i, r := range byCode {
		out[i] = *r
	}
	return out
}

// Lookup returns the rule with code, if registered.
func Lookup(code string) (Rule, bool) {
	r, ok := registry[code]
	if !ok {
		return Rule{}, false
	}
	return *r, true
}

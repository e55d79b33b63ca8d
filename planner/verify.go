package planner

import (
	"strings"

	"github.com/tiform/tiform/state"
	"github.com/tiform/tiform/version"
)

// Read-back satisfaction. After a change, apply reads every Check's address
// back and asks these functions whether the cluster took the value; they are
// the only place that decides it.

// Satisfied reports whether read — the value read back at c's address as the
// component printed it (config items, variables), or the group a user is
// bound to (users); Absent when nothing was read — satisfies c. A resource
// group check needs the group itself: use GroupSatisfied.
func (c Check) Satisfied(read string) bool {
	if c.Kind == KindUser && read == "" {
		read = DefaultGroup // no group in User_attributes is `default`
	}
	return SameValue(c.Kind, c.Component, c.Key, c.Want, read)
}

// GroupSatisfied reports whether a live group (nil: it does not exist)
// satisfies a resource-group check for TiDB version v: a drop wants it
// absent, a create or update wants each option it sets to have the value it
// sets, compared in canonical form.
func (c Check) GroupSatisfied(live *state.ResourceGroup, v version.Version) bool {
	if c.Want == Absent {
		return live == nil
	}
	if live == nil {
		return false
	}
	have := liveOptions(live, v)
	for _, part := range splitOptions(c.Want) {
		name, val, ok := strings.Cut(part, "=")
		if !ok {
			return false
		}
		o, present := have[name]
		got := "NULL"
		if present {
			got = o.Value
		}
		if name == "QUERY_LIMIT" || name == "BACKGROUND" {
			val = strings.TrimSuffix(strings.TrimPrefix(val, "("), ")")
		}
		if got != val {
			return false
		}
	}
	return true
}

// splitOptions splits "A=1, B=(x, y), C=2" at the commas outside parentheses
// and quotes.
func splitOptions(s string) []string {
	var out []string
	depth, quoted, start := 0, false, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\'':
			quoted = !quoted
		case '(':
			if !quoted {
				depth++
			}
		case ')':
			if !quoted {
				depth--
			}
		case ',':
			if !quoted && depth == 0 {
				out = append(out, strings.TrimSpace(s[start:i]))
				start = i + 1
			}
		}
	}
	if rest := strings.TrimSpace(s[start:]); rest != "" {
		out = append(out, rest)
	}
	return out
}

package planner

import (
	"strings"

	"github.com/tiform/tiform/state"
	"github.com/tiform/tiform/version"
)

// Read-back helpers for apply. A Check's Want is canonical: for config items
// and variables compare CanonicalValue of the read value with it; for
// resource groups and users use the functions below, which read Want in the
// form the planner wrote it.

// GroupSatisfies reports whether a live group (nil: it does not exist)
// satisfies a KindResourceGroup check. Want is Absent for a drop, else the
// changed options as "RU_PER_SEC=2000, QUERY_LIMIT=(…)", compared option by
// option in canonical form for TiDB version v.
func GroupSatisfies(c Check, live *state.ResourceGroup, v version.Version) bool {
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

// UserSatisfies reports whether a live binding satisfies a KindUser check
// (Want is the group name; an empty live group is `default`).
func UserSatisfies(c Check, live state.UserBinding) bool {
	return boundGroup(live) == groupName(c.Want)
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

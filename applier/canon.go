package applier

import (
	"strings"

	"github.com/tiform/tiform/catalog"
	"github.com/tiform/tiform/planner"
	"github.com/tiform/tiform/state"
)

// canonical returns the form two values of a setting are compared in. Config
// items and variables go through the planner's value semantics (the same the
// plan was computed with, so Check.Want and a read-back compare like with
// like); resource-group and user values compare trimmed and case-insensitively
// (TiDB upper-cases PRIORITY and lower-cases group names, tidb-facts.md §4.3).
func canonical(kind planner.Kind, c state.Component, key, text string) string {
	switch kind {
	case planner.KindConfig, planner.KindVariable:
		return planner.CanonicalValue(kind, c, key, text)
	}
	return strings.TrimSpace(text)
}

// wantMatches reports whether a read-back value satisfies a check. For
// resource groups Want lists only the options the change sets
// ("RU_PER_SEC=2000, PRIORITY=HIGH", planner's describeOptions) and the read
// value is planner.CanonicalGroup with every option: each wanted option must
// have the wanted value. Users compare group names case-insensitively.
func wantMatches(t target, have, want string) bool {
	switch t.Kind {
	case planner.KindResourceGroup:
		if have == Absent || want == Absent {
			return have == want
		}
		h := groupOptions(have)
		for k, v := range groupOptions(want) {
			if !strings.EqualFold(h[k], v) {
				return false
			}
		}
		return true
	case planner.KindUser:
		return strings.EqualFold(strings.TrimSpace(have), strings.TrimSpace(want))
	}
	return sameValue(t.Kind, t.Component, t.Key, have, want)
}

// groupOptions splits "K=V, K=(a, b), …" at top-level commas.
func groupOptions(s string) map[string]string {
	out := map[string]string{}
	depth, start := 0, 0
	add := func(part string) {
		k, v, ok := strings.Cut(strings.TrimSpace(part), "=")
		if ok {
			out[strings.ToUpper(strings.TrimSpace(k))] = strings.TrimSpace(v)
		}
	}
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '(':
			depth++
		case ')':
			depth--
		case ',':
			if depth == 0 {
				add(s[start:i])
				start = i + 1
			}
		}
	}
	add(s[start:])
	return out
}

// display renders a canonical or raw value the way the component shows it
// ("100663296" → "96MiB", "true" → "ON" for a variable), for reports only;
// comparisons always use canonical forms.
func display(kind planner.Kind, c state.Component, key, text string) string {
	if text == Absent || text == "" {
		return text
	}
	var e *catalog.Entry
	var ok bool
	switch kind {
	case planner.KindConfig:
		e, ok = catalog.Config(string(c), key)
	case planner.KindVariable:
		e, ok = catalog.Variable(key)
	}
	if !ok || e == nil {
		return text
	}
	return e.Render(canonical(kind, c, key, text))
}

package applier

import (
	"strings"

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
		return canonicalValue(kind, c, key, text)
	}
	return strings.ToLower(strings.TrimSpace(text))
}

// canonicalValue is the planner's CanonicalValue once committed; until then a
// conservative reading: trimmed, booleans folded.
func canonicalValue(kind planner.Kind, c state.Component, key, text string) string {
	t := strings.TrimSpace(text)
	switch strings.ToLower(t) {
	case "on", "true":
		return "true"
	case "off", "false":
		return "false"
	}
	return t
}

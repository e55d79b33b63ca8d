package catalog

import (
	"sort"
	"strings"

	"github.com/agext/levenshtein"
)

// SuggestConfig returns the known config key of component closest to key,
// for "did you mean …?" diagnostics, or "" when nothing is close. A key whose
// last segment matches a known key's last segment exactly (a setting written
// under the wrong section, "raftstore.region-split-size") is suggested even
// when the whole key is far.
func SuggestConfig(component, key string) string {
	component, key = strings.ToLower(component), strings.ToLower(key)
	var keys []string
	for _, e := range configEntries {
		if e.Component == component && !e.Prefix {
			keys = append(keys, e.Key)
		}
	}
	if s := nearest(key, keys); s != "" {
		return s
	}
	leaf := key[strings.LastIndexByte(key, '.')+1:]
	var match string
	for _, k := range keys {
		if k != key && k[strings.LastIndexByte(k, '.')+1:] == leaf {
			if match != "" {
				return "" // ambiguous
			}
			match = k
		}
	}
	return match
}

// SuggestVariable returns the known variable name closest to name, or "".
func SuggestVariable(name string) string {
	name = strings.ToLower(strings.TrimPrefix(name, "@@"))
	var names []string
	for k := range variableEntries {
		names = append(names, k)
	}
	return nearest(name, names)
}

// nearest returns the candidate with the smallest edit distance to s when it
// is close enough: at most 1 edit for short words, about a quarter of the
// length for long ones, and never a candidate equal to s. Ties go to the
// alphabetically first candidate, so results are stable.
func nearest(s string, candidates []string) string {
	if s == "" {
		return ""
	}
	limit := len(s) / 4
	if limit < 1 {
		limit = 1
	}
	if limit > 5 {
		limit = 5
	}
	best, bestD := "", limit+1
	for _, c := range candidates {
		if c == s {
			continue
		}
		d := levenshtein.Distance(s, c, nil)
		if d < bestD || d == bestD && c < best {
			best, bestD = c, d
		}
	}
	if bestD > limit {
		return ""
	}
	return best
}

// Section returns the known keys of component that lie under key as a TOML
// table ("coprocessor" → "coprocessor.batch-split-limit", …), sorted, or nil
// when no known key does. A value written for a section is a mistake the
// component rejects (SET CONFIG tikv `coprocessor` = … names no item).
func Section(component, key string) []string {
	component, key = strings.ToLower(component), strings.ToLower(key)
	if key == "" {
		return nil
	}
	var out []string
	for _, e := range configEntries {
		if e.Component == component && !e.Prefix && strings.HasPrefix(e.Key, key+".") {
			out = append(out, e.Key)
		}
	}
	sort.Strings(out)
	return out
}

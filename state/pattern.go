package state

import (
	"fmt"
	"slices"
	"strings"
)

// AddressPattern matches the addresses of planned changes
// (tikv.coprocessor.region-split-size, tikv["10.0.1.17:20160"].gc.ratio-threshold,
// variable.tidb_mem_quota_query, resource_group.oltp,
// user."app"@"%".resource_group). "*" matches any run of characters, dots
// and brackets included; every other character matches itself. A pattern
// starts with the kind it is about, without a wildcard (AddressKinds), so
// that no pattern can match every kind at once.
type AddressPattern string

// AddressKinds are the first segments of change addresses.
var AddressKinds = []string{string(TiKV), string(PD), string(TiFlash), "variable", "resource_group", "user"}

// ParseAddressPattern checks s, or says what is wrong with it in one
// sentence (the caller adds where and a hint).
func ParseAddressPattern(s string) (AddressPattern, error) {
	if strings.TrimSpace(s) == "" {
		return "", fmt.Errorf("the pattern is empty")
	}
	if s != strings.TrimSpace(s) {
		return "", fmt.Errorf("the pattern %q starts or ends with a space", s)
	}
	kind := AddressKind(s)
	if strings.Contains(kind, "*") || !slices.Contains(AddressKinds, kind) {
		return "", fmt.Errorf("the pattern %q does not start with a kind of address (%s)", s, strings.Join(AddressKinds, ", "))
	}
	if len(s) == len(kind) {
		return "", fmt.Errorf("the pattern %q names a kind only: add the rest of the address (%s.* for every %s address)", s, kind, kind)
	}
	if next := s[len(kind)]; next != '.' && next != '[' {
		return "", fmt.Errorf("the pattern %q does not start with a kind of address (%s)", s, strings.Join(AddressKinds, ", "))
	}
	return AddressPattern(s), nil
}

// AddressKind is the first segment of an address or pattern: what comes
// before the first "." or "[".
func AddressKind(s string) string {
	if i := strings.IndexAny(s, ".["); i >= 0 {
		return s[:i]
	}
	return s
}

// Match reports whether address matches the pattern.
func (p AddressPattern) Match(address string) bool {
	return globMatch(string(p), address)
}

// globMatch matches s against pattern, where '*' matches any run of bytes:
// the classic two-pointer wildcard match, linear in practice, with no
// backtracking beyond the last '*'.
func globMatch(pattern, s string) bool {
	p, i := 0, 0
	star, mark := -1, 0
	for i < len(s) {
		switch {
		case p < len(pattern) && pattern[p] == '*':
			star, mark = p, i
			p++
		case p < len(pattern) && pattern[p] == s[i]:
			p++
			i++
		case star >= 0:
			p = star + 1
			mark++
			i = mark
		default:
			return false
		}
	}
	for p < len(pattern) && pattern[p] == '*' {
		p++
	}
	return p == len(pattern)
}

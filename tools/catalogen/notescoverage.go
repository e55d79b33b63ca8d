package main

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"regexp"
	"sort"
	"strings"

	"github.com/tiform/tiform/guard"
	"github.com/tiform/tiform/internal/upstream"
)

// The release-notes coverage report: every item readNoteItems finds,
// with what covers it, in this order:
//
//  1. a reasons-file entry that names a rule ("=> TF127");
//  2. a guard rule whose sources cite one of the item's references
//     (guard.Rules, Sources and Link);
//  3. the catalog's generated facts, for a compatibility table row whose
//     change the table shows at that release (a setting new, removed or
//     deprecated there, or a default that changed there);
//  4. a reason in the reasons file, reviewed like code.
//
// An item with none of them is uncovered: `make catalog` writes the report
// with the item marked and says so, `make catalog-check` fails. A reasons
// entry that matches no item is stale, and fails the check too.

// reasonsFile and coverageFile are where the reasons file and the report
// are, from the repository's root (the Makefile runs catalogen there).
const (
	reasonsFile  = "tools/catalogen/release_notes_reasons.txt"
	coverageFile = "docs/release-notes-coverage.md"
)

// coverage is what covers one item; exactly one of Rules, Catalog and
// Reason is set when it is covered.
type coverage struct {
	Rules   []string
	Catalog string
	Reason  string
}

func (c coverage) covered() bool { return len(c.Rules) > 0 || c.Catalog != "" || c.Reason != "" }

// reasons is the parsed reasons file: entries by item ID, labels by name,
// and the line of each entry (for stale ones).
type reasons struct {
	entries map[string]string
	lines   map[string]int
	labels  map[string]string
}

var (
	ruleCode     = regexp.MustCompile(`^TF\d{3}$`)
	sourceRefRes = []*regexp.Regexp{ghRef, regexp.MustCompile(`\b([\w.-]+/[\w.-]+)#(\d+)\b`)}
)

// parseReasons reads the reasons file:
//
//	# comment
//	@label: text          a reason several entries share
//	ID | reason           ID is an item's ID (noteItem.ID); reason is text,
//	                      "@label" (optionally followed by more text), or
//	                      "=> TF127" (covered by that rule)
func parseReasons(data []byte) (*reasons, error) {
	r := &reasons{entries: map[string]string{}, lines: map[string]int{}, labels: map[string]string{}}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
	n := 0
	for sc.Scan() {
		n++
		line := strings.TrimSpace(sc.Text())
		switch {
		case line == "" || strings.HasPrefix(line, "#"):
			continue
		case strings.HasPrefix(line, "@"):
			name, text, ok := strings.Cut(line, ":")
			if !ok || strings.TrimSpace(text) == "" {
				return nil, fmt.Errorf("line %d: a label is \"@name: reason\"", n)
			}
			r.labels[strings.TrimSpace(name)] = strings.TrimSpace(text)
			continue
		}
		id, reason, ok := strings.Cut(line, " | ")
		id, reason = strings.TrimSpace(id), strings.TrimSpace(reason)
		if !ok || id == "" || reason == "" {
			return nil, fmt.Errorf("line %d: an entry is \"ID | reason\", got %q", n, line)
		}
		if _, dup := r.entries[id]; dup {
			return nil, fmt.Errorf("line %d: %s is listed twice (first on line %d)", n, id, r.lines[id])
		}
		r.entries[id], r.lines[id] = reason, n
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	for id, reason := range r.entries {
		if _, err := r.expand(reason); err != nil {
			return nil, fmt.Errorf("line %d (%s): %w", r.lines[id], id, err)
		}
	}
	return r, nil
}

// expand resolves a reason: a rule ("=> TF127": rules set), a label with
// optional extra text, or text.
func (r *reasons) expand(reason string) (coverage, error) {
	if rest, ok := strings.CutPrefix(reason, "=>"); ok {
		var c coverage
		for _, code := range strings.Fields(strings.ReplaceAll(rest, ",", " ")) {
			if !ruleCode.MatchString(code) {
				return c, fmt.Errorf("%q is not a rule code", code)
			}
			if _, ok := guard.Lookup(code); !ok {
				return c, fmt.Errorf("%s is not a guard rule", code)
			}
			c.Rules = append(c.Rules, code)
		}
		if len(c.Rules) == 0 {
			return c, fmt.Errorf("\"=>\" names no rule")
		}
		return c, nil
	}
	if strings.HasPrefix(reason, "@") {
		name, more, _ := strings.Cut(reason, " ")
		text, ok := r.labels[name]
		if !ok {
			return coverage{}, fmt.Errorf("no label %s", name)
		}
		if more = strings.TrimSpace(more); more != "" {
			text += " " + more
		}
		return coverage{Reason: text}, nil
	}
	return coverage{Reason: reason}, nil
}

// ruleRefs maps each reference a guard rule cites ("tikv/tikv#17066") to
// the rules citing it.
func ruleRefs() map[string][]string {
	out := map[string][]string{}
	for _, r := range guard.Rules() {
		seen := map[string]bool{}
		for _, s := range append([]string{r.Link}, r.Sources...) {
			for _, re := range sourceRefRes {
				for _, m := range re.FindAllStringSubmatch(s, -1) {
					ref := m[1] + "#" + m[2]
					if !seen[ref] {
						seen[ref] = true
						out[ref] = append(out[ref], r.Code)
					}
				}
			}
		}
	}
	return out
}

// catalogFact says which generated fact of t covers a compatibility table
// row ("" when none does): the row's setting new, removed or deprecated at
// its release, or, for a modification, a fact of it (default, accepted
// values, range, scope, kind, online) that differs from the release the
// notes compare with, as the table records it.
func catalogFact(t *upstream.Table, it noteItem) string {
	if it.Section != sectionCompat || it.Change == "" || len(it.Names) == 0 {
		return ""
	}
	for _, k := range it.Names {
		s := findSetting(t, k)
		if s == nil {
			continue
		}
		at := t.At(s, it.Release)
		for _, prev := range comparedWith(t, k.Component, it.Release) {
			before := t.At(s, prev)
			switch it.Change {
			case changeNew:
				if at != nil && before == nil {
					return fmt.Sprintf("catalog: %s exists from %s, not in %s (TF150 refuses it there)", k, it.Release, prev)
				}
			case changeRemoved:
				if at == nil && before != nil {
					return fmt.Sprintf("catalog: %s exists in %s, not from %s (TF150)", k, prev, it.Release)
				}
			case changeDeprecated:
				if at != nil && at.Deprecated && (before == nil || !before.Deprecated) {
					return fmt.Sprintf("catalog: %s is deprecated from %s (TF153)", k, it.Release)
				}
			case changeModified:
				if at != nil && before != nil {
					if d := spanDiff(before, at); d != "" {
						return fmt.Sprintf("catalog: %s of %s changed from %s to %s", d, k, prev, it.Release)
					}
				}
			}
		}
	}
	return ""
}

// comparedWith lists the observed versions a release's notes compare with:
// the release just before it, and for a new line's first release
// (X.Y.0) also the previous line's first release, since the notes of
// v6.6.0 compare with v6.5.0 rather than with the newest 6.5 patch.
func comparedWith(t *upstream.Table, component, v string) []string {
	vs := t.Versions[component]
	var out []string
	for i, x := range vs {
		if x == v && i > 0 {
			out = append(out, vs[i-1])
		}
	}
	cur, ok := parseTag(v)
	if !ok || cur[2] != 0 {
		return out
	}
	for _, x := range vs {
		if p, ok := parseTag(x); ok && less3(p, cur) && p[2] == 0 && (p[0] != cur[0] || p[1] != cur[1]) {
			if len(out) < 2 {
				out = append(out, x)
			} else {
				out[1] = x // the newest earlier line's first release
			}
		}
	}
	return out
}

// spanDiff names the facts two spans of a setting disagree on ("" when
// none a user sees does).
func spanDiff(a, b *upstream.Span) string {
	var d []string
	str := func(p *string) string {
		if p == nil {
			return "(computed)"
		}
		return *p
	}
	if str(a.Default) != str(b.Default) {
		d = append(d, fmt.Sprintf("the default (%s → %s)", str(a.Default), str(b.Default)))
	}
	if strings.Join(a.Values, ",") != strings.Join(b.Values, ",") {
		d = append(d, "the accepted values")
	}
	if a.Range != b.Range {
		d = append(d, "the range")
	}
	if a.Scope != b.Scope {
		d = append(d, fmt.Sprintf("the scope (%s → %s)", a.Scope, b.Scope))
	}
	if a.Kind != b.Kind {
		d = append(d, "the kind")
	}
	if a.Online != b.Online {
		d = append(d, "online changeability")
	}
	if a.Unit != b.Unit {
		d = append(d, "the unit")
	}
	return strings.Join(d, ", ")
}

func findSetting(t *upstream.Table, k catalogKey) *upstream.Setting {
	for _, s := range t.Settings {
		if s.Component == k.Component && s.Key == k.Key {
			return s
		}
	}
	return nil
}

// coverageReport decides what covers each item; it returns the items'
// coverage (in item order), the uncovered items' IDs and the reasons
// entries that match no item.
func coverageReport(t *upstream.Table, items []noteItem, rs *reasons) (covs []coverage, uncovered, stale []string) {
	byRef := ruleRefs()
	used := map[string]bool{}
	for _, it := range items {
		var c coverage
		id := it.ID()
		reason, listed := rs.entries[id]
		if listed {
			used[id] = true
		}
		switch {
		case listed && strings.HasPrefix(reason, "=>"):
			c, _ = rs.expand(reason)
		case len(rulesCiting(byRef, it.Refs)) > 0:
			c.Rules = rulesCiting(byRef, it.Refs)
		case catalogFact(t, it) != "":
			c.Catalog = catalogFact(t, it)
		case listed:
			c, _ = rs.expand(reason)
		default:
			uncovered = append(uncovered, id)
		}
		covs = append(covs, c)
	}
	for id := range rs.entries {
		if !used[id] {
			stale = append(stale, fmt.Sprintf("%s (line %d)", id, rs.lines[id]))
		}
	}
	sort.Strings(stale)
	return covs, dedupe(uncovered), stale
}

func rulesCiting(byRef map[string][]string, refs []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, r := range refs {
		for _, code := range byRef[r] {
			if !seen[code] {
				seen[code] = true
				out = append(out, code)
			}
		}
	}
	sort.Strings(out)
	return out
}

func dedupe(ids []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, id := range ids {
		if !seen[id] {
			seen[id] = true
			out = append(out, id)
		}
	}
	return out
}

// releaseNotesCoverage reads the release notes of every release t covers
// and renders docs/release-notes-coverage.md with the reasons file at
// reasonsPath.
func releaseNotesCoverage(docsDir string, t *upstream.Table, reasonsPath string) (doc []byte, uncovered, stale []string, err error) {
	data, err := os.ReadFile(reasonsPath)
	if err != nil {
		return nil, nil, nil, err
	}
	rs, err := parseReasons(data)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("%s: %w", reasonsPath, err)
	}
	docs, err := openRepo("pingcap/docs-cn", docsDir)
	if err != nil {
		return nil, nil, nil, err
	}
	defer docs.close()
	items, commit, err := readNoteItems(docs, t)
	if err != nil {
		return nil, nil, nil, err
	}
	covs, uncovered, stale := coverageReport(t, items, rs)
	return renderCoverage(t, items, covs, commit), uncovered, stale, nil
}

// renderCoverage writes the report's Markdown.
func renderCoverage(t *upstream.Table, items []noteItem, covs []coverage, commit string) []byte {
	var b bytes.Buffer
	var nRule, nCatalog, nReason, nNone int
	for _, c := range covs {
		switch {
		case len(c.Rules) > 0:
			nRule++
		case c.Catalog != "":
			nCatalog++
		case c.Reason != "":
			nReason++
		default:
			nNone++
		}
	}
	vs := t.Versions[upstream.SysVar]
	first, last := vs[0], vs[len(vs)-2]
	fmt.Fprintf(&b, "# Release-notes coverage\n\n")
	fmt.Fprintf(&b, "<!-- Generated by tools/catalogen (`make catalog`) from pingcap/docs-cn@%s releases/, the guard registry "+
		"and %s. Do not edit: `make catalog-check` fails when this file is stale, when an item has neither a rule "+
		"nor a reason, or when a reason matches no item. -->\n\n", commit[:12], reasonsFile)
	fmt.Fprintf(&b, "Every bug fix (TiDB, TiKV, PD) and compatibility change in the release notes of %s–%s that names a "+
		"setting tiform's catalog knows, or a feature its guards watch (resource control, plan cache, Region size, "+
		"In-Memory Engine, GC, schedulers), with what covers it: a guard rule (one whose sources cite the item, or "+
		"one the reasons file names), the catalog's facts for that release (a setting new, removed or deprecated "+
		"there, a default that changed there, as the generated table records them), or the reviewed reason why none "+
		"is needed ([`%s`](../%s)). A new release's notes that bring an item with none of these fail "+
		"`make catalog-check`, so new upstream knowledge cannot go unnoticed.\n\n",
		first, last, reasonsFile, reasonsFile)
	fmt.Fprintf(&b, "%d items: %d covered by a rule, %d by the catalog's facts, %d with a reason", len(items), nRule, nCatalog, nReason)
	if nNone > 0 {
		fmt.Fprintf(&b, ", **%d with neither**", nNone)
	}
	b.WriteString(".\n\n| release | kind | item | settings and features | covered by |\n|---|---|---|---|---|\n")
	for i, it := range items {
		rel := fmt.Sprintf("[%s](https://docs.pingcap.com/tidb/stable/release-%s)", it.Release, strings.TrimPrefix(it.Release, "v"))
		kind := it.Section
		if it.Component != "" {
			kind = it.Component + " " + kind
		}
		if it.Change != "" {
			kind += " (" + it.Change + ")"
		}
		var links []string
		for _, r := range it.Refs {
			repo, n, _ := strings.Cut(r, "#")
			links = append(links, fmt.Sprintf("[%s](https://github.com/%s/issues/%s)", r, repo, n))
		}
		item := strings.Join(links, " ")
		if item == "" {
			item = fmt.Sprintf("line %d", it.Line)
		}
		var what []string
		for _, k := range it.Names {
			what = append(what, "`"+k.String()+"`")
		}
		what = append(what, it.Features...)
		c := covs[i]
		by := "**neither a rule nor a reason**"
		switch {
		case len(c.Rules) > 0:
			var links []string
			for _, code := range c.Rules {
				links = append(links, fmt.Sprintf("[%s](guards.md#%s)", code, strings.ToLower(code)))
			}
			by = strings.Join(links, ", ")
		case c.Catalog != "":
			by = c.Catalog
		case c.Reason != "":
			by = c.Reason
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s |\n", rel, kind, item, cell(strings.Join(what, ", ")), cell(by))
	}
	return b.Bytes()
}

// cell escapes text for a Markdown table cell.
func cell(s string) string { return strings.ReplaceAll(s, "|", "\\|") }

// coverageStep builds the report from the generated table data. In check
// mode an uncovered item or a stale reason is an error; otherwise they are
// printed and the report marks the uncovered items.
func coverageStep(docsDir string, data []byte, reasonsPath string, check bool) ([]byte, error) {
	t, err := upstream.Decode(data)
	if err != nil {
		return nil, err
	}
	doc, uncovered, stale, err := releaseNotesCoverage(docsDir, t, reasonsPath)
	if err != nil {
		return nil, fmt.Errorf("release-notes coverage: %w", err)
	}
	var problems []string
	if len(uncovered) > 0 {
		problems = append(problems, fmt.Sprintf("%d release-note item(s) have neither a guard rule nor a reason: %s; add a rule "+
			"that cites them, or a reviewed reason to %s (docs/catalog.md, \"Release-notes coverage\")",
			len(uncovered), strings.Join(uncovered, ", "), reasonsPath))
	}
	if len(stale) > 0 {
		problems = append(problems, fmt.Sprintf("%d reason(s) in %s match no release-note item: %s; remove them",
			len(stale), reasonsPath, strings.Join(stale, ", ")))
	}
	if len(problems) > 0 {
		if check {
			return nil, fmt.Errorf("%s", strings.Join(problems, "; "))
		}
		for _, p := range problems {
			fmt.Fprintln(os.Stderr, "catalogen: warning:", p)
		}
	}
	return doc, nil
}

// sameFile reports an error when path's content differs from want.
func sameFile(path string, want []byte) error {
	got, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	if !bytes.Equal(got, want) {
		return fmt.Errorf("%s is not what these upstream copies generate (%s); run make catalog and review the diff",
			path, firstDifference(got, want))
	}
	return nil
}

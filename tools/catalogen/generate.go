package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/tiform/tiform/internal/upstream"
)

type options struct {
	tikv, pd, docs string
	// pdSurface corrects the PD walk with what PD printed (pd_surface.go);
	// nil: the walk alone.
	pdSurface *upstream.Surface
}

// firstVersion is the oldest release the table covers, lastLine the newest
// release line; later tags (PD's v26.3.x) are left out: master stands for
// what comes after v8.5.
var (
	firstVersion = [3]int{6, 5, 0}
	lastLine     = [2]int{8, 5}
)

// versionFacts is what one component says at one version.
type versionFacts struct {
	version  string
	ref      string // tag or branch the facts were read at
	keys     map[string]*keyFacts
	prefixes []prefixFacts
}

// generate reads the three repositories and returns settings.json.
func generate(opts options) ([]byte, []string, error) {
	var warnings []string
	warn := func(s string) { warnings = append(warnings, s) }
	tikv, err := openRepo("tikv/tikv", opts.tikv)
	if err != nil {
		return nil, nil, err
	}
	defer tikv.close()
	pd, err := openRepo("tikv/pd", opts.pd)
	if err != nil {
		return nil, nil, err
	}
	defer pd.close()
	docs, err := openRepo("pingcap/docs-cn", opts.docs)
	if err != nil {
		return nil, nil, err
	}
	defer docs.close()

	t := &upstream.Table{Format: upstream.Format, Generator: "tools/catalogen", Versions: map[string][]string{}, Master: map[string]string{}}

	tikvFacts, tikvInput, err := readTiKV(tikv, warn)
	if err != nil {
		return nil, nil, err
	}
	pdFacts, pdInput, err := readPD(pd, warn)
	if err != nil {
		return nil, nil, err
	}
	applyPDSurface(opts.pdSurface, pdFacts)
	for _, vf := range pdFacts {
		classify(vf.keys, pdFlags[vf.version])
	}
	master, err := cargoVersion(tikv)
	if err != nil {
		return nil, nil, err
	}
	// TiDB releases share their version numbers with TiKV and PD: the
	// variables are resolved at the union of both components' tags.
	varVersions := unionVersions(tikvFacts, pdFacts)
	varFacts, docsInput, err := readSysVars(docs, varVersions, warn)
	if err != nil {
		return nil, nil, err
	}
	unquoteDefaults(varFacts)
	t.Inputs = []upstream.Input{tikvInput, pdInput, docsInput}
	for _, c := range []struct {
		name  string
		facts []versionFacts
		repo  string
	}{{upstream.TiKV, tikvFacts, "tikv/tikv"}, {upstream.PD, pdFacts, "tikv/pd"}, {upstream.SysVar, varFacts, "pingcap/docs-cn"}} {
		for _, vf := range c.facts {
			t.Versions[c.name] = append(t.Versions[c.name], vf.version)
		}
		t.Master[c.name] = master
		t.Settings = append(t.Settings, buildSettings(c.name, c.repo, c.facts)...)
		t.Prefixes = append(t.Prefixes, buildPrefixes(c.name, c.repo, c.facts)...)
	}
	if err := markSecrets(t, docs); err != nil {
		return nil, nil, err
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", " ")
	if err := enc.Encode(t); err != nil {
		return nil, nil, err
	}
	data := buf.Bytes()
	// the file must load
	if _, err := upstream.Decode(data); err != nil {
		return nil, nil, err
	}
	return data, warnings, nil
}

// cargoVersion is the version tikv/tikv's master calls itself.
func cargoVersion(r *repo) (string, error) {
	src, err := r.show("master", "Cargo.toml")
	if err != nil {
		return "", err
	}
	for _, l := range strings.Split(string(src), "\n") {
		if v, ok := strings.CutPrefix(strings.TrimSpace(l), "version = "); ok {
			return strings.Trim(v, `"`), nil
		}
	}
	return "", fmt.Errorf("tikv/tikv master Cargo.toml has no version")
}

// walkFunc reads one component's keys at one ref.
type walkFunc func(ref string) (map[string]*keyFacts, []prefixFacts, error)

// readTags walks every final release tag from firstVersion through lastLine,
// then master, recording each ref's commit.
func readTags(r *repo, walk walkFunc) ([]versionFacts, upstream.Input, error) {
	tags, err := r.releaseTags(firstVersion, lastLine)
	if err != nil {
		return nil, upstream.Input{}, err
	}
	in := upstream.Input{Repo: r.name}
	var out []versionFacts
	for _, ref := range append(tags, "master") {
		commit, err := r.commit(ref)
		if err != nil {
			return nil, in, err
		}
		in.Refs = append(in.Refs, upstream.Ref{Name: ref, Commit: commit})
		keys, prefixes, err := walk(ref)
		if err != nil {
			return nil, in, err
		}
		out = append(out, versionFacts{version: ref, ref: ref, keys: keys, prefixes: prefixes})
	}
	return out, in, nil
}

func readTiKV(r *repo, warn func(string)) ([]versionFacts, upstream.Input, error) {
	cache := map[string]*rustFile{} // parsed files by blob: most do not change between tags
	return readTags(r, func(ref string) (map[string]*keyFacts, []prefixFacts, error) {
		s, err := newRustSnapshot(r, ref, cache, warn)
		if err != nil {
			return nil, nil, err
		}
		keys, prefixes, err := walkTiKV(s)
		if err == nil {
			classify(keys, tikvFlagKeys(s, keys))
		}
		return keys, prefixes, err
	})
}

// pdFlags are, per PD version, the keys its command line sets (class.go),
// kept until the walk is corrected with what PD printed (pd_surface.go).
var pdFlags = map[string][]string{}

func readPD(r *repo, warn func(string)) ([]versionFacts, upstream.Input, error) {
	return readTags(r, func(ref string) (map[string]*keyFacts, []prefixFacts, error) {
		s, err := newPDSnapshot(r, ref, warn)
		if err != nil {
			return nil, nil, err
		}
		keys, prefixes, err := walkPD(s)
		if err == nil {
			pdFlags[ref] = pdFlagKeys(s, keys)
		}
		return keys, prefixes, err
	})
}

// unionVersions merges the observed versions of two components in order.
func unionVersions(a, b []versionFacts) []string {
	seen := map[string]bool{}
	var vs []string
	for _, list := range [][]versionFacts{a, b} {
		for _, vf := range list {
			if !seen[vf.version] && vf.version != "master" {
				seen[vf.version] = true
				vs = append(vs, vf.version)
			}
		}
	}
	sort.Slice(vs, func(i, j int) bool {
		x, _ := parseTag(vs[i])
		y, _ := parseTag(vs[j])
		return less3(x, y)
	})
	return append(vs, "master")
}

// spanFacts is a span without its bounds and source: two versions with
// equal spanFacts belong to one span.
func spanFacts(kf *keyFacts) upstream.Span {
	sp := upstream.Span{Kind: kf.kind, Values: kf.values, Codes: kf.codes, Online: kf.online, Hidden: kf.hidden, Class: kf.class, Nullable: kf.nullable,
		StringBool: kf.stringBool, Scope: kf.scope, Session: kf.session, Persisted: kf.persisted, Default: kf.def, DefaultExpr: kf.defExpr,
		Deprecated: kf.deprecated, Unit: kf.unit, Range: kf.rng, Notes: kf.notes}
	return sp
}

// fingerprint identifies a span's facts: bounds and sources (of the span and
// of its notes) are left out, so a fact read at two branches is one fact.
func fingerprint(sp upstream.Span) string {
	sp.From, sp.To, sp.Source = "", "", upstream.Source{}
	notes := make([]upstream.Note, len(sp.Notes))
	for i, n := range sp.Notes {
		notes[i] = upstream.Note{Text: n.Text}
	}
	sp.Notes = notes
	b, _ := json.Marshal(sp)
	return string(b)
}

// buildSettings turns per-version facts into settings with spans.
func buildSettings(component, repoName string, facts []versionFacts) []*upstream.Setting {
	keys := map[string]bool{}
	for _, vf := range facts {
		for k := range vf.keys {
			keys[k] = true
		}
	}
	var out []*upstream.Setting
	for _, k := range sortedKeys(keys) {
		s := &upstream.Setting{Component: component, Key: k}
		var cur *upstream.Span
		curFP := ""
		for _, vf := range facts {
			kf, ok := vf.keys[k]
			if !ok {
				cur = nil
				continue
			}
			if kf.introduced != "" {
				s.Introduced = kf.introduced
			}
			sp := spanFacts(kf)
			fp := fingerprint(sp)
			src := upstream.Source{Repo: repoName, Path: kf.path, Ref: vf.ref, Line: kf.line}
			if cur != nil && fp == curFP {
				cur.To = vf.version
				if vf.version != "master" {
					// cite the newest release tag of the span: master moves
					cur.Source, cur.Notes = src, sp.Notes
				}
				continue
			}
			sp.From, sp.To, sp.Source = vf.version, vf.version, src
			cur, curFP = &sp, fp
			s.Spans = append(s.Spans, cur)
		}
		out = append(out, s)
	}
	return out
}

// buildPrefixes records the sections whose keys are not listed.
func buildPrefixes(component, repoName string, facts []versionFacts) []*upstream.Setting {
	byPrefix := map[string]*upstream.Setting{}
	var order []string
	for _, vf := range facts {
		for _, p := range vf.prefixes {
			s, ok := byPrefix[p.prefix]
			if !ok {
				s = &upstream.Setting{Component: component, Key: p.prefix}
				byPrefix[p.prefix] = s
				order = append(order, p.prefix)
			}
			src := upstream.Source{Repo: repoName, Path: p.path, Ref: vf.ref}
			note := []upstream.Note{{Text: p.reason, Source: src}}
			if n := len(s.Spans); n > 0 && s.Spans[n-1].To == previous(facts, vf.version) && s.Spans[n-1].Notes[0].Text == p.reason {
				s.Spans[n-1].To, s.Spans[n-1].Source, s.Spans[n-1].Notes = vf.version, src, note
				continue
			}
			s.Spans = append(s.Spans, &upstream.Span{From: vf.version, To: vf.version, Kind: upstream.KindString, Online: p.online, Source: src, Notes: note})
		}
	}
	sort.Strings(order)
	out := make([]*upstream.Setting, 0, len(order))
	for _, p := range order {
		out = append(out, byPrefix[p])
	}
	return out
}

func previous(facts []versionFacts, v string) string {
	for i, vf := range facts {
		if vf.version == v && i > 0 {
			return facts[i-1].version
		}
	}
	return ""
}

// patchOf returns the patch number of a tag and whether it has one.
func patchOf(v string) (line [2]int, patch int, ok bool) {
	t, ok := parseTag(v)
	return [2]int{t[0], t[1]}, t[2], ok
}

func lineBranch(line [2]int) string {
	return "release-" + strconv.Itoa(line[0]) + "." + strconv.Itoa(line[1])
}

// zeroDefault is how a component's config JSON shows a field left at its
// type's zero value (Rust #[derive(Default)] or Default::default(); a Go
// field no Adjust method sets): TiKV sizes "0KiB" and lists "[]", PD sizes
// "0B"; false when it depends on the type (enums, PD lists and maps).
func zeroDefault(component, kind string) (string, bool) {
	switch kind {
	case upstream.KindBool:
		return "false", true
	case upstream.KindInt, upstream.KindFloat:
		return "0", true
	case upstream.KindString:
		return "", true
	case upstream.KindDuration:
		return "0s", true
	case upstream.KindSize:
		if component == upstream.PD {
			return "0B", true
		}
		return "0KiB", true
	case upstream.KindList:
		if component == upstream.TiKV {
			return "[]", true
		}
	}
	return "", false
}

package main

import (
	"strconv"
	"strings"

	"github.com/tiform/tiform/internal/upstream"
	"github.com/tiform/tiform/version"
)

// What PD prints beats what its structs say. internal/upstream/pd_surface.json
// (tools/pdsurface) holds what GET /pd/api/v1/config returned when PD's own
// config code ran at some tags; applyPDSurface corrects the walk of every
// version with the run that stands for it (Surface.RunFor: the newest run
// of its line at or below it, else the nearest):
//
//   - where the walk read a default differently from what the run printed
//     (an Adjust method the walk does not follow, a zero value Adjust
//     replaces), the printed one holds, with a note naming the run, in
//     every version whose walked default is the one the walk read at the
//     run (what changes where the walk sees no change is not guessed);
//   - a key the walk does not list (fields of types from outside the
//     repository, such as pingcap/log's log.file.*, and the TLS fields of
//     security.*) is added as PD prints it: restart-only, its kind from its
//     JSON type, its default the printed value.
//
// The member's own values (placeholders such as {{name}} in the run) are
// not defaults. schedule.max-merge-region-keys and cluster-version are left
// as the walk reads them: GetConfig fills them (from the merge size, from
// the persisted cluster version), which the catalog's overlay states.
func applyPDSurface(s *upstream.Surface, facts []versionFacts) {
	if s == nil {
		return
	}
	// the walked defaults before any correction, by version and key
	walked := map[string]map[string]*string{}
	for _, vf := range facts {
		m := map[string]*string{}
		for k, kf := range vf.keys {
			m[k] = kf.def
		}
		walked[vf.version] = m
	}
	for _, vf := range facts {
		v, ok := refVersion(vf.version)
		if !ok {
			v = version.MustParse("v99.0.0") // master: after every release
		}
		run := s.RunFor(v)
		atRun := walked[run]
		src := upstream.Source{Repo: "tikv/pd", Path: "server/api/config.go", Ref: run}
		for _, row := range s.Rows(run) {
			key := strings.ToLower(row.Key)
			if strings.Contains(row.Value, "{{") || key == "schedule.max-merge-region-keys" || key == "cluster-version" {
				continue
			}
			val := row.Value
			kf, known := vf.keys[key]
			if !known {
				if _, walkedAtRun := atRun[key]; walkedAtRun {
					continue // the walk lists it at the run, not here: not a key of this version
				}
				kf = &keyFacts{key: key, kind: jsonKind(row.JSON, val), path: src.Path,
					notes: []upstream.Note{{Text: "printed by GetConfig (PD's config code run by tools/pdsurface); not a field the walk lists", Source: src}}}
				if row.JSON != "null" {
					kf.def = &val
				}
				vf.keys[key] = kf
				continue
			}
			if row.JSON == "null" || kf.def != nil && sameValue(kf.kind, *kf.def, val) {
				continue
			}
			if w, ok := atRun[key]; !ok || !sameDefault(kf.kind, w, walked[vf.version][key]) {
				continue // the walk reads another default here than at the run
			}
			kf.def = &val
			kf.notes = append(kf.notes, upstream.Note{Text: "default as PD prints it (its config code run by tools/pdsurface)", Source: src})
		}
	}
}

func sameDefault(kind string, a, b *string) bool {
	if a == nil || b == nil {
		return a == b
	}
	return sameValue(kind, *a, *b)
}

// refVersion parses a tag (false for master).
func refVersion(ref string) (version.Version, bool) {
	if ref == "master" {
		return version.Version{}, false
	}
	v, err := version.Parse(ref)
	return v, err == nil
}

// jsonKind is the kind of a value by its JSON type.
func jsonKind(json, val string) string {
	switch json {
	case "bool":
		return upstream.KindBool
	case "number":
		if strings.ContainsAny(val, ".eE") {
			return upstream.KindFloat
		}
		return upstream.KindInt
	case "array":
		return upstream.KindList
	}
	return upstream.KindString
}

// sameValue compares a walked default with a printed value: numbers by
// value (the walk writes 1.52587890625e-05 where JSON prints 0.0000152587890625),
// anything else as text.
func sameValue(kind, a, b string) bool {
	if a == b {
		return true
	}
	if kind == upstream.KindInt || kind == upstream.KindFloat {
		x, err1 := strconv.ParseFloat(a, 64)
		y, err2 := strconv.ParseFloat(b, 64)
		return err1 == nil && err2 == nil && x == y
	}
	return false
}

package main

import (
	"testing"

	"github.com/tiform/tiform/internal/upstream"
)

// TestApplyPDSurface: the run that stands for a version corrects a
// default the walk read differently where the walk reads the same default
// as at the run, adds a key the walk does not list, and leaves the member's
// own values and defaults that mean the same alone.
func TestApplyPDSurface(t *testing.T) {
	s := &upstream.Surface{Format: upstream.SurfaceFormat, Component: upstream.PD,
		Refs: []upstream.Ref{{Name: "v8.5.1"}},
		Keys: upstream.SurfaceSpans([]upstream.SurfaceRun{{Version: "v8.5.1", Rows: []upstream.SurfaceRow{
			{Key: "controller.enable-controller-trace-log", Value: "false", JSON: "bool"},
			{Key: "controller.request-unit.read-cost-per-byte", Value: "0.0000152587890625", JSON: "number"},
			{Key: "log.file.max-size", Value: "0", JSON: "number"},
			{Key: "name", Value: "{{name}}", JSON: "string"},
			{Key: "schedule.max-merge-region-keys", Value: "540000", JSON: "number"},
			{Key: "lease", Value: "3", JSON: "number"},
		}}})}
	str := func(v string) *string { return &v }
	keys := func(lease string) map[string]*keyFacts {
		return map[string]*keyFacts{
			"controller.enable-controller-trace-log":     {key: "controller.enable-controller-trace-log", kind: upstream.KindBool, def: str("true")},
			"controller.request-unit.read-cost-per-byte": {key: "controller.request-unit.read-cost-per-byte", kind: upstream.KindFloat, def: str("1.52587890625e-05")},
			"name":                           {key: "name", kind: upstream.KindString},
			"schedule.max-merge-region-keys": {key: "schedule.max-merge-region-keys", kind: upstream.KindInt, def: str("0")},
			"lease":                          {key: "lease", kind: upstream.KindInt, def: str(lease)},
		}
	}
	facts := []versionFacts{{version: "v8.5.1", keys: keys("3")}, {version: "v8.5.2", keys: keys("5")}, {version: "master", keys: keys("5")}}
	applyPDSurface(s, facts)
	for _, vf := range facts {
		k := vf.keys
		if d := k["controller.enable-controller-trace-log"].def; d == nil || *d != "false" || len(k["controller.enable-controller-trace-log"].notes) != 1 {
			t.Errorf("%s enable-controller-trace-log: want the printed default false with a note, got %v", vf.version, d)
		}
		if d := *k["controller.request-unit.read-cost-per-byte"].def; d != "1.52587890625e-05" {
			t.Errorf("%s: a number that means the same must keep the walk's text, got %s", vf.version, d)
		}
		if kf := k["log.file.max-size"]; kf == nil || kf.kind != upstream.KindInt || *kf.def != "0" || kf.online {
			t.Errorf("%s log.file.max-size: want a restart-only int added with default 0, got %+v", vf.version, kf)
		}
		if k["name"].def != nil || *k["schedule.max-merge-region-keys"].def != "0" {
			t.Errorf("%s: the member's name and GetConfig's filled merge keys are not defaults", vf.version)
		}
	}
	// the walk reads lease 5 from v8.5.2, 3 at the run: not corrected there
	if *facts[0].keys["lease"].def != "3" || *facts[1].keys["lease"].def != "5" || *facts[2].keys["lease"].def != "5" {
		t.Errorf("a default the walk reads differently from the run's version is not the run's to correct")
	}
}

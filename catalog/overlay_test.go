package catalog

import (
	"strings"
	"testing"
)

// TestOverlayAgreesWithUpstream: every overlay entry names a key the
// generated table has, and says nothing against it (see contradictions).
func TestOverlayAgreesWithUpstream(t *testing.T) {
	for _, m := range overlayMissing {
		t.Errorf("overlay entry %s: not in the generated table (internal/upstream/settings.json)", m)
	}
	if len(overlays) < 150 {
		t.Fatalf("only %d overlay entries applied", len(overlays))
	}
	for _, r := range overlays {
		for _, c := range r.contradictions() {
			t.Errorf("overlay contradicts upstream: %s", c)
		}
		if len(r.o.sources) == 0 {
			t.Errorf("overlay entry %s %s cites no source", r.o.component, r.o.key)
		}
	}
}

// TestOverlayContradictionsAreCaught: the agreement check finds each kind
// of contradiction (a check that cannot fail proves nothing).
func TestOverlayContradictionsAreCaught(t *testing.T) {
	tests := []struct {
		name string
		o    overlayEntry
		want string
	}{
		{"kind", ov("tikv", "split.split-balance-score", srcs(docLoadBaseSplit), "x", refine(KindInt)), "kind int, upstream says float"},
		{"default where upstream states one", ov("tikv", "split.split-balance-score", srcs(docLoadBaseSplit), "x", def("", "0.8")), `default "0.8"`},
		{"enum values", ov("tikv", "resource-control.priority-ctl-strategy", srcs(docResourceCtl), "x", enum("a", "b")), "values [a b]"},
		{"range", ov("tidb", "tidb_session_plan_cache_size", srcs(docPlanCache), "x", rng(5, 6)), "range in [5, 6]"},
		{"scope", ov("tidb", "tidb_gc_life_time", srcs(docSysVars), "x", func(e *Entry) { e.Scope = ScopeInstance }), "only upstream states"},
	}
	for _, tt := range tests {
		e, ok := overlayTarget(tt.o)
		if !ok {
			t.Fatalf("%s: %s not found", tt.name, tt.o.key)
		}
		cp := *e
		r := applyOverlay(&cp, tt.o)
		got := strings.Join(r.contradictions(), "\n")
		if !strings.Contains(got, tt.want) {
			t.Errorf("%s: contradictions = %q, want one containing %q", tt.name, got, tt.want)
		}
	}
}

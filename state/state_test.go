package state

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestIncompleteIsDerivedFromGaps: every reason comes from a gap, in order,
// and the same sentence is recorded once.
func TestIncompleteIsDerivedFromGaps(t *testing.T) {
	var l Live
	if l.Incomplete() != nil {
		t.Fatalf("a complete read lists %q", l.Incomplete())
	}
	down := Gap{Kind: GapInstance, Component: TiKV, Instance: "10.0.1.19:20160", Reason: "tikv 10.0.1.19:20160 returned no config rows"}
	hidden := Gap{Kind: GapRead, Key: "RESOURCE_GROUPS", Reason: "resource groups could not be read"}
	if !l.AddGap(down) || !l.AddGap(hidden) {
		t.Fatal("a new gap was not added")
	}
	if l.AddGap(Gap{Kind: GapRead, Reason: down.Reason}) {
		t.Error("the same reason was added twice")
	}
	if diff := cmp.Diff([]Gap{down, hidden}, l.Gaps); diff != "" {
		t.Errorf("gaps (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{down.Reason, hidden.Reason}, l.Incomplete()); diff != "" {
		t.Errorf("Incomplete (-want +got):\n%s", diff)
	}
}

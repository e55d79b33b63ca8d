package cmd

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/tiform/tiform/internal/files"
	"github.com/tiform/tiform/planner"
	"github.com/tiform/tiform/state"
)

// TestWrittenFilesArePrivateAndWhole: the plan file and the snapshot go
// through files.Write: mode 0600, the old file replaced whole, no temporary
// file left next to it.
func TestWrittenFilesArePrivateAndWhole(t *testing.T) {
	dir := t.TempDir()
	planPath, snapPath := filepath.Join(dir, "plan.tfplan"), filepath.Join(dir, "snap.json")
	for _, p := range []string{planPath, snapPath} {
		if err := os.WriteFile(p, []byte("an older, longer file that must not survive in part"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	p := &planner.Plan{ConfigHash: "sha256:x", CreatedAt: time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC),
		Clusters: []*planner.ClusterPlan{{Name: "prod"}}}
	if err := writePlanFile(nil, planPath, p); err != nil {
		t.Fatal(err)
	}
	if back, err := readPlanFile(planPath); err != nil || back.ConfigHash != "sha256:x" {
		t.Fatalf("plan file read back: %v, %+v", err, back)
	}
	l := &state.Live{ReadAt: time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC)}
	if err := writeSnapshotFile(&Env{}, snapPath, l, "prod"); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{planPath, snapPath} {
		st, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		if st.Mode().Perm() != files.Private {
			t.Errorf("%s: mode %v, want %v", filepath.Base(path), st.Mode().Perm(), files.Private)
		}
	}
	es, _ := os.ReadDir(dir)
	if len(es) != 2 {
		t.Errorf("a temporary file was left: %d entries", len(es))
	}
}

package applier

import (
	"bytes"
	"fmt"

	"github.com/tiform/tiform/internal/files"
	"github.com/tiform/tiform/planner"
	secrets "github.com/tiform/tiform/secret"
)

// writePlanFile writes a rollback plan with planner.WritePlanFile, atomically
// and private (files.Private: plans hold no secret, but they describe
// production), so a crash never leaves half a plan.
// A plan holding one of secrets (the DSN's password, read back from the
// cluster) is not written.
func writePlanFile(path string, p *planner.Plan, inUse []string) error {
	var b bytes.Buffer
	if err := planner.WritePlanFile(&b, p); err != nil {
		return fmt.Errorf("applier: write rollback plan: %w", err)
	}
	var set secrets.Set
	set.Add(inUse...)
	if err := set.Refuse(b.Bytes()); err != nil {
		return fmt.Errorf("applier: write rollback plan: %w", err)
	}
	if err := files.WriteBytes(path, b.Bytes(), files.Private); err != nil {
		return fmt.Errorf("applier: write rollback plan: %w", err)
	}
	return nil
}

// readPlanFile reads what writePlanFile wrote (tests).
func readPlanFile(path string, b []byte) (*planner.Plan, error) {
	p, err := planner.ReadPlanFile(bytes.NewReader(b))
	if err != nil {
		return nil, fmt.Errorf("applier: read plan %s: %w", path, err)
	}
	return p, nil
}

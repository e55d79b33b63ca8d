package applier

import (
	"bytes"
	"fmt"
	"os"

	"github.com/tiform/tiform/planner"
)

// writePlanFile writes a rollback plan with planner.WritePlanFile (mode 0600:
// plans hold no secret, but they describe production), via a temporary file
// renamed into place so a crash never leaves half a plan.
func writePlanFile(path string, p *planner.Plan) error {
	var b bytes.Buffer
	if err := planner.WritePlanFile(&b, p); err != nil {
		return fmt.Errorf("applier: write rollback plan: %w", err)
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, b.Bytes(), 0o600); err != nil {
		return fmt.Errorf("applier: write rollback plan: %w", err)
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
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

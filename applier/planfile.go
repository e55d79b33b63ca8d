package applier

import (
	"bytes"
	"fmt"
	"io"

	"github.com/tiform/tiform/internal/files"
	"github.com/tiform/tiform/planner"
)

// writePlanFile writes a rollback plan with planner.WritePlanFile, atomically
// and private (files.Private: plans hold no secret, but they describe
// production), so a crash never leaves half a plan.
func writePlanFile(path string, p *planner.Plan) error {
	err := files.Write(path, files.Private, func(w io.Writer) error { return planner.WritePlanFile(w, p) })
	if err != nil {
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

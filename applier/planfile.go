package applier

import (
	"encoding/json"
	"fmt"
	"os"

	"github.com/tiform/tiform/planner"
)

// writePlanFile writes a rollback plan. It is planner.WritePlanFile once that
// is committed; until then the plan is written as indented JSON (0600).
var writePlanFile = func(path string, p *planner.Plan) error {
	b, err := json.MarshalIndent(p, "", "  ")
	if err != nil {
		return fmt.Errorf("applier: write rollback plan: %w", err)
	}
	if err := os.WriteFile(path, append(b, '\n'), 0o600); err != nil {
		return fmt.Errorf("applier: write rollback plan: %w", err)
	}
	return nil
}

// readPlanFile reads what writePlanFile wrote (tests).
var readPlanFile = func(path string, b []byte) (*planner.Plan, error) {
	var p planner.Plan
	if err := json.Unmarshal(b, &p); err != nil {
		return nil, fmt.Errorf("applier: read plan %s: %w", path, err)
	}
	return &p, nil
}

package guard

import (
	"time"

	"github.com/tiform/tiform/state"
)

// Input is what rules see. The planner builds it; rules never import planner.
type Input struct {
	Desired *state.DesiredCluster
	Live    *state.Live
	Changes []ChangeView
	// Now decides whether acknowledgements have expired (no clock in rules).
	Now time.Time
}

// ChangeView is the planner's change as rules see it.
type ChangeView struct {
	Address   string
	Kind      string // "config", "variable", "resource_group", "user"
	Action    string // "create", "update", "delete", "drift"
	Component state.Component
	Key       string
	Instance  string
	// Before holds the live values (one per instance where known).
	Before []string
	After  string
	Range  state.SourceRange
}

package plans

import (
	"time"

	"github.com/tiform/tiform/diag"
	"github.com/tiform/tiform/state"
)

// Ignored is a difference an ignore block accepted (accepted, known drift):
// it is neither planned nor applied, and every view lists it with the block
// that accepted it, so that it is never silent.
type Ignored struct {
	// Change is what the plan would otherwise do; its statements never run.
	Change *Change
	// Pattern, Reason and Until are the ignore block's; Range is the block.
	Pattern state.AddressPattern
	Reason  string
	Until   time.Time
	Range   diag.SourceRange
}

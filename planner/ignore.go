package planner

import (
	"time"

	"github.com/tiform/tiform/guard"
	"github.com/tiform/tiform/plans"
	"github.com/tiform/tiform/state"
)

// ignoreChanges moves out of changes those an ignore block in force at now
// matches (the first matching block, in pattern order), and returns what is
// left and what was ignored. An expired block matches nothing: its
// differences are planned again (guard TF194 says so).
func ignoreChanges(changes []*plans.Change, ignores []state.Ignore, now time.Time) (kept []*plans.Change, ignored []plans.Ignored) {
	if len(ignores) == 0 {
		return changes, nil
	}
	for _, c := range changes {
		if ig, ok := matchIgnore(c.Addr.String(), ignores, now); ok {
			ignored = append(ignored, plans.Ignored{Change: c, Pattern: ig.Pattern, Reason: ig.Reason, Until: ig.Until, Range: ig.Range})
			continue
		}
		kept = append(kept, c)
	}
	return kept, ignored
}

func matchIgnore(address string, ignores []state.Ignore, now time.Time) (state.Ignore, bool) {
	for _, ig := range ignores {
		if guard.InForce(ig.Until, now) && ig.Pattern.Match(address) {
			return ig, true
		}
	}
	return state.Ignore{}, false
}

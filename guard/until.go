package guard

import (
	"fmt"
	"time"
)

// MaxUntil is how far in the future a silencing block's `until` may be
// before it counts as no expiry at all: `until = "9999-12-31"` is for ever
// written as a date, and gets the warning a block without a date gets
// (TF193, TF195). A year covers any planned fix; a longer exception is
// re-confirmed yearly.
const MaxUntil = 366 * 24 * time.Hour

// untilTooFar reports whether until (a silencing block's last day; zero: no
// date) is further than MaxUntil after now.
func untilTooFar(until, now time.Time) bool {
	return !until.IsZero() && until.Sub(now) > MaxUntil
}

// untilText says why a block counts as without expiry: it has no date, or
// the date is too far away.
func untilText(until time.Time) string {
	if until.IsZero() {
		return "has no expiry date"
	}
	return fmt.Sprintf("holds until %s, more than a year away: as good as no expiry date", until.Format(dateLayout))
}

package planner

import (
	"fmt"
	"time"
)

// Saved plans expire. A plan is made against the cluster as it was, and
// reviewed as it was then; a plan file that is applied much later — an
// artifact kept by a CI system, a copy on a laptop — is a replay of a
// decision nobody re-examined. So a saved plan carries its creation time
// (Plan.CreatedAt, under the integrity hash) and is refused once it is
// older than a maximum age. This file is the one place that decides it.

// DefaultMaxAge is how old a saved plan may be when it is applied unless
// the operator says otherwise (--plan-max-age, TIFORM_PLAN_MAX_AGE): a
// working day. A pull request reviewed for longer is planned again at merge
// (docs/workflows.md).
const DefaultMaxAge = 12 * time.Hour

// maxClockSkew is how far in the future a plan's creation time may be
// before it is refused: the clocks of the machine that planned and the one
// that applies may disagree a little.
const maxClockSkew = 5 * time.Minute

// ExpiredError says why a saved plan may no longer be applied.
type ExpiredError struct {
	CreatedAt time.Time // zero: the plan says nothing
	Age       time.Duration
	MaxAge    time.Duration
}

func (e *ExpiredError) Error() string {
	switch {
	case e.CreatedAt.IsZero():
		return "the plan file does not say when it was made, so its age cannot be checked; run tiform plan again and review the new plan"
	case e.Age < 0:
		return fmt.Sprintf("the plan says it was made at %s, %s in the future of this machine's clock: check the clocks, or plan again",
			e.CreatedAt.UTC().Format(time.RFC3339), (-e.Age).Round(time.Second))
	}
	return fmt.Sprintf("the plan was made at %s, %s ago, and a saved plan may be applied for %s (--plan-max-age): "+
		"an old plan is not applied, because nobody reviewed it against the cluster as it is now. Run tiform plan "+
		"again and review the new plan, or raise --plan-max-age if this plan is meant to wait",
		e.CreatedAt.UTC().Format(time.RFC3339), e.Age.Round(time.Minute), e.MaxAge)
}

// CheckAge returns an *ExpiredError when p, a saved plan, may not be
// applied at now: it has no creation time, it was made more than maxAge
// ago, or its creation time is more than a few minutes in the future.
// maxAge 0 means DefaultMaxAge; a negative maxAge never expires (a creation
// time is still required).
func CheckAge(p *Plan, now time.Time, maxAge time.Duration) error {
	if maxAge == 0 {
		maxAge = DefaultMaxAge
	}
	if p.CreatedAt.IsZero() {
		return &ExpiredError{MaxAge: maxAge}
	}
	age := now.Sub(p.CreatedAt)
	switch {
	case age < -maxClockSkew:
		return &ExpiredError{CreatedAt: p.CreatedAt, Age: age, MaxAge: maxAge}
	case maxAge > 0 && age > maxAge:
		return &ExpiredError{CreatedAt: p.CreatedAt, Age: age, MaxAge: maxAge}
	}
	return nil
}

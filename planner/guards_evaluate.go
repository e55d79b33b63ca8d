package planner

import "github.com/tiform/tiform/guard"

func init() { evaluateGuards = guard.Evaluate }

package planner

import (
	"fmt"

	"github.com/tiform/tiform/plans"
	"github.com/tiform/tiform/state"
)

// The spec of a change in a plan file: what apply re-derives the statements
// from (derive.go). Typed fields only, no SQL.

type fileSpecDTO struct {
	Set     []fileAssignDTO `json:"set,omitempty"`
	Unset   []fileAssignDTO `json:"unset,omitempty"`
	Group   *fileGroupDTO   `json:"group,omitempty"`
	Live    *fileGroupDTO   `json:"live,omitempty"`
	Version string          `json:"version,omitempty"`
	// BurstSyntax is plans.Spec.BurstSyntax; absent in files written
	// before it was recorded (the version decides then).
	BurstSyntax string `json:"burst_syntax,omitempty"`
	Inverse     bool   `json:"inverse,omitempty"`
}

type fileAssignDTO struct {
	Target   string `json:"target,omitempty"`
	Value    string `json:"value"`
	Type     string `json:"type,omitempty"`
	Rendered string `json:"rendered,omitempty"`
	Restore  bool   `json:"restore,omitempty"`
}

type fileGroupDTO struct {
	Name          string             `json:"name"`
	RUPerSec      *int64             `json:"ru_per_sec,omitempty"`
	Priority      *string            `json:"priority,omitempty"`
	Burstable     *string            `json:"burstable,omitempty"`
	BurstableBool *bool              `json:"burstable_bool,omitempty"`
	QueryLimit    *fileQueryLimitDTO `json:"query_limit,omitempty"`
	Background    *fileBackgroundDTO `json:"background,omitempty"`
}

type fileQueryLimitDTO struct {
	Empty         bool   `json:"empty,omitempty"`
	ExecElapsed   string `json:"exec_elapsed,omitempty"`
	ProcessedKeys *int64 `json:"processed_keys,omitempty"`
	RU            *int64 `json:"ru,omitempty"`
	Action        string `json:"action,omitempty"`
	SwitchGroup   string `json:"switch_group,omitempty"`
	Watch         string `json:"watch,omitempty"`
	WatchDuration string `json:"watch_duration,omitempty"`
}

type fileBackgroundDTO struct {
	Empty            bool     `json:"empty,omitempty"`
	TaskTypes        []string `json:"task_types,omitempty"`
	UtilizationLimit *int64   `json:"utilization_limit,omitempty"`
}

// literalTypes names state.LiteralType in files.
// A string is the default and is written as no type.
var literalTypes = map[state.LiteralType]string{state.LiteralNumber: "number", state.LiteralBool: "bool"}

func specToFile(s plans.Spec) *fileSpecDTO {
	if len(s.Set) == 0 && len(s.Unset) == 0 && s.Group == nil && s.Live == nil && s.Version == "" && s.BurstSyntax == "" && !s.Inverse {
		return nil
	}
	d := &fileSpecDTO{Group: groupToFile(s.Group), Live: groupToFile(s.Live), Version: s.Version, BurstSyntax: string(s.BurstSyntax), Inverse: s.Inverse}
	for _, a := range s.Set {
		d.Set = append(d.Set, assignToFile(a))
	}
	for _, a := range s.Unset {
		d.Unset = append(d.Unset, assignToFile(a))
	}
	return d
}

func assignToFile(a plans.Assignment) fileAssignDTO {
	return fileAssignDTO{Target: a.Target, Value: a.Value.Text, Type: literalTypes[a.Value.Type], Rendered: a.Rendered, Restore: a.Restore}
}

func specFromFile(d *fileSpecDTO) (plans.Spec, error) {
	if d == nil {
		return plans.Spec{}, nil
	}
	s := plans.Spec{Group: groupFromFile(d.Group), Live: groupFromFile(d.Live), Version: d.Version, BurstSyntax: state.BurstSyntax(d.BurstSyntax), Inverse: d.Inverse}
	switch s.BurstSyntax {
	case state.BurstSyntaxUnknown, state.BurstSyntaxBool, state.BurstSyntaxModes:
	default:
		return s, fmt.Errorf("unknown burst_syntax %q", d.BurstSyntax)
	}
	for _, list := range []struct {
		from []fileAssignDTO
		to   *[]plans.Assignment
	}{{d.Set, &s.Set}, {d.Unset, &s.Unset}} {
		for _, a := range list.from {
			t, ok := parseLiteralType(a.Type)
			if !ok {
				return s, fmt.Errorf("unknown value type %q", a.Type)
			}
			*list.to = append(*list.to, plans.Assignment{Target: a.Target, Value: state.Value{Text: a.Value, Type: t}, Rendered: a.Rendered, Restore: a.Restore})
		}
	}
	return s, nil
}

func parseLiteralType(s string) (state.LiteralType, bool) {
	if s == "" {
		return state.LiteralString, true
	}
	for t, name := range literalTypes {
		if name == s {
			return t, true
		}
	}
	return 0, false
}

func groupToFile(g *state.ResourceGroup) *fileGroupDTO {
	if g == nil {
		return nil
	}
	d := &fileGroupDTO{Name: g.Name, RUPerSec: g.RUPerSec, Priority: g.Priority, Burstable: g.Burstable, BurstableBool: g.BurstableBool}
	if q := g.QueryLimit; q != nil {
		d.QueryLimit = &fileQueryLimitDTO{Empty: q.Empty, ExecElapsed: q.ExecElapsed, ProcessedKeys: q.ProcessedKeys, RU: q.RU,
			Action: q.Action, SwitchGroup: q.SwitchGroup, Watch: q.Watch, WatchDuration: q.WatchDuration}
	}
	if b := g.Background; b != nil {
		d.Background = &fileBackgroundDTO{Empty: b.Empty, TaskTypes: b.TaskTypes, UtilizationLimit: b.UtilizationLimit}
	}
	return d
}

func groupFromFile(d *fileGroupDTO) *state.ResourceGroup {
	if d == nil {
		return nil
	}
	g := &state.ResourceGroup{Name: d.Name, RUPerSec: d.RUPerSec, Priority: d.Priority, Burstable: d.Burstable, BurstableBool: d.BurstableBool}
	if q := d.QueryLimit; q != nil {
		g.QueryLimit = &state.QueryLimit{Empty: q.Empty, ExecElapsed: q.ExecElapsed, ProcessedKeys: q.ProcessedKeys, RU: q.RU,
			Action: q.Action, SwitchGroup: q.SwitchGroup, Watch: q.Watch, WatchDuration: q.WatchDuration}
	}
	if b := d.Background; b != nil {
		g.Background = &state.Background{Empty: b.Empty, TaskTypes: b.TaskTypes, UtilizationLimit: b.UtilizationLimit}
	}
	return g
}

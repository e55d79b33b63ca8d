package catalog

import (
	"github.com/tiform/tiform/internal/upstream"
	"github.com/tiform/tiform/version"
)

// Machine is an instance's host as far as computed defaults go: its CPU
// quota and memory limit (what TiKV reports in CLUSTER_HARDWARE as
// cpu-logical-cores and memory capacity).
type Machine struct {
	CPU    float64
	Memory uint64
}

// Computed is a default the component computes at start from its machine.
type Computed struct {
	// Value is the default on the machine, as the component prints it; ""
	// when it cannot be computed (Unknown says why).
	Value   string
	Unknown string
	// Formula says how, Source where upstream does it.
	Formula, Source string
}

// ComputedDefault reports whether e's default in version v is computed by
// the component from its machine (TiKV's block cache from memory, pool
// sizes and background jobs from CPUs: internal/upstream machine.go, each
// rule citing its source), and what it is on m; live returns the
// instance's value of another key (the memory usage limit follows the block
// cache as set). Where it is computed, DefaultRecordIn has no default for
// the version: the generated table's literal, if any, is a placeholder a
// later step replaces.
func (e *Entry) ComputedDefault(v version.Version, m Machine, live func(key string) (string, bool)) (Computed, bool) {
	r := e.machineRule(v)
	if r == nil {
		return Computed{}, false
	}
	val, why := r.Compute(upstream.Machine{CPU: m.CPU, Memory: m.Memory}, live)
	return Computed{Value: val, Unknown: why, Formula: r.Formula, Source: r.Source}, true
}

// ComputedIn reports whether e's default in v is computed from the
// machine, with the formula.
func (e *Entry) ComputedIn(v version.Version) (formula string, ok bool) {
	if r := e.machineRule(v); r != nil {
		return r.Formula, true
	}
	return "", false
}

func (e *Entry) machineRule(v version.Version) *upstream.MachineRule {
	if e.up == nil || e.Target != TargetConfig {
		return nil
	}
	if v.IsZero() {
		v = mustVersion(table.Versions[e.up.Component][len(table.Versions[e.up.Component])-2])
	}
	return table.MachineRuleFor(e.up.Component, e.up.Key, v)
}

package planner

import (
	"sort"
	"strings"
	"time"

	"github.com/tiform/tiform/catalog"
	"github.com/tiform/tiform/diag"
	"github.com/tiform/tiform/plans"
	"github.com/tiform/tiform/state"
)

// Unmanaged drift (docs/decisions/0022-unmanaged-drift.md): the settings a
// configuration does not declare whose live value is not the default of the
// version the cluster runs — a hand-made SET CONFIG or SET GLOBAL no review
// saw. Whether a value is the default is the catalog's one decision
// (catalog.Entry.Judge), the one tiform import writes by; which settings
// count is catalog.Entry.Declarable, the one import declares by. So a
// cluster tiform import adopted shows no unmanaged drift, and a value import
// leaves out as at its default is never reported.

// UnmanagedReport is a cluster's unmanaged drift. Nil on a ClusterPlan when
// it was not asked for (ReportsUnmanaged).
type UnmanagedReport struct {
	// Settings are the undeclared settings whose live value is tuned,
	// sorted by address.
	Settings []UnmanagedSetting
	// Ignored are those an ignore block in force accepted: listed, never
	// reported as drift.
	Ignored []IgnoredSetting
	// Undecided counts the undeclared settings whose default the catalog
	// does not know for the version (or that the component computes from a
	// host that was not read): they cannot be told from tuned ones, so they
	// are counted, never reported.
	Undecided int
}

// UnmanagedSetting is one undeclared, tuned setting.
type UnmanagedSetting struct {
	// Addr is the setting for every instance of its component (config) or
	// the variable.
	Addr state.Address
	// Live are the instances whose value is not the default, with it (one
	// value without an instance for a variable).
	Live []plans.InstanceValue
	// Default is the version's default as the component renders it, "" for
	// a default computed per host (Computed says how), and Note the
	// catalog's note on it.
	Default, Note string
	Computed      bool
}

// IgnoredSetting is an unmanaged setting an ignore block accepted.
type IgnoredSetting struct {
	Setting UnmanagedSetting
	Pattern state.AddressPattern
	Reason  string
	Until   time.Time
	Range   diag.SourceRange
}

// ReportsUnmanaged says whether dc's plan reports unmanaged drift: with
// Options.Unmanaged (plan --drift --unmanaged), or for a drift report when
// the configuration asks for it (unmanaged_settings = "report"). The reader
// asks the same question to read the cluster's whole surface
// (live.SurfaceRequest) only then.
func ReportsUnmanaged(dc *state.DesiredCluster, o Options) bool {
	return o.Unmanaged || o.Drift && dc.ReportUnmanaged
}

// unmanaged is dc's unmanaged drift over l, read whole.
func unmanaged(dc *state.DesiredCluster, l *state.Live, now time.Time) *UnmanagedReport {
	r := &UnmanagedReport{Settings: []UnmanagedSetting{}}
	var found []UnmanagedSetting
	found = append(found, unmanagedConfig(dc, l, r)...)
	found = append(found, unmanagedVariables(dc, l, r)...)
	sort.Slice(found, func(i, j int) bool { return found[i].Addr.String() < found[j].Addr.String() })
	for _, s := range found {
		if ig, ok := matchIgnore(s.Addr.String(), dc.Ignores, now); ok {
			r.Ignored = append(r.Ignored, IgnoredSetting{Setting: s, Pattern: ig.Pattern, Reason: ig.Reason, Until: ig.Until, Range: ig.Range})
			continue
		}
		r.Settings = append(r.Settings, s)
	}
	return r
}

// unmanagedConfig finds the config keys no declaration names (type-wide or
// for any instance) whose value on some instance is tuned.
func unmanagedConfig(dc *state.DesiredCluster, l *state.Live, r *UnmanagedReport) []UnmanagedSetting {
	declared := map[configKey]bool{}
	for _, s := range dc.Config {
		declared[configKey{s.Component, strings.ToLower(s.Key)}] = true
	}
	var out []UnmanagedSetting
	for _, comp := range state.Components {
		keys, by := l.ConfigByKey(comp)
		v, _ := l.MinVersion(comp)
		for _, key := range keys {
			if declared[configKey{comp, key}] || !state.ValidConfigKey(key) {
				continue
			}
			e, known := catalog.Config(string(comp), key)
			if !known || e.Declarable(v) != catalog.Declarable || catalog.SettingFor(catalog.TargetConfig, string(comp), key).Secret() != "" {
				continue
			}
			s := UnmanagedSetting{Addr: state.ConfigAddress(comp, "", key)}
			undecided := false
			insts := make([]string, 0, len(by[key]))
			for inst := range by[key] {
				insts = append(insts, inst)
			}
			sort.Strings(insts)
			for _, inst := range insts {
				text := by[key][inst]
				j := e.Judge(v, text, InstanceHost(l, inst, by))
				switch j.Standing {
				case catalog.Tuned:
					s.Live = append(s.Live, plans.InstanceValue{Instance: inst, Value: text})
					s.Default, s.Note, s.Computed = j.Default, j.Note, j.Computed != nil
				case catalog.NoDefault, catalog.ComputedUnknown:
					undecided = true
				}
			}
			switch {
			case len(s.Live) > 0:
				if s.Computed {
					s.Default = ""
				}
				out = append(out, s)
			case undecided:
				r.Undecided++
			}
		}
	}
	return out
}

// InstanceHost is what an instance's values are judged on (catalog.Entry.
// Judge): the host CLUSTER_HARDWARE reported for it (zero when not read),
// what it shows for another key of its component (by, from
// state.Live.ConfigByKey: a computed default may follow it), and the TiDB
// store. Import and unmanaged drift judge an instance's value on it.
func InstanceHost(l *state.Live, inst string, by map[string]map[string]string) catalog.Host {
	inst = strings.ToLower(inst)
	m := l.Machines[inst]
	return catalog.Host{Machine: catalog.Machine{CPU: m.CPU, Memory: m.Memory}, Store: l.Store(),
		Lookup: func(k string) (string, bool) { x, ok := by[strings.ToLower(k)][inst]; return x, ok }}
}

// unmanagedVariables finds the GLOBAL variables the configuration does not
// declare whose value is tuned. INSTANCE-scoped ones are left out: the value
// read is the connected TiDB's only, and the language declares them only
// with instance_variables = "allow".
func unmanagedVariables(dc *state.DesiredCluster, l *state.Live, r *UnmanagedReport) []UnmanagedSetting {
	declared := map[string]bool{}
	for _, s := range dc.Variables {
		declared[strings.ToLower(s.Name)] = true
	}
	for _, n := range l.InstanceVariables {
		declared[strings.ToLower(n)] = true
	}
	v := l.ServerVersionParsed // as import judges them
	store := l.Store()
	var out []UnmanagedSetting
	for name, text := range l.Variables {
		name = strings.ToLower(name)
		if declared[name] {
			continue
		}
		e, known := catalog.Variable(name)
		if !known || e.Declarable(v) != catalog.Declarable || catalog.SettingFor(catalog.TargetVariable, string(state.TiDB), name).Secret() != "" {
			continue
		}
		j := e.Judge(v, text, catalog.Host{Store: store})
		switch j.Standing {
		case catalog.Tuned:
			out = append(out, UnmanagedSetting{Addr: state.VariableAddress(name), Live: []plans.InstanceValue{{Value: text}},
				Default: j.Default, Note: j.Note})
		case catalog.NoDefault, catalog.ComputedUnknown:
			r.Undecided++
		}
	}
	return out
}

// HasUnmanagedDrift reports whether any cluster of p has an unmanaged
// setting not ignored: a drift report with --detailed-exitcode exits 2 on
// it, as on a difference (a drift cron fails on a hand-made change to an
// undeclared setting).
func (p *Plan) HasUnmanagedDrift() bool {
	for _, cp := range p.Clusters {
		if u := cp.UnmanagedSettings; u != nil && len(u.Settings) > 0 {
			return true
		}
	}
	return false
}

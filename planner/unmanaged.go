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
	// rows[component][instance][key] = value, as printed
	rows := map[state.Component]map[string]map[string]string{}
	for _, row := range l.Config {
		byInst := rows[row.Component]
		if byInst == nil {
			byInst = map[string]map[string]string{}
			rows[row.Component] = byInst
		}
		inst := strings.ToLower(row.Instance)
		if byInst[inst] == nil {
			byInst[inst] = map[string]string{}
		}
		byInst[inst][strings.ToLower(row.Key)] = row.Value
	}
	store := l.Store()
	var out []UnmanagedSetting
	for _, comp := range state.Components {
		byInst := rows[comp]
		if len(byInst) == 0 {
			continue
		}
		v, _ := l.MinVersion(comp)
		keys := map[string]bool{}
		insts := make([]string, 0, len(byInst))
		for inst, kv := range byInst {
			insts = append(insts, inst)
			for k := range kv {
				keys[k] = true
			}
		}
		sort.Strings(insts)
		for key := range keys {
			if declared[configKey{comp, key}] || !state.ValidConfigKey(key) {
				continue
			}
			e, known := catalog.Config(string(comp), key)
			if !known || e.Declarable(v) != catalog.Declarable || catalog.SettingFor(catalog.TargetConfig, string(comp), key).Secret() != "" {
				continue
			}
			s := UnmanagedSetting{Addr: state.ConfigAddress(comp, "", key)}
			undecided := false
			for _, inst := range insts {
				text, ok := byInst[inst][key]
				if !ok {
					continue
				}
				kv := byInst[inst]
				m := l.Machines[inst]
				j := e.Judge(v, text, catalog.Host{Machine: catalog.Machine{CPU: m.CPU, Memory: m.Memory}, Store: store,
					Lookup: func(k string) (string, bool) { x, ok := kv[strings.ToLower(k)]; return x, ok }})
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

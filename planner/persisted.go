package planner

import (
	"fmt"
	"strings"

	"github.com/tiform/tiform/catalog"
	"github.com/tiform/tiform/diag"
	"github.com/tiform/tiform/plans"
	"github.com/tiform/tiform/state"
	"github.com/tiform/tiform/tiup"
)

// LayerStatus is how a setting's three layers — desired (the
// configuration), running (the cluster) and persisted (the TiUP topology or
// the Operator resources the next start reads) — stand to each other.
type LayerStatus string

const (
	// LayerInStep: the persisted layer holds what runs (and what is
	// planned).
	LayerInStep LayerStatus = "in_step"
	// LayerReverted: what runs differs from what the persisted layer holds:
	// the next reload, restart or rolling update reverts it.
	LayerReverted LayerStatus = "reverted"
	// LayerNotPersisted: a planned change whose value the persisted layer
	// does not hold (it will be reverted at the next start), or an
	// INSTANCE-scope variable, which lives only in the TiDB process.
	LayerNotPersisted LayerStatus = "not_persisted"
	// LayerPDEtcd: a PD item PD keeps in etcd, which wins over its config
	// file after bootstrap (catalog.PDKeepsInEtcd, pingcap/tiup#442): the
	// file's value is not applied at a restart.
	LayerPDEtcd LayerStatus = "pd_etcd"
)

// Layers is the persisted-layer report of one cluster plan.
type Layers struct {
	// Tool and Files name the persisted layer (state.Persisted); Tool is
	// "" when the configuration names none (only INSTANCE variables are
	// then reported).
	Tool  state.PersistTool
	Files []string
	// Cluster is the TiUP cluster name ("" when not declared).
	Cluster  string
	Settings []LayerSetting
}

// Flagged counts the settings that are neither in step nor kept by PD.
func (l *Layers) Flagged() int {
	n := 0
	for _, s := range l.Settings {
		if s.Status == LayerReverted || s.Status == LayerNotPersisted {
			n++
		}
	}
	return n
}

// Reverted reports whether a running value will be reverted at the next
// start.
func (l *Layers) Reverted() bool {
	for _, s := range l.Settings {
		if s.Status == LayerReverted {
			return true
		}
	}
	return false
}

// LayerSetting is one declared setting's three layers.
type LayerSetting struct {
	Addr   state.Address
	Status LayerStatus
	// Desired is the declared value as the component renders it
	// (state.SensitiveText when sensitive).
	Desired string
	// Running is the cluster's value per instance (one entry when all
	// agree, Instance "" then).
	Running []plans.InstanceValue
	// Persisted is what each place of the layer holds (Present false: the
	// place lacks the key, the built-in default applies at the next start).
	Persisted []LayerValue
	// Planned is set when the plan changes the setting online.
	Planned bool
	// Reason says why the status, in one sentence; Fix what brings the
	// layer in step and the rollout it causes ("" when in step).
	Reason, Fix string
	Sensitive   bool
	Range       diag.SourceRange
}

// LayerValue is what one place of the persisted layer holds.
type LayerValue struct {
	Where   string
	Value   string
	Present bool
}

// Reverted reports whether any cluster has a running value the next start
// reverts: `plan --drift --detailed-exitcode` exits 2 for it.
func (p *Plan) Reverted() bool {
	for _, c := range p.Clusters {
		if c.Layers != nil && c.Layers.Reverted() {
			return true
		}
	}
	return false
}

// layers computes the persisted-layer report: for each declared TiKV, PD
// and TiFlash setting of a component the persisted layer holds, its
// running value on every instance it covers against what the layer gives
// that instance at its next start; and each declared INSTANCE-scope
// variable, which no layer keeps. Pure: desired × live × persisted.
func (b *builder) layers() *Layers {
	p := b.dc.Persisted
	out := &Layers{Cluster: b.dc.TiUPCluster}
	if p != nil {
		out.Tool, out.Files = p.Tool, p.Files
	}
	planned := map[string]*plans.Change{}
	for _, c := range b.changes {
		if c.Action == plans.Update || c.Action == plans.Drift || c.Action == plans.Create {
			planned[c.Addr.String()] = c
		}
	}
	overridden := map[string]bool{}
	for _, s := range b.dc.Config {
		if s.Instance != "" {
			overridden[string(s.Component)+"\x00"+strings.ToLower(s.Key)+"\x00"+s.Instance] = true
		}
	}
	for _, s := range b.dc.Config {
		if !p.Holds(s.Component) {
			continue
		}
		var insts []string
		for _, in := range b.live.component(s.Component).instances {
			if s.Instance == "" && !overridden[string(s.Component)+"\x00"+strings.ToLower(s.Key)+"\x00"+in] || strings.EqualFold(s.Instance, in) {
				insts = append(insts, in)
			}
		}
		if len(insts) == 0 {
			continue
		}
		out.Settings = append(out.Settings, b.layerSetting(p, s, insts, planned))
	}
	for _, v := range b.dc.Variables {
		e, ok := catalog.Variable(v.Name)
		if !ok || e.ScopeIn(b.tidbVersion) != catalog.ScopeInstance {
			continue
		}
		addr := state.VariableAddress(strings.ToLower(v.Name))
		desired := catalog.SettingFor(catalog.TargetVariable, string(state.TiDB), v.Name).Render(v.Value.Text)
		if v.Value.Sensitive {
			desired = state.SensitiveText
		}
		ls := LayerSetting{Addr: addr, Status: LayerNotPersisted, Desired: desired, Sensitive: v.Value.Sensitive, Range: v.Range,
			Reason: "INSTANCE scope: the value lives only in the memory of the TiDB process it was set on; a restart takes it from that TiDB's config file (https://docs.pingcap.com/tidb/stable/system-variables, \"Persists to cluster: No\")",
			Fix:    "set it in the TiDB config file of every TiDB instance too (TiUP: server_configs.tidb; Operator: spec.tidb.config or the TiDBGroup's config)"}
		if c := planned[addr.String()]; c != nil {
			ls.Planned = true
			ls.Running = c.Before
		} else if cur, ok := b.l.Variables[strings.ToLower(v.Name)]; ok {
			ls.Running = []plans.InstanceValue{{Instance: b.l.ConnectedInstance, Value: cur}}
		}
		if v.Value.Sensitive {
			ls.Running = maskRunning(ls.Running)
		}
		out.Settings = append(out.Settings, ls)
	}
	if out.Tool == "" && len(out.Settings) == 0 {
		return nil
	}
	return out
}

// layerSetting compares one declared config setting's layers on insts.
func (b *builder) layerSetting(p *state.Persisted, s state.ConfigSetting, insts []string, planned map[string]*plans.Change) LayerSetting {
	set := catalog.SettingFor(catalog.TargetConfig, string(s.Component), s.Key)
	addr := state.ConfigAddress(s.Component, s.Instance, s.Key)
	ls := LayerSetting{Addr: addr, Status: LayerInStep, Desired: set.Render(s.Value.Text), Sensitive: s.Value.Sensitive, Range: s.Range}
	if s.Value.Sensitive {
		ls.Desired = state.SensitiveText
	}
	var change *plans.Change
	for _, c := range b.changes { // in plan order: the first change of the setting
		if planned[c.Addr.String()] == c && c.Addr.Kind == state.KindConfig && c.Addr.Component == s.Component && strings.EqualFold(c.Addr.Name(), s.Key) &&
			(strings.EqualFold(c.Addr.Instance, s.Instance) || s.Instance == "" && contains(insts, c.Addr.Instance)) {
			change = c
			break
		}
	}
	ls.Planned = change != nil
	// The default the next start gives an instance whose place lacks the key.
	def, hasDef := "", false
	if e, ok := catalog.Config(string(s.Component), s.Key); ok {
		v, _ := b.l.MinVersion(s.Component)
		def, hasDef = e.DefaultIn(v)
	}
	seen := map[string]bool{}
	revertedOn, unpersisted := 0, false
	var running []plans.InstanceValue
	for _, in := range insts {
		cur, printed := b.live.get(s.Component, in, s.Key)
		if printed {
			running = append(running, plans.InstanceValue{Instance: in, Value: cur})
		}
		for _, pv := range p.Lookup(s.Component, in, s.Key) {
			next, known := pv.Value, pv.Present
			if !pv.Present {
				next, known = def, hasDef
			}
			if !seen[pv.Place.Where] {
				seen[pv.Place.Where] = true
				ls.Persisted = append(ls.Persisted, LayerValue{Where: pv.Place.Where, Value: pv.Value, Present: pv.Present})
			}
			if printed && (!known || !set.Equal(next, cur)) {
				revertedOn++
			}
			if !known || !set.Equal(s.Value.Text, next) {
				unpersisted = true
			}
		}
	}
	ls.Running = collapse(running)
	if s.Value.Sensitive {
		ls.Running = maskRunning(ls.Running)
		for i := range ls.Persisted {
			if ls.Persisted[i].Present {
				ls.Persisted[i].Value = state.SensitiveText
			}
		}
	}
	restartOnly := change != nil && change.Persistence == plans.PersistDeployment
	switch {
	case s.Component == state.PD && catalog.PDKeepsInEtcd(s.Key):
		ls.Status = LayerPDEtcd
		ls.Reason = "PD keeps this item in etcd, which wins over its config file after bootstrap (pingcap/tiup#442): a restart does not revert an online change"
		if unpersisted {
			ls.Reason += "; the persisted layer says otherwise, which misleads its reader"
		}
	case ls.Planned && unpersisted:
		ls.Status = LayerNotPersisted
		ls.Reason = "declared online but not persisted: the persisted layer does not hold the declared value, so the next " + nextStart(p.Tool) + " reverts the change"
		if restartOnly {
			ls.Reason = "restart-only: it takes effect only when the persisted layer holds it and the component restarts"
		}
	case !ls.Planned && revertedOn > 0:
		ls.Status = LayerReverted
		ls.Reason = fmt.Sprintf("running differs from persisted: the next %s reverts it", nextStart(p.Tool))
		if len(insts) > 1 {
			ls.Reason += fmt.Sprintf(" (%d of %d instances)", revertedOn, len(insts))
		}
	}
	if ls.Status == LayerNotPersisted || ls.Status == LayerReverted {
		ls.Fix = fixText(p.Tool, b.dc.TiUPCluster, s.Component, restartOnly)
	}
	return ls
}

// nextStart names the event that rewrites the config files from the layer.
func nextStart(t state.PersistTool) string {
	if t == state.PersistOperator {
		return "rolling update (or pod restart)"
	}
	return "`tiup cluster reload` (or restart, or upgrade)"
}

// fixText is what brings the layer in step, and the rollout it causes.
func fixText(t state.PersistTool, cluster string, c state.Component, restart bool) string {
	if t == state.PersistOperator {
		return fmt.Sprintf("apply `tiform export operator`: the Operator then rolls every %s pod of the resource (rolling restart)", c)
	}
	cmd, effect := tiup.ReloadCommand(cluster, c, restart)
	return fmt.Sprintf("merge `tiform export tiup` into the topology, then `%s` (%s)", cmd, effect)
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if strings.EqualFold(x, s) {
			return true
		}
	}
	return false
}

// collapse is one value with Instance "" when every instance reports it.
func collapse(vs []plans.InstanceValue) []plans.InstanceValue {
	if len(vs) == 0 {
		return nil
	}
	for _, v := range vs[1:] {
		if v.Value != vs[0].Value {
			return vs
		}
	}
	return []plans.InstanceValue{{Value: vs[0].Value}}
}

func maskRunning(vs []plans.InstanceValue) []plans.InstanceValue {
	out := make([]plans.InstanceValue, len(vs))
	for i, v := range vs {
		out[i] = plans.InstanceValue{Instance: v.Instance, Value: state.SensitiveText}
	}
	return out
}

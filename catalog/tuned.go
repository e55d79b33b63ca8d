package catalog

import (
	"strings"

	"github.com/tiform/tiform/internal/upstream"
	"github.com/tiform/tiform/version"
)

// The one decision whether a value a cluster shows was tuned: import writes
// the tuned values into files (importer), and unmanaged drift reports the
// tuned values nobody declared (planner). Both ask Judge, so a value import
// leaves out as "at its default" is never reported as drift, and the reverse.

// Standing is what a value says about its setting.
type Standing int

const (
	// NoDefault: the catalog records no default for the version (nothing
	// can be said).
	NoDefault Standing = iota
	// AtDefault: the value is the version's default.
	AtDefault
	// Tuned: the value differs from the version's default.
	Tuned
	// ComputedUnknown: the component computes the default from its host,
	// and the host was not read (Judgement.ComputedUnknown says why).
	ComputedUnknown
)

// Host is what a default may depend on besides the version: the machine an
// instance runs on, the other values it shows, and the store its TiDB uses.
type Host struct {
	// Machine is the instance's host (CLUSTER_HARDWARE); zero when unread.
	Machine Machine
	// Lookup returns what the same instance shows for another key (a
	// computed default may follow it); nil for none.
	Lookup func(key string) (string, bool)
	// Store is the TiDB config value store ("tikv", "unistore"); "" when
	// not read, which is taken as "tikv" (every deployment TiUP and TiDB
	// Operator make).
	Store string
}

// Judgement is Judge's answer: the standing, and the default it was
// measured against.
type Judgement struct {
	Standing Standing
	// Default is the version's default as the component renders it, and
	// Note the catalog's note on it ("new clusters only…").
	Default, Note string
	// Older is a default of an earlier version the value equals, and
	// OlderUntil the version its successor starts from ("96MiB", "v8.4.0"):
	// a cluster keeps such a value through an upgrade (still Tuned).
	Older, OlderUntil string
	// Computed is set for a default the component computes from its host:
	// its formula and source (Computed.Unknown: why it was not computed).
	Computed *Computed
}

// Judge compares text, a value the cluster shows for e at version v, with
// e's default there — computed from the host where the component computes
// it, on the store the cluster uses where TiDB's default depends on it —
// through the catalog's one equality (Setting.Equal).
func (e *Entry) Judge(v version.Version, text string, h Host) Judgement {
	eq := SettingFor(e.Target, e.Component, e.Key)
	if c, ok := e.ComputedDefault(v, h.Machine, h.lookup()); ok {
		j := Judgement{Computed: &c, Default: c.Value}
		switch {
		case c.Unknown != "":
			j.Standing = ComputedUnknown
		case eq.Equal(c.Value, text), eq.Equal(e.computedAtStart(v, h), text):
			j.Standing = AtDefault
		default:
			j.Standing = Tuned
		}
		return j
	}
	rec, ok := e.DefaultRecordIn(v)
	if d, byStore := storeDefault(e, v, h.Store); byStore {
		rec, ok = Default{Value: d, Note: "the default on store " + h.Store + " (" + storeSource + ")"}, true
	}
	if !ok || rec.Value == "" && e.Kind != KindString {
		return Judgement{Standing: NoDefault}
	}
	j := Judgement{Default: rec.Value, Note: rec.Note}
	if eq.Equal(rec.Value, text) {
		j.Standing = AtDefault
		return j
	}
	j.Standing = Tuned
	// A default of an earlier version that the value equals: records are
	// oldest first; the one before rec that matches, and the version its
	// successor starts from.
	for i, r := range e.Defaults {
		if r == rec || i+1 >= len(e.Defaults) {
			break
		}
		if eq.Equal(r.Value, text) {
			j.Older, j.OlderUntil = r.Value, e.Defaults[i+1].Since.Short()
		}
	}
	return j
}

// computedAtStart is e's computed default as the instance computed it when
// it started with the settings it derives from (the block cache, for
// memory-usage-limit) at their own computed defaults: TiKV computes such a
// default once, at start (tikv/tikv@v8.5.1:src/config/mod.rs,
// TikvConfig::validate), and an online change of the block cache since does
// not recompute it (the emulator follows it). "" when that is not known.
func (e *Entry) computedAtStart(v version.Version, h Host) string {
	live := h.lookup()
	started := func(key string) (string, bool) {
		if upstream.IsMachineKey(key) {
			return "", false
		}
		return live(key)
	}
	c, ok := e.ComputedDefault(v, h.Machine, started)
	if !ok || c.Unknown != "" {
		return ""
	}
	return c.Value
}

func (h Host) lookup() func(string) (string, bool) {
	if h.Lookup == nil {
		return func(string) (string, bool) { return "", false }
	}
	return h.Lookup
}

// storeSource is where TiDB gives a variable a default that depends on
// its store.
const storeSource = "pingcap/tidb pkg/sessionctx/variable/sysvar.go, GlobalSystemVariableInitialValue"

// storeDependent are the variables whose initial value TiDB sets by its
// store (storeSource): ON on a TiKV store, the sysvar's own value (OFF)
// otherwise. The catalog's default is the TiKV one; the probe's (a
// unistore server) is the other.
var storeDependent = map[string]bool{"tidb_enable_async_commit": true, "tidb_enable_1pc": true}

// storeDefault is e's default at v on a store other than TiKV, where TiDB
// gives the variable another initial value: the value the probed server
// (store unistore) recorded for its build, else OFF (storeSource).
func storeDefault(e *Entry, v version.Version, store string) (string, bool) {
	if e.Target != TargetVariable || !storeDependent[strings.ToLower(e.Key)] || store == "" || strings.EqualFold(store, "tikv") {
		return "", false
	}
	if pv := probe.Exact(v, e.Key); pv != nil && pv.Default != nil {
		return *pv.Default, true
	}
	return "OFF", true
}

// Declarable says whether tiform may declare e at version v, and when not,
// why (NotDeclarable): the one rule import writes by and unmanaged drift
// reports by. It does not look at the value.
func (e *Entry) Declarable(v version.Version) NotDeclarable {
	if !e.ExistsIn(v) {
		return NotInVersion
	}
	if cl := e.ClassIn(v); !cl.Setting() {
		return NotASetting
	}
	if e.Target == TargetConfig {
		if SetConfigSupported(e.Component, e.Key) != nil {
			return NotOnline
		}
	} else {
		switch {
		case e.ScopeIn(v) == ScopeInstance:
			return InstanceScoped
		case e.ReadOnlyIn(v) || e.ScopeIn(v) != ScopeGlobal:
			return NotGlobal
		}
	}
	if !e.Deprecated.IsZero() && !v.IsZero() && v.Compare(e.Deprecated) >= 0 {
		return DeprecatedIn
	}
	return Declarable
}

// NotDeclarable is why a setting a cluster shows cannot be declared.
type NotDeclarable int

const (
	// Declarable: it can.
	Declarable NotDeclarable = iota
	// NotInVersion: the setting does not exist in the version.
	NotInVersion
	// NotASetting: its class is not a setting (ClassIn: identity, path,
	// computed, read-only).
	NotASetting
	// NotOnline: SET CONFIG cannot change it (TiFlash outside
	// raftstore-proxy.*).
	NotOnline
	// InstanceScoped: SET GLOBAL reaches only the connected TiDB.
	InstanceScoped
	// NotGlobal: a SESSION-only or read-only variable.
	NotGlobal
	// DeprecatedIn: deprecated in the version (its value is ignored or
	// mirrors its replacement; declaring it draws guard TF153).
	DeprecatedIn
)

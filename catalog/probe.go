package catalog

import (
	"fmt"
	"math/big"
	"strings"

	"github.com/tiform/tiform/internal/upstream"
	"github.com/tiform/tiform/version"
)

// What a real tidb-server did when its variables were set
// (internal/upstream/sysvar_probe.json, written by tools/catalogen from the
// upstream binary the real-TiDB test tier runs). For a TiDB of the probed
// server's release line it is the last word on which variables can be set
// with SET GLOBAL and which values the server refuses or stores as another:
// the documentation the generated table comes from calls some variables
// settable that the server keeps read-only, and does not say which values a
// validation function refuses.

var probe = upstream.MustLoadProbe()

// probeScope maps VARIABLES_INFO.VARIABLE_SCOPE to a Scope.
func probeScope(s string) Scope {
	switch {
	case strings.Contains(s, "GLOBAL"):
		return ScopeGlobal
	case strings.Contains(s, "INSTANCE"):
		return ScopeInstance
	}
	return ScopeSession // SESSION, or NONE (read-only)
}

// ReadOnlyIn reports whether the variable cannot be set at TiDB v: the docs
// of v call it read-only, or the probed server of v's release line answered
// 1238 or lists it with scope NONE. A zero v gives ReadOnly.
func (e *Entry) ReadOnlyIn(v version.Version) bool {
	if e.Target != TargetVariable {
		return e.ReadOnly
	}
	if pv := probe.Variable(v, e.Key); pv != nil {
		return pv.ReadOnly
	}
	if v.IsZero() {
		return e.ReadOnly
	}
	if sp, gen := e.span(v); gen && sp != nil {
		return sp.Scope == "NONE"
	}
	return e.ReadOnly
}

// Refusal is why TiDB would not store a value of a variable as sent.
type Refusal struct {
	// Reason says what the server does, in its own words where it has them.
	Reason string
	// Hint says what to declare instead, when the server showed it.
	Hint string
	// Source cites the observation.
	Source string
}

// Connection is what a refusal may depend on besides the value: how the
// apply will reach the cluster.
type Connection struct {
	// Secure: the connection uses TLS.
	Secure bool
	// TiDBInstances is how many TiDB instances the cluster has (0: unknown).
	TiDBInstances int
}

// VariableRefusal reports whether TiDB v refuses SET GLOBAL name = value, or
// stores another value in its place, as the probed server of v's release
// line did: the same value was sent and refused (over a plain connection
// unless c is secure, or over TLS too), or stored as another (a deprecated
// variable fixed at ON, a number rounded or clamped); or value is a number
// outside the server's range, beyond which the probe saw the server refuse
// or clamp. It knows nothing of other release lines.
//
// The probed server was one TiDB instance: an INSTANCE-scoped variable acts
// on the connected instance and its refusal may depend on the others
// (tidb_enable_ddl = OFF is refused on the only instance), so on a cluster
// with several TiDB instances an INSTANCE variable's refusal is not applied.
func VariableRefusal(v version.Version, name, value string, c Connection) (Refusal, bool) {
	pv := probe.Variable(v, name)
	if pv == nil {
		return Refusal{}, false
	}
	secure := c.Secure
	if pv.Scope == "INSTANCE" && c.TiDBInstances > 1 && !pv.ReadOnly {
		return Refusal{}, false
	}
	src := probe.Cite()
	if pv.ReadOnly {
		return Refusal{Reason: "TiDB keeps " + pv.Name + " read-only (SET GLOBAL answers 1238)", Hint: "remove it from the configuration", Source: src}, true
	}
	set := SettingFor(TargetVariable, "tidb", name)
	for _, o := range pv.Outcomes {
		if !set.Equal(value, o.Value) {
			continue
		}
		if r, ok := outcomeRefusal(pv, o, secure, src); ok {
			return r, true
		}
		return Refusal{}, false
	}
	return rangeRefusal(pv, set, value, secure, src)
}

// outcomeRefusal turns one observed outcome into a refusal; ok is false for
// an outcome that stored the value as sent (a warning alone) or that TLS
// makes acceptable on a secure connection.
func outcomeRefusal(pv *upstream.ProbeVariable, o upstream.Outcome, secure bool, src string) (Refusal, bool) {
	switch {
	case o.Error != "" && o.SecureOnly && secure:
		return Refusal{}, false
	case o.Error != "" && o.SecureOnly:
		return Refusal{Reason: "TiDB refuses it over a connection without TLS: " + o.Error,
			Hint: "connect with TLS (add ?tls=true to the DSN) or remove it", Source: src}, true
	case o.Error != "":
		return Refusal{Reason: "TiDB refuses it: " + o.Error, Hint: "remove it, or declare a value the server accepts", Source: src}, true
	case o.Stored != "":
		r := Refusal{Reason: fmt.Sprintf("TiDB stores %s instead of %s", o.Stored, o.Value), Hint: fmt.Sprintf("declare %s = %s, or remove it", pv.Name, o.Stored), Source: src}
		if o.Warning != "" {
			r.Reason += " (" + o.Warning + ")"
		}
		return r, true
	}
	return Refusal{}, false
}

// rangeRefusal refuses a number outside [Min, Max] that is not one of the
// values the server stored beyond them, as it treated the nearest probed
// value on that side.
func rangeRefusal(pv *upstream.ProbeVariable, set Setting, value string, secure bool, src string) (Refusal, bool) {
	lo, ok1 := new(big.Int).SetString(pv.Min, 10)
	hi, ok2 := new(big.Int).SetString(pv.Max, 10)
	n, ok3 := new(big.Int).SetString(strings.TrimSpace(value), 10)
	if !ok1 || !ok2 || !ok3 || n.Cmp(lo) >= 0 && n.Cmp(hi) <= 0 {
		return Refusal{}, false
	}
	for _, b := range pv.Beyond {
		if set.Equal(value, b) {
			return Refusal{}, false
		}
	}
	r := Refusal{Reason: fmt.Sprintf("%s is outside the range TiDB accepts, [%s, %s]", value, pv.Min, pv.Max),
		Hint: fmt.Sprintf("declare a value from %s to %s", pv.Min, pv.Max), Source: src}
	for _, o := range pv.Outcomes {
		on, ok := new(big.Int).SetString(o.Value, 10)
		if !ok || (n.Cmp(lo) < 0) != (on.Cmp(lo) < 0) || (n.Cmp(hi) > 0) != (on.Cmp(hi) > 0) {
			continue
		}
		if x, ok := outcomeRefusal(pv, o, secure, src); ok {
			r.Reason += ": it " + strings.TrimPrefix(strings.Replace(x.Reason, " instead of "+o.Value, " instead of such a value", 1), "TiDB ")
		}
		break
	}
	return r, true
}

// VariableNoop reports whether the probed server of v's release line says
// the variable has no effect in TiDB (VARIABLES_INFO.IS_NOOP): SHOW
// VARIABLES hides such a variable while tidb_enable_noop_variables is OFF
// (https://docs.pingcap.com/tidb/stable/system-variables#tidb_enable_noop_variables-new-in-v620).
func VariableNoop(v version.Version, name string) bool {
	pv := probe.Variable(v, name)
	return pv != nil && pv.Noop
}

// VariableSettable reports whether the probed server of v's release line
// lets SET GLOBAL reach name (GLOBAL or INSTANCE scope, not read-only);
// false when v is not covered or the server has no such variable.
func VariableSettable(v version.Version, name string) bool {
	pv := probe.Variable(v, name)
	if pv == nil || pv.ReadOnly {
		return false
	}
	sc := probeScope(pv.Scope)
	return sc == ScopeGlobal || sc == ScopeInstance
}

// probedDefault is a variable's default at v when v is the probed build
// itself: INFORMATION_SCHEMA.VARIABLES_INFO.DEFAULT_VALUE as that server
// reported it, which is what a new cluster of the build starts with. The
// documentation the generated defaults come from describes the release, and
// a development build may differ from it (tidb_hash_join_version,
// tidb_server_memory_limit_gc_trigger "0.7" where the docs say "70%"). A
// variable whose initial value depends on the store (storeDependent) keeps
// the catalog's TiKV default: the probe ran on unistore (Judge applies the
// store's).
func probedDefault(e *Entry, v version.Version) (Default, bool) {
	if e.Target != TargetVariable || storeDependent[strings.ToLower(e.Key)] {
		return Default{}, false
	}
	pv := probe.Exact(v, e.Key)
	if pv == nil || pv.Default == nil {
		return Default{}, false
	}
	return Default{Value: *pv.Default}, true
}

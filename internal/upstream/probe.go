package upstream

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"strings"
	"sync"

	"github.com/tiform/tiform/version"
)

// The probe (sysvar_probe.json) is what a real tidb-server did when each of
// its system variables was set with SET GLOBAL: the generator
// (tools/catalogen -tidb-server) starts the upstream binary the real-TiDB
// test tier runs, sends every variable a few other values (each of an
// enumeration's values, both booleans, a number's bounds and their
// neighbours) over a plain and over a TLS connection, reads SHOW WARNINGS and
// the value back, and restores it. Where the documentation and the server
// disagree (a variable the docs call GLOBAL that the server keeps read-only,
// a value the server refuses or stores as another), the server is right for
// its release line; the probe records only those outcomes.

// ProbeFormat is the version of sysvar_probe.json's layout.
const ProbeFormat = 1

// Probe is sysvar_probe.json.
type Probe struct {
	Format    int    `json:"format"`
	Generator string `json:"generator"`
	// Server is the version the probed binary reports; Source names the
	// upstream commit it was built from.
	Server string `json:"server"`
	Source string `json:"source"`
	// Context says what the probe's refusals may depend on: one TiDB
	// instance, unistore.
	Context   string           `json:"context"`
	Variables []*ProbeVariable `json:"variables"`

	release version.Version
	index   map[string]*ProbeVariable
}

// ProbeVariable is one variable of the probed server.
type ProbeVariable struct {
	Name string `json:"name"`
	// Scope is INFORMATION_SCHEMA.VARIABLES_INFO.VARIABLE_SCOPE.
	Scope string `json:"scope"`
	// Default is VARIABLES_INFO.DEFAULT_VALUE: what a new cluster of the
	// probed build starts with, on the probe's store (Context). Nil in a
	// probe that did not record it.
	Default *string `json:"default,omitempty"`
	// ReadOnly: SET GLOBAL answered 1238 ("is a read only variable").
	ReadOnly bool `json:"read_only,omitempty"`
	// Noop: VARIABLES_INFO.IS_NOOP is YES: the variable has no effect in
	// TiDB, and SHOW VARIABLES hides it while tidb_enable_noop_variables is
	// OFF.
	Noop bool `json:"noop,omitempty"`
	// Min and Max are VARIABLES_INFO.MIN_VALUE and MAX_VALUE of a number;
	// Beyond lists the values outside them the server stored as sent (an
	// "auto" -1 below a minimum of 1).
	Min    string   `json:"min,omitempty"`
	Max    string   `json:"max,omitempty"`
	Beyond []string `json:"beyond,omitempty"`
	// Outcomes lists the values the server did not store as sent.
	Outcomes []Outcome `json:"outcomes,omitempty"`
}

// Outcome is what the server did with one value it did not simply store.
type Outcome struct {
	// Value is the value sent (SET GLOBAL name = Value; a number unquoted).
	Value string `json:"value"`
	// Error is the statement's error, "code: message"; nothing was stored.
	Error string `json:"error,omitempty"`
	// SecureOnly: refused over a plain connection with Error, accepted over
	// TLS.
	SecureOnly bool `json:"secure_only,omitempty"`
	// Stored is what SHOW GLOBAL VARIABLES showed after an accepted SET,
	// when it differs from Value; Warning is the SET's warning, if any.
	Stored  string `json:"stored,omitempty"`
	Warning string `json:"warning,omitempty"`
}

//go:embed sysvar_probe.json
var probeJSON []byte

var probe struct {
	once sync.Once
	p    *Probe
	err  error
}

// LoadProbe decodes the embedded sysvar_probe.json.
func LoadProbe() (*Probe, error) {
	probe.once.Do(func() { probe.p, probe.err = DecodeProbe(probeJSON) })
	return probe.p, probe.err
}

// MustLoadProbe is LoadProbe for package initialisation.
func MustLoadProbe() *Probe {
	p, err := LoadProbe()
	if err != nil {
		panic(err)
	}
	return p
}

// DecodeProbe decodes a probe file.
func DecodeProbe(data []byte) (*Probe, error) {
	var p Probe
	if err := json.Unmarshal(data, &p); err != nil {
		return nil, fmt.Errorf("upstream: sysvar_probe.json: %w", err)
	}
	if p.Format != ProbeFormat {
		return nil, fmt.Errorf("upstream: sysvar_probe.json has format %d, this build reads %d", p.Format, ProbeFormat)
	}
	v, err := version.Parse(p.Server)
	if err != nil {
		return nil, fmt.Errorf("upstream: sysvar_probe.json: server %q: %w", p.Server, err)
	}
	p.release = v
	p.index = make(map[string]*ProbeVariable, len(p.Variables))
	for _, pv := range p.Variables {
		p.index[strings.ToLower(pv.Name)] = pv
	}
	return &p, nil
}

// Covers reports whether the probe speaks for TiDB version v: the probed
// server's release line (same major and minor version). A zero v is not
// covered.
func (p *Probe) Covers(v version.Version) bool {
	return !v.IsZero() && v.Major == p.release.Major && v.Minor == p.release.Minor
}

// Variable returns what the probe saw of name at v; nil when v is not
// covered or the server has no such variable.
func (p *Probe) Variable(v version.Version, name string) *ProbeVariable {
	if p == nil || !p.Covers(v) {
		return nil
	}
	return p.index[strings.ToLower(name)]
}

// Exact returns what the probe saw of name when v is the probed build
// itself (the same version, pre-release part included: a development
// build's defaults are not those of the release it leads to); nil
// otherwise. Only then does the probe speak for the defaults
// (ProbeVariable.Default).
func (p *Probe) Exact(v version.Version, name string) *ProbeVariable {
	if p == nil || v.IsZero() || v.Major != p.release.Major || v.Minor != p.release.Minor || v.Patch != p.release.Patch || v.Pre != p.release.Pre {
		return nil
	}
	return p.index[strings.ToLower(name)]
}

// Cite is how a fact of the probe is cited.
func (p *Probe) Cite() string {
	return "observed on tidb-server " + p.Server + " (" + p.Source + ")"
}

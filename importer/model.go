package importer

import (
	"github.com/zclconf/go-cty/cty"

	"github.com/tiform/tiform/state"
)

// Cluster is one cluster to import: what was read from it and how the
// configuration names it.
type Cluster struct {
	// Name is the cluster block's name; "" for the implicit default cluster
	// of a configuration without cluster blocks (reached with --dsn).
	Name   string
	Labels map[string]string
	// TiUPCluster is the name `tiup cluster` knows the cluster by, when the
	// configuration that named the cluster declares it.
	TiUPCluster string
	// DSNEnv is the environment variable the configuration that named the
	// cluster reads its DSN from (dsn = env("NAME")): kept, not renamed.
	DSNEnv string
	Live   *state.Live
}

// Options say what to import.
type Options struct {
	// All imports every setting the catalog knows, values at their default
	// included; otherwise only values that differ from their default.
	All bool
}

// File is one generated configuration file.
type File struct {
	Name    string // base name, e.g. "baseline.hcl"
	Content []byte
}

// Result is what Generate produced.
type Result struct {
	Files []File
	// Clusters reports, per cluster and in input order, what was imported
	// and what was left out.
	Clusters []Report
}

// Report says what was imported from one cluster and what was left out.
type Report struct {
	Name    string
	Version string // TiDB version ("v8.5.1"); "" when unknown
	// DSNEnv is the environment variable the generated cluster block reads
	// its DSN from; "" when no cluster block was written.
	DSNEnv string
	// Counts of what the cluster's configuration now declares (baseline
	// values it shares included).
	Config, Instance, Variables, Groups, Users int
	// AtDefault counts settings left out because they are at their default
	// (the version's, or the one the component computed from its machine).
	AtDefault int
	// LeftOut is what was not imported, grouped by why, each key once
	// however many instances show it.
	LeftOut []LeftOut
	// Imported are groups of imported values a reviewer should look at
	// (defaults that could not be computed), by why.
	Imported []LeftOut
	// Unknown counts settings the catalog does not know (never imported:
	// tiform could not say whether they were tuned).
	Unknown int
	// Notes are facts a reviewer should know (mixed versions).
	Notes []string
}

// LeftOut is a group of keys and the one reason they share.
type LeftOut struct {
	Why  string
	Keys []string
	// All: --all would import them (Options.All).
	All bool
}

// Why texts of the groups Report.LeftOut holds (the identity, path,
// computed and read-only ones come from catalog.Class.Why).
const (
	WhyNoDefault  = "no default in tiform's catalog for this version: tiform cannot tell whether they were tuned"
	WhyPDMembers  = "PD members show different values, and PD config is one for all members (the language declares it once)"
	WhyUnknown    = "not in tiform's catalog"
	WhyDeprecated = "deprecated in this version"
	WhyNotOnline  = "TiFlash items other than raftstore-proxy.* cannot be changed online"
)

// leftOut adds key to the group of why (kept in first-seen order, each key
// once).
func (r *Report) leftOut(why, key string, all bool) { r.LeftOut = addTo(r.LeftOut, why, key, all) }

// imported notes an imported key a reviewer should look at.
func (r *Report) imported(why, key string) { r.Imported = addTo(r.Imported, why, key, false) }

func addTo(groups []LeftOut, why, key string, all bool) []LeftOut {
	for i := range groups {
		if groups[i].Why == why {
			for _, k := range groups[i].Keys {
				if k == key {
					return groups
				}
			}
			groups[i].Keys = append(groups[i].Keys, key)
			return groups
		}
	}
	return append(groups, LeftOut{Why: why, Keys: []string{key}, All: all})
}

// configKey addresses one config value: type-wide (inst "") or one instance.
type configKey struct {
	comp state.Component
	inst string
	key  string
}

// value is one imported value: its HCL literal, the text it is compared by,
// and what its comment says.
type value struct {
	lit   cty.Value
	canon string
	dflt  defaultInfo
	bare  bool // no default to comment on (resource group options)
	// ref, for a credential (secret.go), is the sensitive input variable
	// the value is declared from instead of lit; holds names the setting.
	ref, holds string
}

// clusterValues is everything imported from one cluster, before the fleet is
// split into a baseline and per-cluster differences.
type clusterValues struct {
	name   string
	labels map[string]string
	tiup   string
	config map[configKey]value
	// common is, for every config key read, the value most instances show,
	// at its default or not (a family is completed with it).
	common map[configKey]value
	vars   map[string]value
	groups map[string]*group
	report *Report
}

// group is one resource group as imported: each option is a value (nil map
// entry = not declared), query_limit and background each a whole block.
type group struct {
	attrs      map[string]value // ru_per_sec, priority, burstable, users
	queryLimit *block
	background *block
}

// block is an imported nested block: its attributes, in the order written.
type block struct {
	names []string
	attrs map[string]value
	canon string // the whole block, for comparison
}

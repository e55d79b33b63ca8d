package guard

import (
	"fmt"
	"sort"
	"strings"

	"github.com/tiform/tiform/catalog"
	"github.com/tiform/tiform/diag"
	"github.com/tiform/tiform/state"
)

// Cluster-level rules: TF151 mixed versions, TF152 SET CONFIG unavailable,
// TF154 a version the catalog has no facts for
// (https://docs.pingcap.com/tidb/stable/information-schema-cluster-info,
// https://docs.pingcap.com/tidb/stable/dynamic-config, docs/catalog.md).

const (
	linkClusterInfo   = "https://docs.pingcap.com/tidb/stable/information-schema-cluster-info"
	linkDynamicConfig = "https://docs.pingcap.com/tidb/stable/dynamic-config"
	linkCatalogTable  = "https://github.com/tiform/tiform/blob/main/docs/catalog.md#the-generated-upstream-table"
)

func init() {
	register(
		&Rule{
			Code: "TF151", Severity: diag.Warning, Live: true,
			Title:    "Mixed versions (cluster mid-upgrade)",
			Link:     linkClusterInfo,
			Versions: "all versions",
			Reasoning: "During a rolling upgrade instances of one component run different versions. Settings that exist " +
				"or behave differently across those versions may be rejected by some instances, and version-bound " +
				"guards cannot be exact. tiform evaluates every rule against the lowest version per component and " +
				"says so.",
			Sources: []string{linkClusterInfo, "https://docs.pingcap.com/tidb/stable/pd-control"},
			check:   checkMixed,
		},
		&Rule{
			Code: "TF152", Severity: diag.Error,
			Title:    "SET CONFIG unavailable (TiDB Cloud / Security Enhanced Mode)",
			Link:     linkDynamicConfig,
			Versions: "TiDB Cloud (Serverless/Starter builds, `-serverless` versions) and any cluster with SEM enabled",
			Reasoning: "Under Security Enhanced Mode (TiDB Cloud) INFORMATION_SCHEMA.CLUSTER_CONFIG is invisible and " +
				"SET CONFIG is not available, so TiKV/PD/TiFlash settings can neither be read nor changed over SQL.",
			Sources: []string{linkDynamicConfig, "pingcap/tidb@v8.5.1:pkg/util/sem/sem.go (IsInvisibleTable)"},
			check:   checkSEM,
		},
		&Rule{
			Code: "TF154", Severity: diag.Info, Live: true,
			Title: "Version outside the catalog: the facts of the nearest version are used",
			Link:  linkCatalogTable,
			Versions: "TiDB, TiKV and PD versions the catalog has no release for: a newer patch (v8.5.9 → v8.5.7), " +
				"a release of master's line (v9.0.0 → master), an older or unobserved line (v6.1.0 → v6.5.0)",
			Reasoning: "tiform's catalog is generated from the release tags v6.5.0–v8.5.x and master of tikv/tikv, " +
				"tikv/pd and pingcap/docs-cn. For any other version it uses the facts of the nearest version it has: " +
				"the newest release of the same line, master for master's line, else the nearest release. Settings, " +
				"defaults and online changeability that differ in the real version are unknown to tiform, so the " +
				"finding names the facts used, once per cluster, for the components the configuration declares " +
				"something of (TiKV or PD config; TiDB variables, resource groups or users), and for every component " +
				"in `tiform check`. Regenerating the catalog (`make catalog`) after a release removes it.",
			Sources: []string{linkCatalogTable, "internal/upstream/settings.json (versions; upstream.Table.Nearest)"},
			check:   checkFactsVersion,
		},
	)
}

// factsComponents are the components whose version picks catalog facts,
// in the order findings name them, with the catalog's name for each.
var factsComponents = []struct {
	comp state.Component
	name string
}{{state.TiDB, "tidb"}, {state.TiKV, "tikv"}, {state.PD, "pd"}}

// declaresFor reports whether the configuration declares something whose
// facts come from comp's version: config items of comp, or for TiDB system
// variables, resource groups or bound users.
func (c *context) declaresFor(comp state.Component) bool {
	if comp == state.TiDB {
		return len(c.d.Variables) > 0 || len(c.d.ResourceGroups) > 0 || c.d.DropUnmanagedGroups
	}
	for _, s := range c.d.Config {
		if s.Component == comp {
			return true
		}
	}
	return false
}

func checkFactsVersion(c *context) []Finding {
	type approx struct{ comp, version, facts string }
	var list []approx
	for _, fc := range factsComponents {
		if c.hcl && !c.declaresFor(fc.comp) {
			continue
		}
		v, ok := c.version(fc.comp)
		if !ok {
			continue
		}
		facts, exact, ok := catalog.Facts(fc.name, v)
		if !ok || exact {
			continue
		}
		list = append(list, approx{componentTitle(fc.comp), v.String(), facts})
	}
	if len(list) == 0 {
		return nil
	}
	var parts []string
	for _, a := range list {
		parts = append(parts, fmt.Sprintf("%s %s → %s", a.comp, a.version, a.facts))
	}
	return []Finding{{
		Range: c.d.Range,
		Summary: fmt.Sprintf("tiform's catalog has no facts for this version: it uses the nearest it has (%s)",
			strings.Join(parts, "; ")),
		Detail: fmt.Sprintf("The catalog is generated from the releases %s. For a version it does not have, it uses the "+
			"facts of the nearest version it has: the newest release of the same line, master for master's line, "+
			"else the nearest release. Here: %s. The real version may differ — a setting added, removed or made "+
			"restart-only, a changed default, a new resource-group option — and tiform cannot tell; check the "+
			"release notes of the running version for what this configuration declares, and regenerate the catalog "+
			"after a release (`make catalog`).", catalog.TableRange(), strings.Join(parts, "; ")),
	}}
}

// componentTitle is a component's name as prose writes it.
func componentTitle(comp state.Component) string {
	switch comp {
	case state.TiDB:
		return "TiDB"
	case state.TiKV:
		return "TiKV"
	case state.PD:
		return "PD"
	}
	return string(comp)
}

func checkMixed(c *context) []Finding {
	var out []Finding
	for _, comp := range state.Components {
		if !c.l.Mixed(comp) {
			continue
		}
		count := map[string]int{}
		for _, in := range c.l.Instances {
			if in.Component == comp {
				count[in.Version.String()]++
			}
		}
		var vs []string
		for v, n := range count {
			vs = append(vs, fmt.Sprintf("%s ×%d", v, n))
		}
		sort.Strings(vs)
		low, _ := c.l.MinVersion(comp)
		out = append(out, Finding{
			Address: string(comp),
			Summary: fmt.Sprintf("%s instances run mixed versions (%s): guards use the lowest, %s", comp,
				strings.Join(vs, ", "), low.String()),
			Detail: fmt.Sprintf("The cluster looks mid-upgrade. Every guard evaluates %s as %s, the lowest version seen; "+
				"settings that exist only in the newer version can be rejected by the older instances (SET CONFIG turns "+
				"that into per-instance warnings, not an error). Finish the rolling upgrade before applying, or apply "+
				"only what the lowest version supports, and plan again afterwards.", comp, low.String()),
		})
	}
	return out
}

func checkSEM(c *context) []Finding {
	tidb, _ := c.version(state.TiDB)
	if !c.l.SEM && !tidb.IsServerless() {
		return nil
	}
	if len(c.d.Config) == 0 {
		return nil
	}
	why := "the cluster runs with Security Enhanced Mode (CLUSTER_CONFIG is hidden)"
	if tidb.IsServerless() {
		why = fmt.Sprintf("the cluster is TiDB Cloud Serverless/Starter (%s)", tidb.String())
	}
	s := c.d.Config[0]
	comps := map[state.Component]bool{}
	for _, cs := range c.d.Config {
		comps[cs.Component] = true
	}
	var names []string
	for _, comp := range state.Components {
		if comps[comp] {
			names = append(names, string(comp))
		}
	}
	return []Finding{{
		Address: state.ConfigAddress(s.Component, s.Instance, s.Key).String(),
		Range:   s.Range,
		Summary: "SET CONFIG is not available on this cluster: " + why,
		Detail: fmt.Sprintf("This configuration declares %d component setting(s) (%s), but %s: SET CONFIG is not "+
			"available and the current values cannot be read. Remove the %s blocks for this cluster and change those "+
			"settings through the TiDB Cloud console or support; tiform can still manage system variables and resource "+
			"groups here.", len(c.d.Config), strings.Join(names, ", "), why, strings.Join(names, "/")),
	}}
}

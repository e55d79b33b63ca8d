package guard

import (
	"fmt"
	"sort"
	"strings"

	"github.com/tiform/tiform/diag"
	"github.com/tiform/tiform/state"
)

// Cluster-level rules: TF151 mixed versions, TF152 SET CONFIG unavailable
// (https://docs.pingcap.com/tidb/stable/information-schema-cluster-info,
// https://docs.pingcap.com/tidb/stable/dynamic-config).

const (
	linkClusterInfo   = "https://docs.pingcap.com/tidb/stable/information-schema-cluster-info"
	linkDynamicConfig = "https://docs.pingcap.com/tidb/stable/dynamic-config"
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
	)
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

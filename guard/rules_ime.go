package guard

import (
	"fmt"
	"strings"

	"github.com/tiform/tiform/diag"
	"github.com/tiform/tiform/state"
	"github.com/tiform/tiform/version"
)

// In-Memory Engine rules: TF130–TF133 (https://docs.pingcap.com/tidb/stable/tikv-in-memory-engine).

const (
	imePrefix     = "in-memory-engine."
	keyIMEEnable  = "in-memory-engine.enable"
	keyIMECap     = "in-memory-engine.capacity"
	linkIME       = "https://docs.pingcap.com/tidb/stable/tikv-in-memory-engine"
	linkTikvIssue = "https://github.com/tikv/tikv/issues/"
)

// imeBug is a known In-Memory Engine problem fixed in a later 8.5 patch
// (the issue; the fix versions come from the release tags: several are not in
// the release notes): it affects v8.5.0 up to, not including, Fixed.
type imeBug struct {
	Issue string
	What  string
	Fixed version.Version
}

var imeBugs = []imeBug{
	{"18046", "TiKV panics when the IME preloads an uninitialized peer", version.Version{Major: 8, Minor: 5, Patch: 1}},
	{"17782", "QPS and latency jitter with the IME during leader transfers (severity/major); v8.5.2 brings the transfer-leader and auto-evict optimisations (tikv#17882, #18210, #18130, #18228)", version.Version{Major: 8, Minor: 5, Patch: 2}},
	{"18134", "Regions evicted by a Region merge are not reloaded", version.Version{Major: 8, Minor: 5, Patch: 2}},
	{"19584", "manually evicted Regions stay stuck in `Evicting`", version.Version{Major: 8, Minor: 5, Patch: 7}},
	{"19546", "the debug API /debug/ime/cached_regions is unreachable", version.Version{Major: 8, Minor: 5, Patch: 7}},
}

// imeBugSources are the issues of imeBugs, each a source of TF133.
func imeBugSources() []string {
	out := make([]string, len(imeBugs))
	for i, b := range imeBugs {
		out[i] = linkTikvIssue + b.Issue
	}
	return out
}

func init() {
	register(
		&Rule{
			Code: "TF130", Severity: diag.Error,
			Title:    "In-Memory Engine before TiKV v8.5.0",
			Link:     linkIME,
			Versions: "TiKV < v8.5.0",
			Reasoning: "The TiKV MVCC In-Memory Engine and every in-memory-engine.* item were introduced in v8.5.0; " +
				"older TiKV rejects the keys.",
			Sources: []string{linkIME, "https://docs.pingcap.com/tidb/stable/release-8.5.0", "https://github.com/tikv/tikv/issues/16141"},
			check:   checkIMEVersion,
		},
		&Rule{
			Code: "TF131", Severity: diag.Warning,
			Title:    "In-Memory Engine enable needs a TiKV restart",
			Link:     linkIME,
			Versions: "TiKV v8.5.0+",
			Reasoning: "in-memory-engine.enable false→true is accepted by SET CONFIG and written to the config file, " +
				"but the engine is only built when TiKV starts: the change takes effect at the next restart.",
			Sources: []string{linkIME + "#usage",
				"tikv/tikv@v8.5.1:components/server/src/server.rs (the engine is built only when in_memory_engine.enable is true at start; derived)"},
			check: checkIMEEnableRestart,
		},
		&Rule{
			Code: "TF132", Severity: diag.Warning,
			Title:    "In-Memory Engine capacity set by hand",
			Link:     linkIME,
			Versions: "TiKV v8.5.0+",
			Reasoning: "With the default capacity TiKV shrinks the block cache to make room for the IME; when " +
				"in-memory-engine.capacity is set by hand the block cache is not reduced, so both together can exceed " +
				"the memory TiKV was sized for (OOM risk).",
			Sources: []string{linkIME, linkTikvConfig + "#capacity-new-in-v850",
				"tikv/tikv@v8.5.1:components/in_memory_engine/src/config.rs (InMemoryEngineConfig)"},
			check: checkIMECapacity,
		},
		&Rule{
			Code: "TF133", Severity: diag.Warning, Live: true,
			Title:    "In-Memory Engine known bugs by patch version",
			Link:     linkIME,
			Versions: "TiKV v8.5.0–v8.5.6 with the IME enabled (each bug lists its fix version)",
			Reasoning: "The IME is new in v8.5.0 and several 8.5 patches fix problems in it (a panic in v8.5.0, latency " +
				"jitter before v8.5.2, stuck evictions before v8.5.7): enable it on a patch that has the fixes, after " +
				"validating it on the workload.",
			Sources: append([]string{linkIME}, imeBugSources()...),
			check:   checkIMEBugs,
		},
	)
}

func checkIMEVersion(c *context) []Finding {
	tv, ok := c.version(state.TiKV)
	if !ok || tv.InMemoryEngine() {
		return nil
	}
	var out []Finding
	for _, s := range c.d.Config {
		if s.Component != state.TiKV || !strings.HasPrefix(strings.ToLower(s.Key), imePrefix) {
			continue
		}
		out = append(out, Finding{
			Address: state.ConfigAddress(s.Component, s.Instance, s.Key).String(), Range: s.Range,
			Summary: fmt.Sprintf("%s does not exist in TiKV %s: the In-Memory Engine exists from v8.5.0 on", s.Key, tv.Short()),
			Detail: fmt.Sprintf("The lowest TiKV version in the cluster is %s; the In-Memory Engine arrived in v8.5.0 "+
				"(tikv#16141). Remove the in-memory-engine settings for this cluster, or upgrade TiKV to v8.5.0 or later "+
				"first (see TF133 for the patch to pick).", tv.Short()),
		})
	}
	return out
}

func checkIMEEnableRestart(c *context) []Finding {
	tv, ok := c.version(state.TiKV)
	if !ok || !tv.InMemoryEngine() {
		return nil
	}
	var out []Finding
	for _, s := range c.settings(state.TiKV, keyIMEEnable) {
		if !isOn(s.Value.Text) {
			continue
		}
		// Instances whose live value is not already true need the restart.
		var off []string
		for _, addr := range c.l.InstancesOf(state.TiKV) {
			if s.Instance != "" && addr != s.Instance {
				continue
			}
			if v, ok := c.liveConfigOn(state.TiKV, addr, keyIMEEnable); !ok || !isOn(v) {
				off = append(off, addr)
			}
		}
		if len(off) == 0 && len(c.l.InstancesOf(state.TiKV)) > 0 {
			continue
		}
		which := "every TiKV instance"
		if len(off) > 0 {
			which = strings.Join(off, ", ")
		}
		out = append(out, Finding{
			Address: state.ConfigAddress(state.TiKV, s.Instance, s.Key).String(), Range: s.Range,
			Summary: "in-memory-engine.enable = true will not take effect until TiKV restarts",
			Detail: fmt.Sprintf("SET CONFIG accepts the change and writes it to the TiKV config file, but the engine is "+
				"only built at start, so %s keep running without it. Put the value in the TiUP topology:\n\n%s\n\nthen "+
				"restart TiKV in a rolling way: `tiup cluster reload %s -R tikv` (TiDB Operator: spec.tikv.config). TiKV "+
				"needs at least 8GiB of memory (32GiB+ recommended) or the IME stays off with \"in-memory engine is "+
				"disabled because …\" in the log. It only helps reads slowed by many MVCC versions (Total_keys ≫ "+
				"Process_keys); it is not a hot-data cache.", which, c.topologyEdit(s), c.clusterName()),
		})
	}
	return out
}

func checkIMECapacity(c *context) []Finding {
	tv, ok := c.version(state.TiKV)
	if !ok || !tv.InMemoryEngine() {
		return nil
	}
	var out []Finding
	for _, s := range c.settings(state.TiKV, keyIMECap) {
		out = append(out, Finding{
			Address: state.ConfigAddress(state.TiKV, s.Instance, s.Key).String(), Range: s.Range,
			Summary: fmt.Sprintf("in-memory-engine.capacity = %s set by hand: the block cache is not reduced (OOM risk)", s.Value.Shown()),
			Detail: "With the default capacity (about 10% of memory, at most 5GiB) TiKV takes the IME's memory from the " +
				"block cache. A capacity set by hand leaves storage.block-cache.capacity as it is, so the two together can " +
				"exceed what the TiKV host was sized for. Lower storage.block-cache.capacity by the same amount in this " +
				"configuration, or leave capacity unset.",
		})
	}
	return out
}

func checkIMEBugs(c *context) []Finding {
	tv, ok := c.version(state.TiKV)
	if !ok || tv.Major != 8 || tv.Minor != 5 {
		return nil
	}
	var bugs []string
	var fixedIn version.Version
	for _, b := range imeBugs {
		if tv.Compare(b.Fixed) < 0 {
			bugs = append(bugs, fmt.Sprintf("- tikv#%s (fixed in %s): %s", b.Issue, b.Fixed.Short(), b.What))
			if b.Fixed.Compare(fixedIn) > 0 {
				fixedIn = b.Fixed
			}
		}
	}
	if len(bugs) == 0 {
		return nil
	}
	// Where is the IME on? Declared true wins; else the live value.
	f := Finding{Address: state.ConfigAddress(state.TiKV, "", keyIMEEnable).String()}
	enabled := false
	if ss := c.settings(state.TiKV, keyIMEEnable); len(ss) > 0 {
		for _, s := range ss {
			if isOn(s.Value.Text) {
				enabled, f.Range, f.Address = true, s.Range, state.ConfigAddress(state.TiKV, s.Instance, s.Key).String()
				break
			}
		}
	} else {
		for _, r := range c.liveConfig(state.TiKV, keyIMEEnable) {
			if isOn(r.Value) {
				enabled = true
				break
			}
		}
	}
	if !enabled {
		return nil
	}
	f.Summary = fmt.Sprintf("In-Memory Engine on TiKV %s has known bugs fixed in later patches: upgrade to %s or later",
		tv.Short(), fixedIn.Short())
	f.Detail = fmt.Sprintf("TiKV %s (lowest TiKV version) lacks these In-Memory Engine fixes:\n%s\n\nUpgrade TiKV to %s "+
		"or later before relying on the IME, and enable it only after validating it on the workload. Also open as "+
		"of 2026-08: tikv#18212 (latency rises "+
		"sharply with more MVCC read threads).", tv.Short(), strings.Join(bugs, "\n"), fixedIn.Short())
	return []Finding{f}
}

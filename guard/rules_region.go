package guard

import (
	"fmt"
	"math"
	"strings"

	"github.com/tiform/tiform/catalog"
	"github.com/tiform/tiform/diag"
	"github.com/tiform/tiform/plans"
	"github.com/tiform/tiform/state"
	"github.com/tiform/tiform/version"
)

// Region-size rules: TF101–TF108 (https://docs.pingcap.com/tidb/stable/tune-region-performance,
// tikv/tikv#18503).

const (
	keySplitSize = catalog.KeyRegionSplitSize
	keyMaxSize   = catalog.KeyRegionMaxSize
	keySplitKeys = catalog.KeyRegionSplitKeys
	keyMaxKeys   = catalog.KeyRegionMaxKeys
	keyMergeSize = catalog.KeyMergeRegionSize
	keyMergeKeys = catalog.KeyMergeRegionKeys

	linkTikv18503    = "https://github.com/tikv/tikv/issues/18503"
	linkTikv18567    = "https://github.com/tikv/tikv/issues/18567"
	linkRegionTuning = "https://docs.pingcap.com/tidb/stable/tune-region-performance"
	linkRegionSize   = "https://docs.pingcap.com/tidb/stable/tikv-configuration-file#region-split-size"
	linkRelease840   = "https://docs.pingcap.com/tidb/stable/release-8.4.0"
	linkPDConfig     = "https://docs.pingcap.com/tidb/stable/pd-configuration-file"
)

// regionFamily is managed as a set: since TiKV v8.5.3 each key not set in the
// config file is inherited from last_tikv.toml (tikv/tikv#18503, tikv/tikv#18567;
// tikv/tikv@v8.5.3:src/config/mod.rs TikvConfig::compatible_adjust).
var regionFamily = []string{keySplitSize, keyMaxSize, keySplitKeys, keyMaxKeys}

// regionDefaults are TiKV's defaults for the family in v
// (https://docs.pingcap.com/tidb/stable/tikv-configuration-file#region-split-size;
// 96MiB until tikv/tikv#17311, released in v8.4.0).
func regionDefaults(v version.Version) (split, max, splitKeys, maxKeys uint64) {
	if v.RegionSize256Default() {
		return 256 * mib, 384 * mib, 2560000, 3840000
	}
	return 96 * mib, 144 * mib, 960000, 1440000
}

// resetsRegionSize: TiKV v8.4.0–v8.5.2 reset undeclared family keys to the
// new defaults at every start (tikv/tikv#18503; fixed in v8.5.3 by tikv/tikv#18545).
func resetsRegionSize(v version.Version) bool { return v.RegionSizeReset() }

func init() {
	register(regionSizeRules()...)
	register(regionTuningRules()...)
}

// regionSizeRules are about the region-size family itself: the v8.4–v8.5.2
// default switch, the family as a set, split against max.
func regionSizeRules() []*Rule {
	return []*Rule{
		&Rule{
			Code: "TF101", Severity: diag.Warning, Live: true,
			Title:    "Region size may switch to 256MiB on upgrade (tikv#18503)",
			Link:     linkTikv18503,
			Versions: "TiKV v8.4.0–v8.5.2 and v9.0.0-beta.1 (declared family, or a planned upgrade into that range); the live check on v8.4.0+",
			Reasoning: "TiKV v8.4.0 raised the default region-split-size from 96MiB to 256MiB. Until v8.5.3, a TiKV " +
				"restart or upgrade gives every region-size key that is not set in the TiKV config file the new " +
				"default, whatever the cluster used before, silently. v8.5.3 fixed it by inheriting unset keys from " +
				"last_tikv.toml, which also means a cluster that already switched stays at 256MiB. The rule fires when " +
				"the family is declared on an affected version (the TiUP topology must carry the same values, or a " +
				"reload brings the defaults back), when a planned upgrade lands in the range, when the live value " +
				"is 256MiB where the declaration, or PD's pre-v8.4 merge threshold, says the cluster ran 96MiB, and " +
				"when upgraded instances report 256MiB while the others still report their old value.",
			Sources: []string{linkTikv18503, "https://github.com/tikv/tikv/pull/18505", "https://github.com/tikv/tikv/pull/18545",
				"https://docs.pingcap.com/tidb/stable/release-8.5.3", "https://github.com/tikv/tikv/pull/17311", linkRegionSize,
				linkDynamicConfig + "#modify-tikv-configuration-dynamically"},
			check: checkRegionUpgrade,
		},
		&Rule{
			Code: "TF102", Severity: diag.Warning,
			Title: "Region-size family declared in part",
			Link:  linkTikv18567,
			Versions: "all versions (the consequence differs: re-derived before v8.4.0, reset on v8.4.0–v8.5.2 and " +
				"v9.0.0-beta.1, inherited from v8.5.3 and v9.0.0-beta.2: tikv/tikv#18505's first tags per line)",
			Reasoning: "coprocessor.region-split-size, region-max-size, region-split-keys and region-max-keys must be " +
				"managed as a set. Before v8.4.0 unset max values are re-derived from the split size only at start " +
				"(an online split change keeps the old max); v8.4.0–v8.5.2 reset unset keys to the new defaults " +
				"(tikv#18503); since v8.5.3 unset keys are inherited from last_tikv.toml, so changing only the split " +
				"size keeps the old max and can even stop TiKV from starting (tikv#18567).",
			Sources: []string{linkTikv18567, linkTikv18503, "https://github.com/tikv/tikv/pull/18505",
				"https://github.com/tikv/tikv/pull/18545", linkRegionSize,
				"tikv/tikv@v8.5.3:src/config/mod.rs (TikvConfig::compatible_adjust, test_inherit_region_size_config)"},
			check: checkRegionFamilyPartial,
		},
		&Rule{
			Code: "TF103", Severity: diag.Error,
			Title:    "Region split size above max size",
			Link:     linkTikv18567,
			Versions: "all versions",
			Reasoning: "TiKV validates its whole configuration on every online change and rejects a split size above " +
				"the max size (`region max size X must >= split size Y`); with inherited keys (v8.5.3+) the same " +
				"mismatch in the config file stops TiKV at start. tiform refuses the plan before TiKV does.",
			Sources: []string{linkTikv18567, "tikv/tikv@v8.5.1:components/raftstore/src/coprocessor/config.rs (Config::validate)",
				"tikv/tikv@v8.5.1:src/config/mod.rs (ConfigController::update_impl)"},
			check: checkRegionSplitAboveMax,
		},
	}
}

// regionTuningRules are about tuning Regions: sizes against the version
// default and the recommended range, values derived from the split size,
// PD's merge thresholds.
func regionTuningRules() []*Rule {
	return []*Rule{
		&Rule{
			Code: "TF104", Severity: diag.Info, Live: true,
			Title:    "Region size below the version default",
			Link:     linkRegionTuning,
			Versions: "TiKV < v8.4.0: below 96MiB; TiKV v8.4.0+: below 256MiB",
			Reasoning: "TiKV v8.4.0 raised the default region-split-size from 96MiB to 256MiB (tikv/tikv#17311): for a " +
				"fixed amount of data, larger Regions mean fewer Regions and less overhead to manage them. Larger " +
				"Regions help large data sets read with multi-row requests and do not help single-row reads or small " +
				"data; they make load balancing coarser and Region moves heavier. The setting is cluster-global.",
			Sources: []string{linkRegionTuning, linkRelease840, "https://github.com/tikv/tikv/pull/17311",
				"https://www.pingcap.com/blog/understanding-raft-region-size-tidb-performance-recovery/"},
			check: checkRegionBelowDefault,
		},
		&Rule{
			Code: "TF105", Severity: diag.Error,
			Title:     "Region size above 1GiB with TiFlash",
			Link:      linkRegionTuning,
			Versions:  "all versions with TiFlash instances",
			Reasoning: "The TiDB documentation says Regions must not exceed 1GiB when TiFlash (or Dumpling) is used.",
			Sources:   []string{linkRegionTuning},
			check:     checkRegionTiFlash,
		},
		&Rule{
			Code: "TF106", Severity: diag.Warning,
			Title:    "Region size outside the recommended range",
			Link:     linkRegionTuning,
			Versions: "all versions",
			Reasoning: "The TiDB documentation recommends region-split-size in [48MiB, 256MiB] (common values 96, 128, " +
				"256MiB), not above 1GiB and never above 10GiB: large Regions cause performance jitter, slower range " +
				"queries and slower scheduling; tiny ones multiply Regions and PD heartbeat load.",
			Sources: []string{linkRegionTuning, "https://www.pingcap.com/blog/understanding-raft-region-size-tidb-performance-recovery/"},
			check:   checkRegionRange,
		},
		&Rule{
			Code: "TF108", Severity: diag.Info,
			Title:    "Raftstore values derived from the split size are not re-derived online",
			Link:     linkTikvConfig,
			Versions: "all versions",
			Reasoning: "When they are not set, TiKV derives raftstore.region-split-check-diff (split size / 16), " +
				"raft-log-gc-size-limit (split size × 3/4) and raft-log-gc-count-limit (split size × 3/4 / 1KiB) from " +
				"region-split-size once, at start. An online change of region-split-size leaves them at the old values " +
				"until the next restart; they are online-changeable themselves.",
			Sources: []string{linkTikvConfig + "#region-split-check-diff",
				"tikv/tikv@v8.5.1:components/raftstore/src/store/config.rs (Config::validate; derived, not documented)"},
			check: checkRaftstoreDerived,
		},
		&Rule{
			Code: "TF107", Severity: diag.Warning, Live: true,
			Title:    "PD merge threshold not scaled with the split size",
			Link:     linkPDConfig,
			Versions: "all versions (PD defaults: 20MiB before v8.4.0, 54MiB from v8.4.0; kept on upgrade)",
			Reasoning: "PD's merge thresholds were scaled with TiKV's split size (20MiB for 96MiB, 54MiB for 256MiB, " +
				"keys = size × 10000). PD keeps its stored value across upgrades (derived from " +
				"tikv/pd@v8.5.1:server/config/persist_options.go PersistOptions.Reload; not documented), so a cluster " +
				"bootstrapped before v8.4 keeps 20 after its Regions grow to 256MiB; a merge threshold above half the " +
				"split size lets " +
				"merged Regions split again (ping-pong). PD merges only Regions under both the size and the keys " +
				"threshold, so a stored max-merge-region-keys far below size × 10000 (200000 from before v8.4) " +
				"defeats a raised size.",
			Sources: []string{linkPDConfig + "#max-merge-region-size", linkRelease840, "https://github.com/tikv/pd/pull/8445",
				"https://github.com/tikv/pd/pull/5084", "tikv/pd@v8.5.1:server/config/persist_options.go (PersistOptions.Reload)"},
			check: checkMergeScaled,
		},
	}
}

// familyAnchor returns the declared family setting findings about the family
// point at: region-split-size if declared (type-wide first), else the first
// declared key of the family.
func (c *context) familyAnchor() *state.ConfigSetting {
	for _, k := range regionFamily {
		if ss := c.settings(state.TiKV, k); len(ss) > 0 {
			s := ss[0]
			return &s
		}
	}
	return nil
}

// declaredBytes parses a declared size setting.
func declaredBytes(s *state.ConfigSetting) (uint64, bool) {
	if s == nil {
		return 0, false
	}
	return parseBytes(s.Value.Text)
}

func declaredCount(s *state.ConfigSetting) (uint64, bool) {
	if s == nil {
		return 0, false
	}
	return parseCount(s.Value.Text)
}

// liveSplitSizes parses the live region-split-size of every TiKV instance.
func (c *context) liveSplitSizes() []uint64 {
	var out []uint64
	for _, r := range c.liveConfig(state.TiKV, keySplitSize) {
		if b, ok := parseBytes(r.Value); ok {
			out = append(out, b)
		}
	}
	return out
}

// liveMergeSize returns PD's live schedule.max-merge-region-size in MiB.
func (c *context) liveMergeSize() (uint64, bool) {
	for _, r := range c.liveConfig(state.PD, keyMergeSize) {
		if n, ok := parseCount(r.Value); ok {
			return n, true
		}
	}
	return 0, false
}

func checkRegionUpgrade(c *context) []Finding {
	tv, ok := c.version(state.TiKV)
	if !ok {
		return nil
	}
	anchor := c.familyAnchor()
	f := Finding{Address: state.ConfigAddress(state.TiKV, "", keySplitSize).String(), Range: c.d.Range}
	if anchor != nil {
		f.Address = state.ConfigAddress(state.TiKV, anchor.Instance, anchor.Key).String()
		f.Range = anchor.Range
	}
	var paras []string

	// Live value 256MiB where the declaration or PD says 96MiB (the detection
	// tikv/tikv#18503 describes: compare the live value with the intended one).
	if tv.RegionSize256Default() {
		if summary, para := c.regionSwitchedOnUpgrade(tv); summary != "" {
			f.Summary = summary
			paras = append(paras, para)
		}
	}

	// Mid-upgrade: restarted instances already report 256MiB, the others
	// still their old value (tikv/tikv#18503 during a rolling upgrade).
	if f.Summary == "" && c.setting(state.TiKV, "", keySplitSize) == nil {
		if up, rest := c.splitDisagreement(); len(up) > 0 && len(rest) > 0 {
			f.Summary = fmt.Sprintf("TiKV instances disagree on region-split-size: %d report 256MiB, %d do not "+
				"(tikv#18503 during an upgrade)", len(up), len(rest))
			paras = append(paras, fmt.Sprintf("Instances on TiKV v8.4.0+ report 256MiB (%s) while others report %s. "+
				"That is tikv#18503 in the middle of a rolling upgrade: every TiKV that restarts on v8.4.0–v8.5.2 takes the "+
				"v8.4 default for region-size keys that are not set in its config file, and from v8.5.3 on it keeps "+
				"(inherits) whatever it ran last. Declare the size you want (all four keys) and put it in the TiUP topology "+
				"(`tiup cluster edit-config %s`, server_configs.tikv) before the remaining instances restart; to keep the old "+
				"size use 96MiB, 144MiB, 960000, 1440000.", strings.Join(up, ", "), strings.Join(rest, ", "), c.clusterName()))
		}
	}

	// A planned upgrade into the affected range (tikv/tikv#18503).
	if t, ok := c.in.TargetVersions[state.TiKV]; ok && tv.Before(8, 4, 0) && resetsRegionSize(t) {
		if f.Summary == "" {
			f.Summary = fmt.Sprintf("upgrading TiKV to %s may switch the Region size to 256MiB (tikv#18503)", t.Short())
		}
		paras = append(paras, fmt.Sprintf("The cluster runs TiKV %s (default region-split-size 96MiB). %s is in the range "+
			"v8.4.0–v8.5.2: after the upgrade, region-size keys that are not set explicitly take the new defaults (256MiB, "+
			"384MiB, 2560000, 3840000) without any error, and PD's merge threshold stays at its old value. Upgrade straight "+
			"to v8.5.3 or later (unset keys are then inherited from last_tikv.toml and stay as they are), or set all four "+
			"keys in the TiUP topology (`tiup cluster edit-config %s`) before upgrading.", tv.Short(), t.Short(), c.clusterName()))
	}

	// The family declared on an affected version.
	if c.hcl && anchor != nil && resetsRegionSize(tv) {
		if f.Summary == "" {
			f.Summary = fmt.Sprintf("on TiKV %s the Region size may switch to 256MiB at the next restart or upgrade (tikv#18503)", tv.Short())
		}
		p := fmt.Sprintf("TiKV %s (the lowest TiKV version in the cluster) is in the range v8.4.0–v8.5.2 affected by "+
			"tikv#18503: at every restart or upgrade, a region-size key that is not set in the TiKV config file takes the "+
			"v8.4 default (region-split-size 256MiB, region-max-size 384MiB, region-split-keys 2560000, region-max-keys "+
			"3840000). A value changed online (SET CONFIG, as tiform applies it) is written into the TiKV config file, "+
			"but `tiup cluster reload` and `upgrade` regenerate that file from the TiUP topology: put the same four values in "+
			"the topology, and prefer TiKV v8.5.3 or later (fixed).", tv.Short())
		if missing := c.missingFamily(anchor.Instance); len(missing) > 0 {
			p += " Not declared here, and therefore exposed: " + strings.Join(missing, ", ") + "."
		}
		if edit := c.topologyEdit(c.declaredFamily(anchor.Instance)...); edit != "" {
			p += " The declared ones, for the topology:\n\n" + edit
		}
		paras = append(paras, p)
	}
	if len(paras) == 0 {
		return nil
	}
	f.Detail = strings.Join(paras, "\n\n")
	return []Finding{f}
}

// regionSwitchedOnUpgrade: on a version whose default split size is 256MiB,
// the live value is 256MiB where the declaration or PD says 96MiB (the
// detection tikv/tikv#18503 describes: compare the live value with the
// intended one). It returns the finding's summary and paragraph, or "".
func (c *context) regionSwitchedOnUpgrade(tv version.Version) (summary, para string) {
	sizes := c.liveSplitSizes()
	n256 := 0
	for _, b := range sizes {
		if b == 256*mib {
			n256++
		}
	}
	declared := c.setting(state.TiKV, "", keySplitSize)
	db, dok := declaredBytes(declared)
	merge, mok := c.liveMergeSize()
	after := "v8.5.3 and later inherit the current value from last_tikv.toml, so upgrading does not revert it."
	switch {
	case n256 > 0 && dok && db != 256*mib:
		summary = fmt.Sprintf("TiKV reports region-split-size 256MiB but %s is declared: switched on upgrade (tikv#18503)",
			catalog.FormatSize(db))
		para = fmt.Sprintf("%d of %d TiKV instances (lowest version %s) report region-split-size 256MiB, "+
			"the v8.4 default, although this configuration declares %s. TiKV v8.4.0–v8.5.2 give every region-size key "+
			"that is not set in the TiKV config file the new default at the upgrade restart (tikv#18503); %s "+
			"This plan sets the declared value back online; also write all four region-size keys into the TiUP topology "+
			"so that the next reload or upgrade keeps them:\n\n%s",
			n256, len(sizes), tv.Short(), catalog.FormatSize(db), after, c.topologyEdit(c.declaredFamily("")...))
	case n256 > 0 && declared == nil && mok && merge == 20:
		summary = "Region size is 256MiB while PD keeps the pre-v8.4 merge size 20: likely switched on upgrade (tikv#18503)"
		para = fmt.Sprintf("%d of %d TiKV instances (lowest version %s) report region-split-size 256MiB, "+
			"but PD's schedule.max-merge-region-size is 20, the default of clusters bootstrapped before v8.4.0 (PD keeps "+
			"its stored value on upgrade). That is what tikv#18503 leaves behind: TiKV v8.4.0–v8.5.2 reset undeclared "+
			"region-size keys to the new default at the upgrade restart, silently; %s Decide deliberately and declare the "+
			"choice: keep 256MiB (fewer Regions, the v8.4 default: https://docs.pingcap.com/tidb/stable/tune-region-performance) and raise "+
			"schedule.max-merge-region-size to 54 and max-merge-region-keys to 540000, or return to 96MiB by setting all "+
			"four region-size keys (96MiB, 144MiB, 960000, 1440000).", n256, len(sizes), tv.Short(), after)
	}
	return summary, para
}

// missingFamily lists the family keys not declared for instance (type-wide
// declarations count for every instance).
func (c *context) missingFamily(instance string) []string {
	var missing []string
	for _, k := range regionFamily {
		if c.setting(state.TiKV, "", k) == nil && (instance == "" || c.setting(state.TiKV, instance, k) == nil) {
			missing = append(missing, k)
		}
	}
	return missing
}

// declaredFamily returns the region-size keys declared type-wide and, for
// instance, for that instance, in family order: what the topology must say.
func (c *context) declaredFamily(instance string) []state.ConfigSetting {
	var out []state.ConfigSetting
	for _, k := range regionFamily {
		if s := c.setting(state.TiKV, "", k); s != nil {
			out = append(out, *s)
		}
		if s := c.setting(state.TiKV, instance, k); instance != "" && s != nil {
			out = append(out, *s)
		}
	}
	return out
}

// familyGroups returns "" (type-wide) and every instance with a per-instance
// declaration of a family key, in declaration order.
func (c *context) familyGroups() []string {
	groups := []string{""}
	seen := map[string]bool{"": true}
	for _, s := range c.d.Config {
		if s.Component != state.TiKV || seen[s.Instance] {
			continue
		}
		for _, k := range regionFamily {
			if strings.EqualFold(s.Key, k) {
				groups = append(groups, s.Instance)
				seen[s.Instance] = true
				break
			}
		}
	}
	return groups
}

func checkRegionFamilyPartial(c *context) []Finding {
	tv, known := c.version(state.TiKV)
	var out []Finding
	wideMissing := ""
	for _, inst := range c.familyGroups() {
		var declared []*state.ConfigSetting
		for _, k := range regionFamily {
			if s := c.setting(state.TiKV, inst, k); s != nil {
				declared = append(declared, s)
			} else if s := c.setting(state.TiKV, "", k); s != nil && inst != "" {
				declared = append(declared, s)
			}
		}
		missing := c.missingFamily(inst)
		if len(declared) == 0 || len(missing) == 0 {
			continue
		}
		key := strings.Join(missing, ",")
		if inst == "" {
			wideMissing = key
		} else if key == wideMissing {
			continue // already reported on the type-wide declaration
		}
		anchor := declared[0]
		for _, s := range declared {
			if strings.EqualFold(s.Key, keySplitSize) && s.Instance == inst {
				anchor = s
			}
		}
		f := Finding{
			Address: state.ConfigAddress(state.TiKV, inst, anchor.Key).String(),
			Range:   anchor.Range,
			Summary: "region-size family declared in part: " + strings.Join(missing, ", ") + " not declared",
		}
		var why string
		switch {
		case !known:
			why = "TiKV's version is unknown. Depending on it, undeclared keys are re-derived from region-split-size at " +
				"start (before v8.4.0), reset to the v8.4 defaults (v8.4.0–v8.5.2, tikv#18503) or inherited from " +
				"last_tikv.toml (v8.5.3+, tikv#18567)."
			f.Link = linkTikv18567
		case tv.InheritsRegionSize():
			why = fmt.Sprintf("On TiKV %s, keys that are not set in the TiKV config file are inherited from "+
				"<data-dir>/last_tikv.toml at every start, not re-derived from region-split-size: changing only the split "+
				"size keeps the old max size, and a split size above the inherited max stops TiKV from starting "+
				"(tikv#18567, \"expected\" since the tikv#18503 fix).", tv.Short())
			f.Link = linkTikv18567
		case resetsRegionSize(tv):
			why = fmt.Sprintf("On TiKV %s, keys that are not set in the TiKV config file take the v8.4 defaults "+
				"(256MiB, 384MiB, 2560000, 3840000) at every restart or upgrade (tikv#18503), whatever the split size is.",
				tv.Short())
			f.Link = linkTikv18503
		default:
			why = fmt.Sprintf("On TiKV %s, undeclared max values are re-derived from region-split-size (× 1.5) only at "+
				"start; an online change of region-split-size leaves them as they are until the next restart, and TiKV "+
				"validates every change against them.", tv.Short())
			f.Link = linkRegionTuning
		}
		f.Detail = why + " Declare all four keys together."
		if split, ok := declaredBytes(c.effectiveSetting(inst, keySplitSize)); ok {
			f.Detail += " Derived from region-split-size = " + catalog.FormatSize(split) + ": " + suggestFamily(split, missing) + "."
		}
		out = append(out, f)
	}
	return out
}

// effectiveSetting returns the declared setting for instance, falling back to
// the type-wide one.
func (c *context) effectiveSetting(instance, key string) *state.ConfigSetting {
	if instance != "" {
		if s := c.setting(state.TiKV, instance, key); s != nil {
			return s
		}
	}
	return c.setting(state.TiKV, "", key)
}

// suggestFamily renders TiKV's own derivation (max = split / 2 × 3, keys =
// split in MiB × 10000: tikv/tikv@v8.5.1:components/raftstore/src/coprocessor/config.rs,
// Config::validate) for the missing keys.
func suggestFamily(split uint64, missing []string) string {
	keys := split / mib * 10000
	vals := map[string]string{
		keyMaxSize:   fmt.Sprintf("%s = %q", keyMaxSize, catalog.FormatSize(split/2*3)),
		keySplitKeys: fmt.Sprintf("%s = %d", keySplitKeys, keys),
		keyMaxKeys:   fmt.Sprintf("%s = %d", keyMaxKeys, keys/2*3),
	}
	var out []string
	for _, k := range missing {
		if v, ok := vals[k]; ok {
			out = append(out, v)
		}
	}
	return strings.Join(out, ", ")
}

func checkRegionSplitAboveMax(c *context) []Finding {
	var out []Finding
	for _, inst := range c.familyGroups() {
		for _, pair := range []struct {
			split, max string
			size       bool
		}{{keySplitSize, keyMaxSize, true}, {keySplitKeys, keyMaxKeys, false}} {
			ds, dm := c.effectiveSetting(inst, pair.split), c.effectiveSetting(inst, pair.max)
			if ds == nil && dm == nil {
				continue
			}
			parse := parseCount
			render := func(n uint64) string { return fmt.Sprint(n) }
			if pair.size {
				parse, render = parseBytes, catalog.FormatSize
			}
			split, sok := c.effectiveValue(inst, ds, pair.split, parse, true)
			max, mok := c.effectiveValue(inst, dm, pair.max, parse, false)
			if !sok || !mok || split <= max {
				continue
			}
			anchor := ds
			if anchor == nil {
				anchor = dm
			}
			src := func(s *state.ConfigSetting) string {
				if s == nil {
					return " (live)"
				}
				return ""
			}
			out = append(out, Finding{
				Address: state.ConfigAddress(state.TiKV, anchor.Instance, anchor.Key).String(),
				Range:   anchor.Range,
				Summary: fmt.Sprintf("%s %s%s exceeds %s %s%s: TiKV rejects it", pair.split, render(split), src(ds),
					pair.max, render(max), src(dm)),
				Detail: fmt.Sprintf("TiKV validates its whole configuration on every online change and rejects a split "+
					"value above the max value (\"region max size %s must >= split size %s\"); since v8.5.3 the same "+
					"mismatch in the config file (an undeclared max inherited from last_tikv.toml) stops TiKV at start "+
					"(tikv#18567). Declare %s of at least %s; TiKV's own derivation is split / 2 × 3 = %s.",
					render(max), render(split), pair.max, render(split), render(split/2*3)),
			})
		}
	}
	return out
}

// effectiveValue is the declared value, or else the live one: for a split
// value the largest live value, for a max value the smallest (the pair that
// TiKV would reject first).
func (c *context) effectiveValue(inst string, s *state.ConfigSetting, key string,
	parse func(string) (uint64, bool), largest bool) (uint64, bool) {
	if s != nil {
		return parse(s.Value.Text)
	}
	var best uint64
	found := false
	for _, r := range c.liveConfig(state.TiKV, key) {
		if inst != "" && r.Instance != inst {
			continue
		}
		n, ok := parse(r.Value)
		if !ok {
			continue
		}
		if !found || largest && n > best || !largest && n < best {
			best, found = n, true
		}
	}
	return best, found
}

func checkRegionBelowDefault(c *context) []Finding {
	tv, ok := c.version(state.TiKV)
	if !ok {
		return nil
	}
	def, _, _, _ := regionDefaults(tv)
	var size uint64
	f := Finding{Address: state.ConfigAddress(state.TiKV, "", keySplitSize).String()}
	if c.hcl {
		s := c.setting(state.TiKV, "", keySplitSize)
		b, ok := declaredBytes(s)
		if !ok {
			return nil
		}
		size, f.Range = b, s.Range
	} else {
		sizes := c.liveSplitSizes()
		if len(sizes) == 0 {
			return nil
		}
		size = sizes[0]
		for _, b := range sizes {
			size = min(size, b)
		}
	}
	if size >= def {
		return nil
	}
	f.Summary = fmt.Sprintf("region-split-size %s is below the TiKV %s default %s", catalog.FormatSize(size), tv.Short(), catalog.FormatSize(def))
	f.Detail = fmt.Sprintf("If you run below the current default, consider raising it. TiKV v8.4.0 raised the default " +
		"region-split-size from 96MiB to 256MiB (tikv/tikv#17311): for a fixed amount of data, larger Regions mean " +
		"fewer Regions and less overhead to manage them (https://docs.pingcap.com/tidb/stable/tune-region-performance). Larger " +
		"Regions help large data sets read with multi-row requests (fewer KvBatchGet and Coprocessor RPCs) and do not " +
		"help single-row reads or small data sets. Trade-offs: coarser load balancing and hotspot isolation, heavier " +
		"Region moves and snapshots. The setting is cluster-global (no per-table value). If you raise it, raise the whole " +
		"family (region-max-size = split / 2 × 3, keys = MiB × 10000) and PD's merge thresholds with it (TF107).")
	return []Finding{f}
}

func checkRegionTiFlash(c *context) []Finding {
	if !c.hasInstances(state.TiFlash) {
		return nil
	}
	var out []Finding
	for _, s := range c.settings(state.TiKV, keySplitSize) {
		b, ok := parseBytes(s.Value.Text)
		if !ok || b <= gib {
			continue
		}
		out = append(out, Finding{
			Address: state.ConfigAddress(state.TiKV, s.Instance, s.Key).String(),
			Range:   s.Range,
			Summary: fmt.Sprintf("region-split-size %s exceeds 1GiB on a cluster with TiFlash", catalog.FormatSize(b)),
			Detail: "The TiDB documentation says Regions must not exceed 1GiB when TiFlash (or Dumpling) is used. " +
				"Keep region-split-size at 1GiB or less (recommended range 48MiB–256MiB); for large Regions consider " +
				"coprocessor.enable-region-bucket (experimental) instead.",
		})
	}
	return out
}

func checkRegionRange(c *context) []Finding {
	tiflash := c.hasInstances(state.TiFlash)
	var out []Finding
	for _, s := range c.settings(state.TiKV, keySplitSize) {
		b, ok := parseBytes(s.Value.Text)
		if !ok || b >= 48*mib && b <= 256*mib || tiflash && b > gib {
			continue // in range, or TF105's error already covers it
		}
		f := Finding{
			Address: state.ConfigAddress(state.TiKV, s.Instance, s.Key).String(),
			Range:   s.Range,
			Summary: fmt.Sprintf("region-split-size %s is outside the recommended range 48MiB–256MiB", catalog.FormatSize(b)),
		}
		if b < 48*mib {
			f.Detail = "Small Regions multiply the Region count: more Raft groups, more PD heartbeat traffic and memory, " +
				"more scheduling work. The TiDB documentation recommends 48MiB–256MiB (common values 96, 128 and 256MiB)."
		} else {
			f.Detail = "The TiDB documentation recommends 48MiB–256MiB, never more than 1GiB and strongly not more than " +
				"10GiB: large Regions cause performance jitter, slower range queries, slower and riskier Region moves " +
				"and snapshots. After enlarging Regions lower Dumpling's concurrency (OOM risk), and consider " +
				"coprocessor.enable-region-bucket (experimental) with region-bucket-size."
			if b > 10*gib {
				f.Detail += " " + catalog.FormatSize(b) + " is above 10GiB."
			}
		}
		out = append(out, f)
	}
	return out
}

func checkMergeScaled(c *context) []Finding {
	// Effective split size: declared type-wide, else the largest live value.
	var split uint64
	var rng diag.SourceRange
	if s := c.setting(state.TiKV, "", keySplitSize); s != nil {
		b, ok := declaredBytes(s)
		if !ok {
			return nil
		}
		split, rng = b, s.Range
	} else {
		sizes := c.liveSplitSizes()
		if len(sizes) == 0 {
			return nil
		}
		for _, b := range sizes {
			split = max(split, b)
		}
	}
	var merge uint64
	addr := state.ConfigAddress(state.PD, "", keyMergeSize).String()
	if s := c.setting(state.PD, "", keyMergeSize); s != nil {
		n, ok := declaredCount(s)
		if !ok {
			return nil
		}
		merge, rng = n, s.Range
	} else {
		n, ok := c.liveMergeSize()
		if !ok {
			return nil
		}
		merge = n
	}
	if merge == 0 || split < mib {
		return nil // merging disabled on purpose, or a split size too small to reason about
	}
	out := c.mergeKeysScaled(merge)
	splitMiB := float64(split) / mib
	suggested := uint64(math.Max(1, math.Round(splitMiB*54/256)))
	var effect string
	switch {
	case float64(merge)*2 < float64(suggested):
		effect = "Regions that shrink (after deletes, TTL or drops) stay unmerged far below the split size, so the " +
			"Region count and heartbeat load stay higher than needed"
	case float64(merge)*2 > splitMiB:
		effect = "two merged Regions can exceed the split size and split again right after merging (split/merge ping-pong)"
	default:
		return out
	}
	return append(out, Finding{
		Address: addr,
		Range:   rng,
		Summary: fmt.Sprintf("PD merges Regions up to %dMiB, not scaled with region-split-size %s: set %s = %d",
			merge, catalog.FormatSize(split), keyMergeSize, suggested),
		Detail: fmt.Sprintf("PD's defaults keep the merge threshold at about 21%% of TiKV's split size (20MiB for 96MiB; "+
			"54MiB for 256MiB since v8.4.0, tikv/pd#8445) and %s = size × 10000. With %dMiB against %s Regions, %s. "+
			"Suggested: %s = %d and %s = %d (or leave the keys unset: PD derives size × 10000). PD keeps its stored "+
			"value across upgrades, so clusters bootstrapped before v8.4 still have 20.",
			keyMergeKeys, merge, catalog.FormatSize(split), effect, keyMergeSize, suggested, keyMergeKeys, suggested*10000),
	})
}

// mergeKeysScaled checks schedule.max-merge-region-keys against the merge
// size: PD merges only Regions under both limits, so keys far below
// size × 10000 make the size threshold moot (tikv/pd#5084;
// tikv/pd@v8.5.1:pkg/schedule/config/config.go ScheduleConfig.GetMaxMergeRegionKeys).
func (c *context) mergeKeysScaled(mergeMiB uint64) []Finding {
	var keys uint64
	var rng diag.SourceRange
	if s := c.setting(state.PD, "", keyMergeKeys); s != nil {
		n, ok := declaredCount(s)
		if !ok {
			return nil
		}
		keys, rng = n, s.Range
	} else {
		found := false
		for _, r := range c.liveConfig(state.PD, keyMergeKeys) {
			if n, ok := parseCount(r.Value); ok {
				keys, found = n, true
				break
			}
		}
		if !found {
			return nil
		}
		if s := c.setting(state.PD, "", keyMergeSize); s != nil {
			rng = s.Range
		}
	}
	want := mergeMiB * 10000
	if keys == 0 || keys*2 >= want {
		return nil
	}
	return []Finding{{
		Address: state.ConfigAddress(state.PD, "", keyMergeKeys).String(),
		Range:   rng,
		Summary: fmt.Sprintf("%s = %d caps merges below %s = %d: set it to %d", keyMergeKeys, keys, keyMergeSize, mergeMiB, want),
		Detail: fmt.Sprintf("PD merges a Region only when it is under both thresholds. %d keys is about %dMiB of typical "+
			"data (PD's ratio is 10000 keys per MiB), far below the %dMiB size threshold, so the size threshold has little "+
			"effect. This is typical after raising %s on a cluster bootstrapped before v8.4, whose stored keys value "+
			"(200000) survives upgrades. Set %s = %d, or leave it unset so that PD derives size × 10000.",
			keys, keys/10000, mergeMiB, keyMergeSize, keyMergeKeys, want),
	}}
}

// splitDisagreement lists TiKV instances on v8.4.0+ reporting a 256MiB
// region-split-size ("addr vX") and instances reporting another value
// ("addr: value"), in CLUSTER_INFO order.
func (c *context) splitDisagreement() (up, rest []string) {
	for _, in := range c.l.Instances {
		if in.Component != state.TiKV {
			continue
		}
		v, ok := c.liveConfigOn(state.TiKV, in.Address, keySplitSize)
		if !ok {
			continue
		}
		b, ok := parseBytes(v)
		if !ok {
			continue
		}
		if b == 256*mib && in.Version.RegionSize256Default() {
			up = append(up, in.Address+" "+in.Version.Short())
		} else if b != 256*mib {
			rest = append(rest, fmt.Sprintf("%s %s: %s", in.Address, in.Version.Short(), catalog.FormatSize(b)))
		}
	}
	return up, rest
}

// raftstoreDerived are the raftstore items TiKV derives from
// region-split-size at start when unset (derived from
// tikv/tikv@v8.5.1:components/raftstore/src/store/config.rs, Config::validate); derive
// renders the value as an HCL literal.
var raftstoreDerived = []struct {
	key    string
	derive func(split uint64) string
}{
	{"raftstore.region-split-check-diff", func(b uint64) string { return fmt.Sprintf("%q", catalog.FormatSize(b/16)) }},
	{"raftstore.raft-log-gc-size-limit", func(b uint64) string { return fmt.Sprintf("%q", catalog.FormatSize(b/4*3)) }},
	{"raftstore.raft-log-gc-count-limit", func(b uint64) string { return fmt.Sprint(b / 4 * 3 / kib) }},
}

func checkRaftstoreDerived(c *context) []Finding {
	var out []Finding
	for _, ch := range c.configChanges() {
		if ch.Addr.Component != state.TiKV || !strings.EqualFold(ch.Addr.Key, keySplitSize) || ch.Action == plans.Delete {
			continue
		}
		split, ok := parseBytes(ch.After)
		if !ok {
			continue
		}
		var todo []string
		for _, d := range raftstoreDerived {
			if c.setting(state.TiKV, ch.Addr.Instance, d.key) != nil || c.setting(state.TiKV, "", d.key) != nil {
				continue
			}
			todo = append(todo, d.key+" = "+d.derive(split))
		}
		if len(todo) == 0 {
			continue
		}
		out = append(out, Finding{
			Address: ch.Addr.String(), Range: ch.Range,
			Summary: "raftstore values derived from region-split-size keep their old values until TiKV restarts",
			Detail: fmt.Sprintf("TiKV derives region-split-check-diff, raft-log-gc-size-limit and raft-log-gc-count-limit "+
				"from region-split-size only at start. After this online change to %s they keep the values derived "+
				"from the old size until the next restart. To have them follow now, declare them as well (they can be "+
				"changed online): %s.", catalog.FormatSize(split), strings.Join(todo, ", ")),
		})
	}
	return out
}

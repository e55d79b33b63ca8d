package guard

import (
	"fmt"
	"strings"

	"github.com/tiform/tiform/catalog"
	"github.com/tiform/tiform/diag"
	"github.com/tiform/tiform/plans"
	"github.com/tiform/tiform/state"
	"github.com/tiform/tiform/tiup"
	"github.com/tiform/tiform/version"
)

// Rules about applying changes: TF140 restart-only items, TF141/TF142 TiUP
// topology notes, TF143 INSTANCE-scoped variables, TF150 settings that do not
// exist in the live version (https://docs.pingcap.com/tidb/stable/dynamic-config and the
// release notes).

const (
	linkTikvConfig = "https://docs.pingcap.com/tidb/stable/tikv-configuration-file"
	linkSysvars    = "https://docs.pingcap.com/tidb/stable/system-variables"
	linkTiup442    = "https://github.com/pingcap/tiup/issues/442"

	// tiform's own behaviour is documented in its docs.
	linkAcknowledge = "https://github.com/tiform/tiform/blob/main/docs/guards.md#acknowledging-a-finding"
	linkIgnore      = "https://github.com/tiform/tiform/blob/main/docs/language.md#accepted-drift-ignore"
)

func init() {
	register(applyRules()...)
	register(ackRules()...)
}

// applyRules are the rules about applying a plan: restart-only items, TiUP
// and PD persistence, INSTANCE-scoped variables, settings the version lacks
// or ignores.
func applyRules() []*Rule {
	return []*Rule{
		&Rule{
			Code: "TF140", Severity: diag.Error,
			Title:    "Restart-only item changed online",
			Link:     linkTikvConfig,
			Versions: "all versions",
			Reasoning: "SET CONFIG never fails the statement for per-instance problems: a TiKV item marked " +
				"`#[online_config(skip)]` (resource-control.enabled, resource-control.historical-usage-window-mins, " +
				"coprocessor.consistency-check-method, in-memory-engine.cross-check-interval, …) only produces the " +
				"warning `config <field> can not be changed`, and TiFlash accepts only raftstore-proxy.* items. An " +
				"online apply of such a change cannot work; it belongs in the deployment (TiUP or TiDB Operator) with " +
				"a rolling restart. Because SET CONFIG reports a failed instance only as a warning " +
				"(pingcap/tidb#59856) and instances can answer one statement differently (pingcap/tidb#59857), apply " +
				"reads SHOW WARNINGS after every SET CONFIG and reads every instance back, and its report names each " +
				"instance that did not take the value.",
			Sources: []string{linkTikvConfig, linkDynamicConfig, "https://github.com/pingcap/tidb/issues/59856",
				"https://github.com/pingcap/tidb/issues/59857",
				"internal/upstream/settings.json (#[online_config(skip)] per tikv/tikv tag)"},
			check: checkRestartOnly,
		},
		&Rule{
			Code: "TF141", Severity: diag.Info,
			Title:    "TiUP overwrites online TiKV changes",
			Link:     linkDynamicConfig,
			Versions: "all versions (TiUP deployments)",
			Reasoning: "TiKV writes an online change back into its config file, but `tiup cluster reload` and " +
				"`upgrade` regenerate that file from the TiUP topology and overwrite it. The same value must go into " +
				"the topology with `tiup cluster edit-config` (no reload needed afterwards).",
			Sources: []string{linkDynamicConfig + "#modify-tikv-configuration-dynamically", "https://github.com/pingcap/tiup/issues/1918"},
			check:   checkTiUPTiKV,
		},
		&Rule{
			Code: "TF142", Severity: diag.Info,
			Title:    "PD changes live in etcd, not in the TiUP topology",
			Link:     linkTiup442,
			Versions: "all versions (TiUP deployments)",
			Reasoning: "PD persists online changes in etcd, and etcd prevails over the config file on every start. " +
				"Editing PD schedule/replication settings in the TiUP topology after bootstrap has no effect; a value " +
				"left there only misleads the next reader.",
			Sources: []string{linkTiup442, "https://github.com/pingcap/tiup/issues/835", "https://github.com/pingcap/tidb-operator/issues/487",
				linkDynamicConfig + "#modify-pd-configuration-dynamically",
				"tikv/pd@v8.5.1:server/config/persist_options.go (PersistOptions.Reload)"},
			check: checkTiUPPD,
		},
		&Rule{
			Code: "TF143", Severity: diag.Error,
			Title:    "INSTANCE-scoped variable",
			Link:     linkSysvars,
			Versions: "all versions",
			Reasoning: "SET GLOBAL on an INSTANCE-scoped variable (max_connections, tidb_slow_log_threshold, …) changes " +
				"only the TiDB instance tiform is connected to and is lost when it restarts; the other TiDB instances " +
				"keep their value. tiform refuses unless the configuration opts in to per-instance application.",
			Sources: []string{linkSysvars, "internal/upstream/settings.json (scope per pingcap/docs-cn release branch)"},
			check:   checkInstanceVariables,
		},
		&Rule{
			Code: "TF150", Severity: diag.Error,
			Title:    "Setting does not exist in this version",
			Link:     linkSysvars,
			Versions: "per setting (catalog: introduced / removed versions)",
			Reasoning: "Variables and config items come and go between releases, including patch releases (several " +
				"variables are new in v8.5.3–v8.5.7; log_bin and sql_log_bin were removed in v8.4.0). A name that is no " +
				"setting in any version tiform knows (v6.5.0 to v8.5.x and master) and that the cluster does not report " +
				"is refused too, with the nearest known name. Setting one the live version does not have fails " +
				"(`Unknown system variable`) or becomes a SET CONFIG warning " +
				"(`unexpect fields`). Resource-group options have their own history (PRIORITY v7.0.0, QUERY_LIMIT " +
				"v7.2.0, BACKGROUND v7.4.0, PROCESSED_KEYS/RU/SWITCH_GROUP/UTILIZATION_LIMIT v8.4.0, BURSTABLE = " +
				"MODERATED v9.0.0). The finding names the versions where the setting exists.",
			Sources: []string{linkSysvars, linkTikvConfig, "internal/upstream/settings.json (every setting per release tag)"},
			check:   checkExistsInVersion,
		},
		&Rule{
			Code: "TF153", Severity: diag.Warning,
			Title:    "Deprecated setting: no effect in this version",
			Link:     linkSysvars,
			Versions: "per setting (catalog: deprecated version)",
			Reasoning: "Deprecated variables still exist, so SET GLOBAL succeeds, but their value is fixed or ignored " +
				"(tidb_enable_telemetry since v8.1.0, tidb_enable_global_index since v8.4.0, tidb_disable_txn_auto_retry " +
				"since v8.0.0, tidb_prepared_plan_cache_size since v7.1.0 in favour of tidb_session_plan_cache_size). A " +
				"declaration that changes nothing misleads its reader.",
			Sources: []string{linkSysvars, "https://docs.pingcap.com/tidb/stable/release-8.0.0", "https://docs.pingcap.com/tidb/stable/release-8.1.0",
				linkRelease840, "https://docs.pingcap.com/tidb/stable/release-7.1.0"},
			check: checkDeprecated,
		},
	}
}

// ackRules are the findings about acknowledgements themselves (evaluate.go
// raises them).
func ackRules() []*Rule {
	return []*Rule{
		&Rule{
			Code: CodeAckExpired, Severity: diag.Warning,
			Title:    "Acknowledgement expired",
			Link:     ackLink,
			Versions: "all versions",
			Reasoning: "An acknowledge block suppresses a code until a date. After that date it suppresses nothing and " +
				"says so, so that a temporary exception cannot become permanent unnoticed.",
			Sources: []string{linkAcknowledge},
		},
		&Rule{
			Code: CodeAckUnused, Severity: diag.Info,
			Title:    "Acknowledgement matches no finding",
			Link:     ackLink,
			Versions: "all versions",
			Reasoning: "An acknowledgement whose code no longer fires is dead configuration; remove it once the " +
				"condition it covered is gone.",
			Sources: []string{linkAcknowledge},
		},
		&Rule{
			Code: CodeAckForever, Severity: diag.Warning,
			Title:    "Acknowledgement without expiry",
			Link:     ackLink,
			Versions: "all versions",
			Reasoning: "An acknowledge block without `until`, or with an `until` more than a year away " +
				"(`9999-12-31`), suppresses its code for ever. It still works, but a suppression is meant to be " +
				"temporary and reviewed, so every plan says so until a date within a year is set.",
			Sources: []string{linkAcknowledge},
		},
		&Rule{
			Code: CodeAckUnknown, Severity: diag.Warning,
			Title:     "Acknowledgement names no rule",
			Link:      ackLink,
			Versions:  "all versions",
			Reasoning: "A misspelt code suppresses nothing while looking as if it did.",
			Sources:   []string{linkAcknowledge},
		},
	}
}

// configChanges returns the planned changes to component config items.
func (c *context) configChanges() []*plans.Change {
	var out []*plans.Change
	for _, ch := range c.in.Changes {
		if ch == nil || ch.Addr.Kind != state.KindConfig || ch.Action == plans.NoOp {
			continue
		}
		switch ch.Addr.Component {
		case state.TiKV, state.PD, state.TiFlash:
			out = append(out, ch)
		}
	}
	return out
}

// tiupSnippet is the topology edit that keeps TiUP in step with a change
// (https://docs.pingcap.com/tidb/stable/dynamic-config): the exact YAML of
// server_configs for a type-wide value, of the host's config for a
// per-instance one (package tiup owns the topology's shape). When the
// configuration does not name the TiUP cluster, it says how to.
// declaredSetting is the setting ch changes, with the value as the
// configuration declares it (the topology takes the declared spelling).
func declaredSetting(c *context, ch *plans.Change) state.ConfigSetting {
	s := state.ConfigSetting{Component: ch.Addr.Component, Instance: ch.Addr.Instance, Key: ch.Addr.Key, Value: state.Value{Text: ch.After}}
	if d, ok := c.declaredOn(ch.Addr.Component, ch.Addr.Instance, ch.Addr.Key); ok {
		s.Value = d.Value
	}
	return s
}

// tiupSnippet is the topology edit that records ch.
func tiupSnippet(c *context, ch *plans.Change) string {
	return c.topologyEdit(declaredSetting(c, ch))
}

func checkRestartOnly(c *context) []Finding {
	var out []Finding
	for _, ch := range c.configChanges() {
		key := strings.ToLower(ch.Addr.Key)
		comp := string(ch.Addr.Component)
		if err := catalog.SetConfigSupported(comp, key); err != nil {
			out = append(out, Finding{
				Address: ch.Addr.String(), Range: ch.Range,
				Summary: fmt.Sprintf("%s %s cannot be changed with SET CONFIG", comp, ch.Addr.Key),
				Detail: fmt.Sprintf("SET CONFIG %s only changes items that begin with \"raftstore-proxy.\"; for %s edit "+
					"the TiFlash config file instead (TiUP: `tiup cluster edit-config %s`, server_configs.tiflash; it takes "+
					"effect without a restart) and remove it from this configuration, or leave it out of online apply.",
					comp, ch.Addr.Key, c.clusterName()),
			})
			continue
		}
		e, known := c.configEntry(comp, key)
		v, _ := c.version(ch.Addr.Component)
		switch {
		case known && (e.OnlineIn(v) || e.RestartIfEnabled):
			continue
		case known && !v.IsZero() && !e.ExistsIn(v):
			continue // TF150: the version does not have it at all
		case !known:
			continue // the catalog has every key of the versions it covers
		case key == "in-memory-engine.enable":
			continue // TF131
		}
		note := ""
		if known {
			note = strings.ReplaceAll(e.RestartNote, "<cluster>", c.clusterName())
			if on := e.OnlineText(); on != "" {
				note = fmt.Sprintf("restart-only on %s %s (%s). Upgrade first, or change "+
					"it in the deployment: TiUP `tiup cluster edit-config %s` then `tiup cluster reload %s -R %s`",
					comp, v.Short(), on, c.clusterName(), c.clusterName(), comp)
			}
		}
		if note == "" {
			note = fmt.Sprintf("restart-only: SET CONFIG answers the warning \"config <field> can not be changed\". "+
				"Change it in the deployment instead: TiUP `tiup cluster edit-config %s` then `tiup cluster reload %s -R %s`; "+
				"TiDB Operator: edit spec.%s.config of the TidbCluster (rolling restart)",
				c.clusterName(), c.clusterName(), comp, comp)
		}
		out = append(out, Finding{
			Address: ch.Addr.String(), Range: ch.Range,
			Summary: fmt.Sprintf("%s %s is restart-only: an online apply cannot change it", comp, ch.Addr.Key),
			Detail: fmt.Sprintf("%s.\n\n%s\n\n%s\n\nThen remove the setting from this configuration (or acknowledge TF140 "+
				"with the date of the planned restart) so that apply does not try it online.",
				upperFirst(note), c.deploymentRoute(state.Component(comp)), tiupSnippet(c, ch)),
		})
	}
	return out
}

func checkTiUPTiKV(c *context) []Finding {
	// Restart-only items (TF140), changes that cannot go online on this
	// version (TF144, TF145) and in-memory-engine.enable (TF131) carry their
	// own topology step with a reload: "no reload needed" would be wrong.
	restart := map[string]bool{}
	for _, f := range append(append(checkRestartOnly(c), checkFullCompactOnline(c)...), checkStoreIOPoolMode(c)...) {
		restart[f.Address] = true
	}
	var changes []*plans.Change
	for _, ch := range c.configChanges() {
		if ch.Addr.Component != state.TiKV || ch.Action == plans.Delete || restart[ch.Addr.String()] ||
			strings.EqualFold(ch.Addr.Key, keyIMEEnable) {
			continue
		}
		changes = append(changes, ch)
	}
	if len(changes) == 0 {
		return nil
	}
	// One topology edit records every such change: each finding carries it
	// whole, so that a reader edits the topology once, and a view that
	// groups the findings shows it once.
	settings := make([]state.ConfigSetting, len(changes))
	for i, ch := range changes {
		settings[i] = declaredSetting(c, ch)
	}
	detail := fmt.Sprintf("TiKV writes the online change into its config file, but TiUP regenerates that file from "+
		"the topology on reload and upgrade. Record the same values in the topology (no reload needed afterwards):\n\n%s",
		c.topologyEdit(settings...))
	out := make([]Finding, len(changes))
	for i, ch := range changes {
		out[i] = Finding{
			Address: ch.Addr.String(), Range: ch.Range,
			Summary: "keep the TiUP topology in step: `tiup cluster reload`/`upgrade` would overwrite this online change",
			Detail:  detail,
		}
	}
	return out
}

func checkTiUPPD(c *context) []Finding {
	var out []Finding
	for _, ch := range c.configChanges() {
		if ch.Addr.Component != state.PD || ch.Action == plans.Delete {
			continue
		}
		out = append(out, Finding{
			Address: ch.Addr.String(), Range: ch.Range,
			Summary: "PD keeps this change in etcd: the TiUP topology's server_configs.pd no longer controls it",
			Detail: fmt.Sprintf("PD persists online changes in etcd, which prevails over the config file on every start; "+
				"editing server_configs.pd.%s with `tiup cluster edit-config %s` and reloading has no effect after "+
				"bootstrap (pingcap/tiup#442). Keep this configuration as the source of truth, and remove or align a "+
				"stale %s in the TiUP topology so that it does not mislead.", ch.Addr.Key, c.clusterName(), ch.Addr.Key),
		})
	}
	return out
}

func checkInstanceVariables(c *context) []Finding {
	if c.d.AllowInstanceVariables {
		return nil
	}
	var out []Finding
	for _, v := range c.d.Variables {
		name := strings.ToLower(v.Name)
		e, known := c.variableEntry(name)
		tidb, _ := c.version(state.TiDB)
		if !known || e.ScopeIn(tidb) != catalog.ScopeInstance {
			continue
		}
		where := "the TiDB instance tiform is connected to"
		if c.l.ConnectedInstance != "" {
			where += " (" + c.l.ConnectedInstance + ")"
		}
		n := len(c.l.InstancesOf(state.TiDB))
		others := ""
		if n > 1 {
			others = fmt.Sprintf(" The other %d TiDB instances keep their value.", n-1)
		}
		out = append(out, Finding{
			Address: state.VariableAddress(strings.ToLower(name)).String(), Range: v.Range,
			Summary: fmt.Sprintf("%s is INSTANCE-scoped: SET GLOBAL changes only one TiDB instance", name),
			Detail: fmt.Sprintf("SET GLOBAL %s reaches only %s and is lost when it restarts.%s Set it in tidb.toml "+
				"for every instance (TiUP: `tiup cluster edit-config %s`, server_configs.tidb: instance.%s), or, if "+
				"changing the connected instance is what you mean (for example one cluster block per TiDB instance), opt "+
				"in with instance_variables = \"allow\".",
				name, where, others, c.clusterName(), name),
		})
	}
	return out
}

// ownedKeys are reported by a more specific rule (TF120, TF130) than TF150.
func ownedByOtherRule(comp state.Component, key string) bool {
	key = strings.ToLower(key)
	switch comp {
	case state.TiKV:
		return strings.HasPrefix(key, "in-memory-engine.")
	case state.TiDB:
		return instancePlanCacheVars[key]
	}
	return false
}

// existsText names the versions where e exists.
func existsText(e *catalog.Entry) string {
	s := "exists in " + e.VersionsText()
	if !e.Removed.IsZero() {
		s += " (removed in " + e.Removed.Short() + ")"
	}
	return s
}

// unknownFinding is TF150 for a name that is no setting in any version the
// catalog's generated table covers, and that the cluster does not report.
func unknownFinding(target catalog.Target, comp state.Component, addr, key string, v version.Version, r diag.SourceRange) Finding {
	msg := catalog.UnknownSetting(target, string(comp), key)
	summary, hint, _ := strings.Cut(msg, "; ")
	f := Finding{
		Address: addr, Range: r,
		Summary: summary,
		Detail: fmt.Sprintf("The cluster runs %s %s and does not report it, so %s would change nothing. "+
			"Remove it, or correct the name.", comp, v.Short(), map[catalog.Target]string{catalog.TargetConfig: "SET CONFIG", catalog.TargetVariable: "SET GLOBAL"}[target]),
		Link: linkFor(comp),
	}
	if hint != "" {
		f.Detail += " " + upperFirst(hint)
	}
	return f
}

// unknownAbsent reports a declared key the catalog does not know, of a
// version its generated table covers, that the cluster read does not
// report (live records that as a note, not a gap): no setting at all.
func (c *context) unknownAbsent(s state.ConfigSetting, v version.Version) bool {
	comp, key := s.Component, s.Key
	if !catalog.Covers(string(comp), v) || !c.hasInstances(comp) || len(c.liveDeclaredConfig(s)) > 0 {
		return false
	}
	for _, g := range c.l.Gaps {
		if g.Component == comp && (g.Key == "" || strings.EqualFold(g.Key, key)) {
			return false // not read: absence says nothing
		}
	}
	return true
}

func checkExistsInVersion(c *context) []Finding {
	var out []Finding
	for _, s := range c.d.Config {
		if ownedByOtherRule(s.Component, s.Key) {
			continue
		}
		v, ok := c.version(s.Component)
		if !ok {
			continue
		}
		e, known := c.configEntry(string(s.Component), s.Key)
		if !known && c.unknownAbsent(s, v) {
			out = append(out, unknownFinding(catalog.TargetConfig, s.Component, state.ConfigAddress(s.Component, s.Instance, s.Key).String(), s.Key, v, s.Range))
			continue
		}
		if !known || e.ExistsIn(v) {
			continue
		}
		out = append(out, Finding{
			Address: state.ConfigAddress(s.Component, s.Instance, s.Key).String(), Range: s.Range,
			Summary: fmt.Sprintf("%s %s does not exist in %s %s: it %s", s.Component, s.Key, s.Component, v.Short(), existsText(e)),
			Detail: fmt.Sprintf("The lowest %s version in the cluster is %s. SET CONFIG would only answer a per-instance "+
				"warning (\"unexpect fields\") and change nothing. Remove the setting for this cluster, or upgrade %s "+
				"first: %s %s.", s.Component, v.Short(), s.Component, s.Key, existsText(e)),
			Link: linkFor(s.Component),
		})
	}
	tidb, ok := c.version(state.TiDB)
	if !ok {
		return out
	}
	for _, s := range c.d.Variables {
		name := strings.ToLower(s.Name)
		if ownedByOtherRule(state.TiDB, name) {
			continue
		}
		e, known := c.variableEntry(name)
		if !known && catalog.Covers("tidb", tidb) && c.l.VariablesRead {
			if _, reported := c.liveVariable(name); !reported {
				out = append(out, unknownFinding(catalog.TargetVariable, state.TiDB, state.VariableAddress(name).String(), name, tidb, s.Range))
			}
			continue
		}
		if !known || e.ExistsIn(tidb) {
			continue
		}
		out = append(out, Finding{
			Address: state.VariableAddress(strings.ToLower(name)).String(), Range: s.Range,
			Summary: fmt.Sprintf("%s does not exist in TiDB %s: it %s", name, tidb.Short(), existsText(e)),
			Detail: fmt.Sprintf("The lowest TiDB version in the cluster is %s; SET GLOBAL %s would fail with "+
				"\"Unknown system variable\". Remove it for this cluster, or upgrade TiDB first: %s %s.",
				tidb.Short(), name, name, existsText(e)),
		})
	}
	for i := range c.d.ResourceGroups {
		out = append(out, groupOptionsMissing(&c.d.ResourceGroups[i], tidb)...)
	}
	return out
}

// groupOption is a resource-group option that exists from a TiDB version on
// (https://docs.pingcap.com/tidb/v8.5/sql-statement-create-resource-group and the release
// notes of v7.0.0, v7.2.0, v7.4.0, v8.4.0; BURSTABLE modes:
// https://docs.pingcap.com/tidb/dev/sql-statement-create-resource-group).
type groupOption struct {
	field string // FieldRanges key
	text  string // as written in SQL
	since version.Version
	hint  string
}

// groupOptionsMissing reports the options of g that TiDB tidb cannot express.
func groupOptionsMissing(g *state.ResourceGroup, tidb version.Version) []Finding {
	var opts []groupOption
	v := func(major, minor int) version.Version { return version.Version{Major: major, Minor: minor} }
	if g.Priority != nil {
		opts = append(opts, groupOption{"priority", "PRIORITY", v(7, 0), "remove priority for this cluster"})
	}
	if q := g.QueryLimit; q != nil && !q.Empty {
		opts = append(opts, groupOption{"query_limit", "QUERY_LIMIT (runaway queries)", v(7, 2), "remove query_limit for this cluster"})
		if q.ProcessedKeys != nil || q.RU != nil {
			opts = append(opts, groupOption{"query_limit", "QUERY_LIMIT PROCESSED_KEYS / RU conditions", v(8, 4), "use exec_elapsed only"})
		}
		if strings.EqualFold(q.Action, "SWITCH_GROUP") {
			opts = append(opts, groupOption{"query_limit", "ACTION = SWITCH_GROUP", v(8, 4), "use DRYRUN, COOLDOWN or KILL"})
		}
	}
	if b := g.Background; b != nil && !b.Empty {
		opts = append(opts, groupOption{"background", "BACKGROUND (TASK_TYPES)", v(7, 4), "remove background for this cluster"})
		if b.UtilizationLimit != nil {
			opts = append(opts, groupOption{"background", "BACKGROUND UTILIZATION_LIMIT", v(8, 4), "keep only task_types"})
		}
	}
	if g.Burstable != nil && strings.EqualFold(*g.Burstable, state.BurstModerated) {
		opts = append(opts, groupOption{"burstable", "BURSTABLE = MODERATED", v(9, 0),
			"use burstable = \"UNLIMITED\" (the v8.5 BURSTABLE) or \"OFF\""})
	}
	var out []Finding
	for _, o := range opts {
		if tidb.Compare(o.since) >= 0 {
			continue
		}
		f := Finding{Address: state.GroupAddress(g.Name).String(), Range: g.Range, Link: linkCreateGroup,
			Summary: fmt.Sprintf("resource group %q: %s does not exist in TiDB %s: it exists from %s on",
				g.Name, o.text, tidb.Short(), o.since.Short()),
			Detail: fmt.Sprintf("The lowest TiDB version in the cluster is %s; %s arrived in %s, so CREATE/ALTER "+
				"RESOURCE GROUP would fail with a syntax error. For this cluster, %s, or upgrade TiDB first.",
				tidb.Short(), o.text, o.since.Short(), o.hint),
		}
		if r, ok := g.FieldRanges[o.field]; ok {
			f.Range = r
		}
		out = append(out, f)
	}
	return out
}

func linkFor(comp state.Component) string {
	switch comp {
	case state.PD:
		return linkPDConfig
	case state.TiFlash:
		return "https://docs.pingcap.com/tidb/stable/tiflash-configuration"
	case state.TiDB:
		return linkSysvars
	}
	return linkTikvConfig
}

func upperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

func checkDeprecated(c *context) []Finding {
	var out []Finding
	check := func(e *catalog.Entry, v version.Version, addr, name string, r diag.SourceRange) {
		if e.Deprecated.IsZero() || v.Compare(e.Deprecated) < 0 || !e.ExistsIn(v) {
			return
		}
		instead := "Remove it from the configuration."
		if e.ReplacedBy != "" {
			if _, repl, ok := strings.Cut(e.ReplacedBy, ":"); ok {
				instead = fmt.Sprintf("Declare %s instead and remove %s.", repl, name)
			}
		}
		out = append(out, Finding{
			Address: addr, Range: r,
			Summary: fmt.Sprintf("%s is deprecated since %s: setting it has no effect", name, e.Deprecated.Short()),
			Detail: fmt.Sprintf("%s was deprecated in %s (the cluster runs %s): it still exists, so the statement succeeds, "+
				"but its value is fixed or ignored. %s %s", name, e.Deprecated.Short(), v.Short(), e.Doc, instead),
		})
	}
	if tidb, ok := c.version(state.TiDB); ok {
		for _, s := range c.d.Variables {
			if e, known := c.variableEntry(s.Name); known {
				check(e, tidb, state.VariableAddress(strings.ToLower(s.Name)).String(), strings.ToLower(s.Name), s.Range)
			}
		}
	}
	for _, s := range c.d.Config {
		v, ok := c.version(s.Component)
		if !ok {
			continue
		}
		if e, known := c.configEntry(string(s.Component), s.Key); known {
			check(e, v, state.ConfigAddress(s.Component, s.Instance, s.Key).String(), string(s.Component)+" "+s.Key, s.Range)
		}
	}
	return out
}

// deploymentRoute is how a restart-only change reaches the cluster: through
// the persisted layer, with the command that prints exactly what to merge
// and the rollout it causes (docs/persisted.md). An Operator cluster
// (operator_manifests) gets the patch; every other one the TiUP topology.
func (c *context) deploymentRoute(comp state.Component) string {
	if c.d != nil && c.d.Persisted != nil && c.d.Persisted.Tool == state.PersistOperator {
		return fmt.Sprintf("Apply it through the deployment: `tiform export operator` prints the merge patch of the resource "+
			"that configures %s, with its kubectl command; the Operator then restarts every %s pod of it, one at a time (rolling restart).", comp, comp)
	}
	cmd, effect := tiup.ReloadCommand(c.clusterName(), comp, true)
	return fmt.Sprintf("Apply it through the deployment: `tiform export tiup` prints exactly what to merge with "+
		"`tiup cluster edit-config %s`; then `%s` (%s). TiDB Operator: declare operator_manifests and run `tiform export operator` "+
		"(a rolling restart of the group).", c.clusterName(), cmd, effect)
}

package guard

import (
	"flag"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tiform/tiform/diag"
	"github.com/tiform/tiform/plans"
	"github.com/tiform/tiform/state"
	"github.com/tiform/tiform/workload"
)

var update = flag.Bool("update", false, "rewrite docs/guards.md from the rule registry")

const guardsDoc = "../docs/guards.md"

// docExamples is one input per rule that makes the rule fire; the doc shows
// the finding it produces exactly as `tiform` prints it. TestGuardsDoc fails
// when a registered rule has no example or its example does not fire.
func docExamples() map[string]Input {
	hcl := func(line, col int) diag.SourceRange {
		return diag.SourceRange{Filename: "main.hcl", Start: diag.Pos{Line: line, Column: col}, End: diag.Pos{Line: line, Column: col + 20}}
	}
	with := func(s state.ConfigSetting, r diag.SourceRange) state.ConfigSetting { s.Range = r; return s }
	withV := func(s state.VariableSetting, r diag.SourceRange) state.VariableSetting { s.Range = r; return s }
	d := func(items ...any) *state.DesiredCluster { x := desired(items...); x.Range = hcl(1, 1); return x }
	splitAt := with(tikv(keySplitSize, "256MiB"), hcl(11, 5))
	tf110 := group("batch", "LOW")
	tf110.Range, tf110.FieldRanges = hcl(30, 1), map[string]diag.SourceRange{"priority": hcl(32, 3)}
	tf111 := group("oltp", "HIGH")
	yes := true
	tf111.BurstableBool, tf111.Range, tf111.FieldRanges = &yes, hcl(30, 1), map[string]diag.SourceRange{"burstable": hcl(33, 3)}
	tf112 := group("oltp", "HIGH")
	tf112.Range = hcl(30, 1)
	semLive := live("tidb=8.5.1")
	semLive.SEM = true
	ackAt := func(a state.Acknowledgement) state.Acknowledgement { a.Range = hcl(40, 1); return a }
	changeAt := func(ch *plans.Change, r diag.SourceRange) []*plans.Change { ch.Range = r; return []*plans.Change{ch} }
	ignoreAt := func(ig state.Ignore) state.Ignore { ig.Range = hcl(44, 1); return ig }
	return map[string]Input{
		"TF101": {Desired: d(splitAt, with(tikv(keyMaxSize, "384MiB"), hcl(12, 5)), with(tikv(keySplitKeys, "2560000"), hcl(13, 5)),
			with(tikv(keyMaxKeys, "3840000"), hcl(14, 5))), Live: live("tikv=8.5.1")},
		"TF102": {Desired: d(with(tikv(keySplitSize, "128MiB"), hcl(11, 5))), Live: live("tikv=8.5.3")},
		"TF103": {Desired: d(with(tikv(keySplitSize, "512MiB"), hcl(11, 5))),
			Live: withConfig(live("tikv=8.5.3"), state.TiKV, keyMaxSize, "384MiB")},
		"TF104": {Desired: d(with(tikv(keySplitSize, "96MiB"), hcl(11, 5))), Live: live("tikv=8.5.3")},
		"TF105": {Desired: d(with(tikv(keySplitSize, "2GiB"), hcl(11, 5))), Live: live("tikv=8.5.3", "tiflash=8.5.3")},
		"TF106": {Desired: d(with(tikv(keySplitSize, "32MiB"), hcl(11, 5))), Live: live("tikv=8.5.3")},
		"TF107": {Desired: d(splitAt), Live: withConfig(live("tikv=8.5.3", "pd=8.5.3"), state.PD, keyMergeSize, "20")},
		"TF108": {Desired: d(splitAt), Live: live("tikv=8.5.4"),
			Changes: changeAt(change(state.TiKV, keySplitSize, "256MiB", 0), hcl(11, 5))},
		"TF110": {Desired: d(tf110), Live: withGroup(live("tikv=8.5.1"), "default", "HIGH")},
		"TF111": {Desired: d(tf111), Live: live("tidb=8.5.4")},
		"TF112": {Desired: d(tf112), Live: withGroupsRead(withGroup(live("tikv=8.5.4"), "default", "MEDIUM"))},
		"TF127": {Desired: d(withV(variable(varNonPreparedPlanCache, "ON"), hcl(21, 3))),
			Live: withVar(live("tidb=8.5.6"), varInlistDigest, "ON")},
		"TF120": {Desired: d(withV(variable(varInstancePlanCache, "ON"), hcl(21, 3))), Live: live("tidb=8.1.2")},
		"TF121": {Desired: d(withV(variable(varInstancePlanCache, "ON"), hcl(21, 3))),
			Live: withVar(withVar(live("tidb=8.5.1"), varPreparedPlanCache, "OFF"), varNonPreparedPlanCache, "OFF")},
		"TF122": {Desired: d(withV(variable(varInstancePlanCache, "ON"), hcl(21, 3))), Live: live("tidb=8.5.1")},
		"TF123": {Desired: d(withV(variable(varNonPreparedPlanCache, "true"), hcl(21, 3))),
			Live: withVar(live("tidb=8.5.1"), varNonPreparedPlanCache, "OFF")},
		"TF124": {Desired: d(withV(variable(varNonPreparedPlanCache, "true"), hcl(21, 3))),
			Live: withVar(live("tidb=8.5.1"), varNonPreparedPlanCache, "OFF")},
		"TF125": {Desired: d(), Live: live("tidb=8.5.1"), Changes: changeAt(evChange("variable", "tidb", varInstancePlanCache, "OFF", "ON", 0), hcl(3, 3)),
			Evidence: &workload.Evidence{PlanCache: planCacheReport(9000, 0)}},
		"TF126": {Desired: d(), Live: live("tidb=8.5.1"), Changes: changeAt(evChange("variable", "tidb", varInstancePlanCache, "OFF", "ON", 0), hcl(3, 3)),
			Evidence: &workload.Evidence{PlanCache: planCacheReport(9000, 0)}},
		"TF130": {Desired: d(with(tikv(keyIMEEnable, "true"), hcl(16, 5))), Live: live("tikv=8.4.0")},
		"TF131": {Desired: d(with(tikv(keyIMEEnable, "true"), hcl(16, 5))),
			Live: withConfig(live("tikv=8.5.7,8.5.7"), state.TiKV, keyIMEEnable, "false")},
		"TF132": {Desired: d(with(tikv(keyIMECap, "8GiB"), hcl(17, 5))), Live: live("tikv=8.5.7")},
		"TF133": {Desired: d(with(tikv(keyIMEEnable, "true"), hcl(16, 5))), Live: live("tikv=8.5.1")},
		"TF134": {Desired: d(), Live: live("tikv=8.5.7"), Changes: changeAt(evChange("config", "tikv", keyIMEEnable, "false", "true", 0), hcl(16, 5)),
			Evidence: &workload.Evidence{MVCC: mvccReport(50000)}},
		"TF135": {Desired: d(), Live: live("tikv=8.5.7"), Changes: changeAt(evChange("config", "tikv", keyIMEEnable, "false", "true", 0), hcl(16, 5)),
			Evidence: &workload.Evidence{MVCC: mvccReport(1)}},
		"TF140": {Desired: d(), Live: live("tikv=8.5.4"),
			Changes: changeAt(change(state.TiKV, "resource-control.enabled", "false", 0), hcl(18, 5))},
		"TF141": {Desired: d(splitAt), Live: live("tikv=8.5.4"),
			Changes: changeAt(change(state.TiKV, keySplitSize, "256MiB", 0), hcl(11, 5))},
		"TF142": {Desired: d(), Live: live("pd=8.5.4"),
			Changes: changeAt(change(state.PD, keyMergeSize, "54", 0), hcl(24, 5))},
		"TF144": {Desired: d(), Live: live("tikv=8.1.0"),
			Changes: changeAt(change(state.TiKV, keyFullCompactTimes, `["03:00 +0000","23:00 +0000"]`, 0), hcl(19, 5))},
		"TF145": {Desired: d(), Live: live("tikv=8.5.4,8.5.4"), Changes: changeAt(func() *plans.Change {
			ch := change(state.TiKV, keyStoreIOPool, "2", 0)
			ch.Before = []plans.InstanceValue{{Instance: "10.0.1.10:20160", Value: "0"}, {Instance: "10.0.1.11:20160", Value: "0"}}
			return ch
		}(), hcl(20, 5))},
		"TF143": {Desired: d(withV(variable("max_connections", "2000"), hcl(22, 3))), Live: func() *state.Live {
			l := live("tidb=8.5.4,8.5.4")
			l.ConnectedInstance = "10.0.1.10:4000"
			return l
		}()},
		"TF150": {Desired: d(withV(variable("tidb_resource_control_strict_mode", "ON"), hcl(22, 3))), Live: live("tidb=8.1.2")},
		"TF153": {Desired: d(withV(variable("tidb_enable_telemetry", "OFF"), hcl(22, 3))), Live: live("tidb=8.5.4")},
		"TF151": {Desired: d(), Live: live("tikv=8.5.3,8.5.4,8.5.4")},
		"TF152": {Desired: d(splitAt), Live: semLive},
		"TF154": {Desired: d(splitAt, withV(variable(varNonPreparedPlanCache, "ON"), hcl(21, 3))), Live: live("tikv=8.5.9", "tidb=9.0.0")},
		"TF190": {Desired: d(ackAt(ack("TF110", "OLTP moves to HIGH in the next release", "2026-10-31"))),
			Live: withGroup(live("tikv=8.5.1"), "batch", "LOW")},
		"TF191": {Desired: d(ackAt(ack("TF105", "TiFlash was removed", "2027-03-31"))), Live: live("tikv=8.5.4")},
		"TF192": {Desired: d(ackAt(ack("TF1O1", "typo: letter O", "2027-03-31"))), Live: live("tikv=8.5.4")},
		"TF193": {Desired: d(ackAt(ack("TF110", "batch is allowed to be slow", ""))),
			Live: withGroup(live("tikv=8.5.1"), "batch", "LOW")},
		"TF194": {Desired: d(ignoreAt(ignore("tikv.raftstore.*", "INC-1234: raised during the incident", "2026-10-31"))),
			Live: live("tikv=8.5.1")},
		"TF195": {Desired: d(ignoreAt(ignore("tikv.raftstore.*", "INC-1234: raised during the incident", ""))),
			Live: live("tikv=8.5.1"), Ignored: []plans.Ignored{ignoredChange("raftstore.store-pool-size", "tikv.raftstore.*")}},
		"TF196": {Desired: d(ignoreAt(ignore("tikv.raftstore.*", "INC-1234: raised during the incident", "2027-03-31"))),
			Live: live("tikv=8.5.1")},
	}
}

func renderGuardsDoc(t *testing.T) string {
	t.Helper()
	examples := docExamples()
	var b strings.Builder
	b.WriteString(`# Guards

<!-- Generated from the rule registry in guard/ by ` + "`go test ./guard -run TestGuardsDoc -update`" + `. Do not edit. -->

Guards are version-aware rules that tiform evaluates on every plan, and (the rules marked *live*) on
` + "`tiform check`" + `. Each finding has a stable code, a severity, a message that says what to do, a link, and
the HCL source range it is about. Rules read versions from the live cluster: the **lowest** version per
component (a mid-upgrade cluster gets TF151 and is judged by its oldest instances).

| severity | meaning |
|---|---|
| ` + "`error`" + ` | apply refuses to run (exit 1) while the finding is not acknowledged |
| ` + "`warning`" + ` | printed with the plan; does not block |
| ` + "`info`" + ` | advice; does not block |

## Why apply reads warnings and every instance back

A TiKV or PD change that fails on an instance does not fail ` + "`SET CONFIG`" + `: TiDB answers success with a warning
naming the instance (pingcap/tidb#59856), and the instances of one type can answer one statement differently
without the statement saying which did not take it (pingcap/tidb#59857). So the guards judge what a plan would
send before it is sent (TF140, TF144, TF145 refuse changes that an instance would only warn about), and apply
reads ` + "`SHOW WARNINGS`" + ` after every ` + "`SET CONFIG`" + `, reads the value back from every instance, and names in its
report each instance that diverged, with its warning or the value it kept ([apply.md](apply.md), section 4).

## Acknowledging a finding

Suppression is explicit and reviewable. An acknowledge block names one code, why, and until when:

` + "```hcl" + `
acknowledge "TF110" {
  reason = "batch stays LOW until the TiKV v8.5.4 upgrade (CHG-1234)"
  until  = "2027-03-31"
}
` + "```" + `

While active (through the ` + "`until`" + ` day, inclusive, UTC), every finding with that code is marked
acknowledged, printed with the reason, and no longer blocks apply. After the date the acknowledgement
suppresses nothing and is itself a warning (TF190). An acknowledgement that matches nothing is an info
(TF191); one that names no rule is a warning (TF192). A block without ` + "`until`" + ` never expires; it still
suppresses, and is itself a warning on every plan (TF193) until it gets a date; so is one whose ` + "`until`" + ` is
more than a year away (` + "`until = \"9999-12-31\"`" + ` is no expiry written as a date).

## tiform check

` + "`tiform check`" + ` runs the rules marked *live* below against a cluster (` + "`--dsn`" + `, ` + "`TIFORM_DSN`" + ` or
` + "`--from-snapshot FILE`" + `) before any configuration exists, and prints the same findings. In a configuration
directory (` + "`--chdir`" + ` with ` + "`*.hcl`" + ` files) it checks the declared clusters instead, chosen with ` + "`--cluster`" + ` and
` + "`--label`" + ` and read concurrently as ` + "`plan`" + ` reads them, each with a status (` + "`ok`" + `, ` + "`unreachable`" + `, ` + "`incomplete`" + `,
` + "`error`" + `; [workflows.md](workflows.md)). ` + "`--upgrade-to VERSION`" + ` adds what a planned upgrade would do (TF101);
` + "`--format json`" + ` prints versioned JSON ([json.md](json.md), ` + "`views/schema/check.schema.json`" + `). It exits 1 when a
cluster could not be read, or only partly (unless ` + "`--allow-partial`" + `), and when an unacknowledged finding reaches
` + "`--fail-on`" + ` (` + "`warning`" + `, ` + "`error`" + `, the default, or ` + "`never`" + `).

## Rules

| code | severity | live | title | versions |
|---|---|---|---|---|
`)
	rules := Rules()
	for _, r := range rules {
		live := ""
		if r.Live {
			live = "yes"
		}
		fmt.Fprintf(&b, "| [%s](#%s) | %s | %s | %s | %s |\n", r.Code, strings.ToLower(r.Code), r.Severity, live,
			strings.ReplaceAll(r.Title, "|", "\\|"), strings.ReplaceAll(r.Versions, "|", "\\|"))
	}
	for _, r := range rules {
		fmt.Fprintf(&b, "\n### %s\n\n**%s** · %s", r.Code, r.Title, r.Severity)
		if r.Live {
			b.WriteString(" · also run by `tiform check`")
		}
		fmt.Fprintf(&b, "\n\n- Versions: %s\n- Link: <%s>\n- Sources: ", r.Versions, r.Link)
		var srcs []string
		for _, s := range r.Sources {
			if strings.HasPrefix(s, "https://") {
				s = "<" + s + ">"
			}
			srcs = append(srcs, s)
		}
		b.WriteString(strings.Join(srcs, "; ") + "\n\n" + r.Reasoning + "\n\nExample:\n\n```text\n")
		in, ok := examples[r.Code]
		if !ok {
			t.Errorf("%s has no example in docExamples", r.Code)
			continue
		}
		in.Now = now
		var ex *Finding
		for _, f := range Evaluate(in) {
			if f.Code == r.Code {
				ex = &f
				break
			}
		}
		if ex == nil {
			t.Errorf("%s: its example does not fire", r.Code)
			continue
		}
		b.WriteString(FormatText(*ex) + "```\n")
	}
	return b.String()
}

func TestGuardsDoc(t *testing.T) {
	got := renderGuardsDoc(t)
	if *update {
		if err := os.WriteFile(guardsDoc, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(guardsDoc)
	if err != nil {
		t.Fatalf("%v (run go test ./guard -run TestGuardsDoc -update)", err)
	}
	if diff := cmp.Diff(string(want), got); diff != "" {
		t.Errorf("docs/guards.md is stale; run go test ./guard -run TestGuardsDoc -update\n%s", diff)
	}
	// Every registered code has its own section.
	for _, r := range Rules() {
		if !strings.Contains(string(want), "\n### "+r.Code+"\n") {
			t.Errorf("docs/guards.md has no section for %s", r.Code)
		}
	}
}

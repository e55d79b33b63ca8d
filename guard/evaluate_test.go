package guard

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/tiform/tiform/diag"
	"github.com/tiform/tiform/plans"
	"github.com/tiform/tiform/state"
	"github.com/tiform/tiform/version"
)

func day(s string) time.Time {
	t, err := time.Parse("2006-01-02", s)
	if err != nil {
		panic(err)
	}
	return t
}

func ack(code, reason, until string) state.Acknowledgement {
	a := state.Acknowledgement{Code: code, Reason: reason}
	if until != "" {
		a.Until = day(until)
	}
	return a
}

func ignore(pattern, reason, until string) state.Ignore {
	ig := state.Ignore{Pattern: state.AddressPattern(pattern), Reason: reason}
	if until != "" {
		ig.Until = day(until)
	}
	return ig
}

// ignoredChange is a difference the ignore block with pattern kept out of
// the plan.
func ignoredChange(key, pattern string) plans.Ignored {
	return plans.Ignored{Change: &plans.Change{Addr: state.ConfigAddress(state.TiKV, "", key), Action: plans.Update},
		Pattern: state.AddressPattern(pattern)}
}

// restartChange produces one TF140 error.
var restartChange = []*plans.Change{change(state.TiKV, "resource-control.enabled", "false", 30)}

func TestAcknowledgements(t *testing.T) {
	type out struct {
		Brief  brief
		Acked  bool
		Reason string
	}
	view := func(fs []Finding) []out {
		var o []out
		for _, f := range fs {
			if f.Code == "TF140" || strings.HasPrefix(f.Code, "TF19") {
				o = append(o, out{brief{f.Code, f.Severity.String(), f.Address, f.Range.Start.Line}, f.Acknowledged, f.AckReason})
			}
		}
		return o
	}
	tf140 := brief{"TF140", "error", "tikv.resource-control.enabled", 30}
	tests := []struct {
		name     string
		acks     []any
		now      time.Time
		want     []out
		blocking int
	}{
		{"no acknowledgement", nil, now, []out{{tf140, false, ""}}, 1},
		{"active", []any{ack("TF140", "restart scheduled", "2027-03-31")}, now,
			[]out{{tf140, true, "restart scheduled"}}, 0},
		{"lower-case code, no expiry: works, and says so", []any{ack("tf140", "forever", "")}, now,
			[]out{{tf140, true, "forever"}, {brief{"TF193", "warning", "acknowledge.TF140", 10}, false, ""}}, 0},
		{"until 9999-12-31: as good as no expiry, and says so", []any{ack("TF140", "for ever", "9999-12-31")}, now,
			[]out{{tf140, true, "for ever"}, {brief{"TF193", "warning", "acknowledge.TF140", 10}, false, ""}}, 0},
		{"until within a year: no warning", []any{ack("TF140", "r", "2027-11-30")}, now,
			[]out{{tf140, true, "r"}}, 0},
		{"last valid day", []any{ack("TF140", "r", "2026-11-30")}, day("2026-11-30").Add(23*time.Hour + 59*time.Minute),
			[]out{{tf140, true, "r"}}, 0},
		{"expired the day after", []any{ack("TF140", "r", "2026-11-29")}, now,
			[]out{{tf140, false, ""}, {brief{"TF190", "warning", "acknowledge.TF140", 10}, false, ""}}, 1},
		{"matches nothing", []any{ack("TF110", "r", "2027-01-01")}, now,
			[]out{{tf140, false, ""}, {brief{"TF191", "info", "acknowledge.TF110", 10}, false, ""}}, 1},
		{"unknown code", []any{ack("TF999", "r", "2027-01-01")}, now,
			[]out{{tf140, false, ""}, {brief{"TF192", "warning", "acknowledge.TF999", 10}, false, ""}}, 1},
		{"acknowledging an acknowledgement code", []any{ack("TF190", "r", "")}, now,
			[]out{{tf140, false, ""}, {brief{"TF192", "warning", "acknowledge.TF190", 10}, false, ""}}, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fs := Evaluate(Input{Desired: desired(tt.acks...), Live: live("tikv=8.5.4"), Changes: restartChange, Now: tt.now})
			if diff := cmp.Diff(tt.want, view(fs)); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
			if got := len(Blocking(fs)); got != tt.blocking {
				t.Errorf("Blocking = %d, want %d", got, tt.blocking)
			}
		})
	}
	far := Evaluate(Input{Desired: desired(ack("TF140", "r", "9999-12-31")), Live: live("tikv=8.5.4"), Changes: restartChange, Now: now})
	if f := find(t, far, "TF193"); !strings.Contains(f.Summary, "holds until 9999-12-31, more than a year away") {
		t.Errorf("TF193 summary must say the date is too far: %s", f.Summary)
	}
	fs := Evaluate(Input{Desired: desired(ack("TF140", "r", "2026-11-29")), Live: live("tikv=8.5.4"), Changes: restartChange, Now: now})
	f := find(t, fs, "TF190")
	if !strings.Contains(f.Summary, "TF140") || !strings.Contains(f.Summary, "2026-11-29") {
		t.Errorf("TF190 summary must name the code and date: %s", f.Summary)
	}
}

func TestEvaluateOrderAndDeterminism(t *testing.T) {
	in := Input{
		Desired: desired(tikv(keySplitSize, "128MiB"), variable("max_connections", "10"), group("oltp", "MEDIUM"),
			variable(varNonPreparedPlanCache, "ON")),
		Live:    withGroup(live("tikv=8.5.1", "tidb=8.5.1", "pd=8.5.1"), "default", "MEDIUM"),
		Changes: append([]*plans.Change{change(state.TiKV, keySplitSize, "128MiB", 10)}, restartChange...),
		Now:     now,
	}
	first := Evaluate(in)
	for i := 1; i < len(first); i++ {
		a, b := first[i-1], first[i]
		if a.Severity < b.Severity || a.Severity == b.Severity && a.Code > b.Code {
			t.Fatalf("not sorted at %d: %s %s before %s %s", i, a.Severity, a.Code, b.Severity, b.Code)
		}
	}
	if first[0].Severity != diag.Error {
		t.Errorf("errors first, got %s", first[0].Severity)
	}
	for i := 0; i < 20; i++ {
		if diff := cmp.Diff(first, Evaluate(in)); diff != "" {
			t.Fatalf("run %d differs:\n%s", i, diff)
		}
	}
}

func TestEvaluateEmptyInputs(t *testing.T) {
	if fs := Evaluate(Input{}); len(fs) != 0 {
		t.Errorf("empty input: %v", only(fs, "TF"))
	}
	if fs := CheckCluster(nil, now); len(fs) != 0 {
		t.Errorf("nil live: %v", only(fs, "TF"))
	}
	// Unparseable values never panic and produce nothing.
	d := desired(tikv(keySplitSize, "lots"), tikv(keyMaxSize, ""), pd(keyMergeSize, "x"), tikv(keyIMEEnable, "maybe"))
	l := withConfig(live("tikv=8.5.1", "pd=8.5.1"), state.TiKV, keySplitSize, "garbage")
	for _, f := range Evaluate(Input{Desired: d, Live: l, Now: now}) {
		if f.Code == "TF103" || f.Code == "TF104" || f.Code == "TF107" {
			t.Errorf("finding from unparseable values: %+v", f)
		}
	}
}

func TestCheckClusterRunsOnlyLiveRules(t *testing.T) {
	l := withConfig(live("tikv=8.5.1", "pd=8.5.1"), state.TiKV, keySplitSize, "256MiB")
	l = withConfig(l, state.PD, keyMergeSize, "20")
	l = withGroup(withGroup(l, "default", "MEDIUM"), "etl", "LOW")
	fs := CheckCluster(l, now)
	want := []string{"TF101", "TF107", "TF110", "TF110"}
	var got []string
	for _, f := range fs {
		got = append(got, f.Code)
		if r, _ := Lookup(f.Code); !r.Live {
			t.Errorf("%s is not a live rule", f.Code)
		}
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
}

func TestRegistry(t *testing.T) {
	rs := Rules()
	if len(rs) < 25 {
		t.Fatalf("only %d rules", len(rs))
	}
	for _, r := range rs {
		if r.Title == "" || r.Link == "" || r.Versions == "" || r.Reasoning == "" || len(r.Sources) == 0 {
			t.Errorf("%s: incomplete rule %+v", r.Code, r)
		}
		if !strings.HasPrefix(r.Link, "https://") {
			t.Errorf("%s: link %q", r.Code, r.Link)
		}
		if len(r.Code) != 5 || !strings.HasPrefix(r.Code, "TF1") {
			t.Errorf("code %q is not TF1xx", r.Code)
		}
		public := false
		for _, s := range r.Sources {
			public = public || publicSource.MatchString(s)
		}
		if !public {
			t.Errorf("%s: no public source (an https URL or owner/repo#N) in %q", r.Code, r.Sources)
		}
	}
}

// publicSource is a source a reader can open: an https URL or a GitHub
// reference written owner/repo#N.
var publicSource = regexp.MustCompile(`^https://\S+$|^[\w.-]+/[\w.-]+#[0-9]+$`)

// BenchmarkEvaluate measures a large configuration: 400 TiKV/PD settings, 100
// variables and 50 resource groups against a 9-instance cluster.
func BenchmarkEvaluate(b *testing.B) {
	var items []any
	for i := 0; i < 200; i++ {
		items = append(items, tikv(fmt.Sprintf("storage.key-%d", i), "1"), pd(fmt.Sprintf("schedule.key-%d", i), "1"))
	}
	for i := 0; i < 100; i++ {
		items = append(items, variable(fmt.Sprintf("tidb_var_%d", i), "ON"))
	}
	for i := 0; i < 50; i++ {
		items = append(items, group(fmt.Sprintf("rg%d", i), "MEDIUM"))
	}
	items = append(items, tikv(keySplitSize, "128MiB"))
	l := withConfig(live("tikv=8.5.1,8.5.1,8.5.1,8.5.2", "tidb=8.5.1,8.5.1", "pd=8.5.1,8.5.1,8.5.1"), state.TiKV, keySplitSize, "96MiB")
	var changes []*plans.Change
	for i := 0; i < 200; i++ {
		changes = append(changes, change(state.TiKV, fmt.Sprintf("storage.key-%d", i), "1", 10+i))
	}
	in := Input{Desired: desired(items...), Live: l, Changes: changes, Now: now}
	b.ReportAllocs()
	for b.Loop() {
		Evaluate(in)
	}
}

// FuzzEvaluate feeds arbitrary declared and live values and versions to every
// rule: Evaluate must never panic on user input.
func FuzzEvaluate(f *testing.F) {
	f.Add("256MiB", "96MiB", "20", "true", "8.5.1", "LOW", "ON")
	f.Add("", "garbage", "-1", "maybe", "9.0.0-beta.1", "", "1")
	f.Add("1e400", "0", "0", "ON", "7.5.0", "medium", "off")
	f.Fuzz(func(t *testing.T, split, liveSplit, merge, ime, ver, prio, v string) {
		parsed, err := version.Parse(ver)
		if err != nil {
			parsed = version.Version{}
		}
		l := &state.Live{Variables: map[string]string{"tidb_enable_non_prepared_plan_cache": v}}
		for _, c := range []state.Component{state.TiDB, state.TiKV, state.PD, state.TiFlash} {
			l.Instances = append(l.Instances, state.Instance{Component: c, Address: string(c) + ":1", Version: parsed, VersionText: ver})
		}
		l.Config = []state.ConfigRow{{Component: state.TiKV, Instance: "tikv:1", Key: keySplitSize, Value: liveSplit},
			{Component: state.PD, Instance: "pd:1", Key: keyMergeSize, Value: merge},
			{Component: state.TiKV, Instance: "tikv:1", Key: keyIMEEnable, Value: ime}}
		l.ResourceGroups = []state.ResourceGroup{{Name: "default", Priority: &prio}, {Name: prio, Priority: &prio}}
		g := group(prio, prio)
		d := desired(tikv(keySplitSize, split), tikv(keyMaxSize, liveSplit), tikv(keySplitKeys, merge), pd(keyMergeSize, merge),
			pd(keyMergeKeys, split), tikv(keyIMEEnable, ime), tikv(keyIMECap, split), variable(varInstancePlanCache, v),
			variable(varNonPreparedPlanCache, v), g, ack(prio, v, ""))
		ch := []*plans.Change{change(state.TiKV, keySplitSize, split, 1), change(state.TiFlash, prio, v, 2), change(state.PD, merge, v, 3)}
		Evaluate(Input{Desired: d, Live: l, Changes: ch, Now: now})
		CheckCluster(l, now)
	})
}

// The ignore rules: expired blocks warn (TF194) whether or not they match;
// a block without until warns only while it hides something (TF195); a
// block in force that hides nothing is an info (TF196).
func TestIgnoreFindings(t *testing.T) {
	now := day("2026-11-30")
	raft := ignoredChange("raftstore.store-pool-size", "tikv.raftstore.*")
	tests := []struct {
		name    string
		ignore  state.Ignore
		ignored []plans.Ignored
		want    []string
	}{
		{"in force, hides a difference", ignore("tikv.raftstore.*", "r", "2026-11-30"), []plans.Ignored{raft}, nil},
		{"expired", ignore("tikv.raftstore.*", "r", "2026-11-29"), nil, []string{"TF194 warning ignore.tikv.raftstore.*"}},
		{"no expiry, hides a difference", ignore("tikv.raftstore.*", "r", ""), []plans.Ignored{raft}, []string{"TF195 warning ignore.tikv.raftstore.*"}},
		{"no expiry, hides nothing", ignore("tikv.raftstore.*", "r", ""), nil, []string{"TF196 info ignore.tikv.raftstore.*"}},
		{"until 9999-12-31, hides a difference", ignore("tikv.raftstore.*", "r", "9999-12-31"), []plans.Ignored{raft}, []string{"TF195 warning ignore.tikv.raftstore.*"}},
		{"until within a year, hides a difference", ignore("tikv.raftstore.*", "r", "2027-11-29"), []plans.Ignored{raft}, nil},
		{"in force, hides nothing", ignore("tikv.gc.*", "r", "2027-01-01"), []plans.Ignored{raft}, []string{"TF196 info ignore.tikv.gc.*"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fs := Evaluate(Input{Desired: desired(tt.ignore), Live: live("tikv=8.5.4"), Ignored: tt.ignored, Now: now})
			var got []string
			for _, f := range fs {
				if strings.HasPrefix(f.Address, "ignore.") {
					got = append(got, f.Code+" "+f.Severity.String()+" "+f.Address)
				}
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
	// An ignore code cannot be acknowledged.
	fs := Evaluate(Input{Desired: desired(ignore("tikv.gc.*", "r", "2026-01-01"), ack("TF194", "r", "2027-01-01")), Live: live("tikv=8.5.4"), Now: now})
	for _, f := range fs {
		if f.Code == "TF194" && f.Acknowledged {
			t.Error("TF194 acknowledged")
		}
	}
	if f := find(t, fs, "TF192"); f.Address != "acknowledge.TF194" {
		t.Errorf("acknowledging TF194 must be TF192, got %+v", f)
	}
}

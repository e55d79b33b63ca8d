package cmd

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tiform/tiform/internal/tidbsim"
	"github.com/tiform/tiform/internal/tidbsimtest"
	"github.com/tiform/tiform/live"
	"github.com/tiform/tiform/state"
	"github.com/tiform/tiform/version"
	"github.com/tiform/tiform/views"
	"github.com/tiform/tiform/views/viewstest"
)

func runCheckCmd(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errb bytes.Buffer
	code = Main(args, strings.NewReader(""), &out, &errb)
	return out.String(), errb.String(), code
}

// An 8.5.1 cluster bootstrapped on 8.1.2 (the emulator models tikv#18503 and
// PD's persisted merge size): the advice an operator would give before any
// HCL exists.
func TestCheckUpgradedCluster(t *testing.T) {
	s := tidbsimtest.Start(t, tidbsim.Options{Version: "v8.5.1", BootstrappedFrom: "v8.1.2"})
	dsn := s.DSN("root", "")
	out, errs, code := runCheckCmd(t, "check", "--dsn", dsn)
	if code != 0 {
		t.Fatalf("exit %d, stderr:\n%s", code, errs)
	}
	for _, want := range []string{"tiform check: TiDB v8.5.1 (1), PD v8.5.1 (1), TiKV v8.5.1 (3)",
		"warning[TF101]: Region size is 256MiB while PD keeps the pre-v8.4 merge size 20",
		"warning[TF107]: PD merges Regions up to 20MiB, not scaled with region-split-size 256MiB: set schedule.max-merge-region-size = 54",
		"\n2 warnings.\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	// --fail-on warning turns the advice into a failing exit; error does not.
	if _, errs, code := runCheckCmd(t, "check", "--dsn", dsn, "--fail-on", "warning"); code != 1 || !strings.Contains(errs, "--fail-on warning") {
		t.Errorf("--fail-on warning: exit %d, stderr %q", code, errs)
	}
	if _, errs, code := runCheckCmd(t, "check", "--dsn", dsn, "--fail-on", "error"); code != 0 {
		t.Errorf("--fail-on error: exit %d, stderr %q", code, errs)
	}
	// JSON names the same codes.
	out, _, code = runCheckCmd(t, "check", "--dsn", dsn, "--format", "json")
	if code != 0 {
		t.Fatalf("json exit %d", code)
	}
	viewstest.Validate(t, "check.schema.json", []byte(out))
	var doc views.Check
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("json: %v\n%s", err, out)
	}
	if doc.FormatVersion != views.Format || len(doc.Clusters) != 1 || doc.Clusters[0].Versions["tikv"] != "v8.5.1" ||
		doc.Clusters[0].Name != "default" || doc.Clusters[0].Status != "ok" {
		t.Fatalf("header: %+v", doc)
	}
	var got []string
	for _, f := range doc.Clusters[0].Findings {
		got = append(got, f.Code+" "+f.Severity+" "+f.Address)
	}
	want := []string{"TF101 warning tikv.coprocessor.region-split-size", "TF107 warning pd.schedule.max-merge-region-size"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
}

// A cluster bootstrapped on 8.1.2 and about to be upgraded to 8.5.2: tiform
// check --upgrade-to warns before the upgrade happens.
func TestCheckUpgradeTo(t *testing.T) {
	s := tidbsimtest.Start(t, tidbsim.Options{Version: "v8.1.2"})
	out, errs, code := runCheckCmd(t, "check", "--dsn", s.DSN("root", ""), "--upgrade-to", "v8.5.2")
	if code != 0 {
		t.Fatalf("exit %d, stderr:\n%s", code, errs)
	}
	if !strings.Contains(out, "warning[TF101]: upgrading TiKV to v8.5.2 may switch the Region size to 256MiB") {
		t.Errorf("output:\n%s", out)
	}
	out, _, _ = runCheckCmd(t, "check", "--dsn", s.DSN("root", ""), "--upgrade-to", "v8.5.3")
	if strings.Contains(out, "[TF101]") {
		t.Errorf("v8.5.3 inherits the Region size; no TF101 expected:\n%s", out)
	}
}

func TestCheckHealthyCluster(t *testing.T) {
	s := tidbsimtest.Start(t, tidbsim.Options{Version: "v8.5.4"})
	out, errs, code := runCheckCmd(t, "check", "--dsn", s.DSN("root", ""))
	if code != 0 {
		t.Fatalf("exit %d, stderr:\n%s", code, errs)
	}
	if !strings.Contains(out, "No advice: the live checks (TF101, TF104, TF107, TF110, TF112, TF121, TF122, TF124, TF127, TF133, TF151, TF154) found nothing to report.") {
		t.Errorf("output:\n%s", out)
	}
}

// From a snapshot of a mid-upgrade cluster (TiKV 8.5.2 and 8.5.3) with the
// tikv#18503 leftovers and a LOW resource group.
func TestCheckFromSnapshot(t *testing.T) {
	l := &state.Live{}
	for i, v := range []string{"8.5.2", "8.5.3", "8.5.3"} {
		l.Instances = append(l.Instances, state.Instance{Component: state.TiKV, Address: "10.0.1." + string(rune('1'+i)) + ":20160",
			VersionText: v, Version: version.MustParse(v)})
		l.Config = append(l.Config, state.ConfigRow{Component: state.TiKV, Instance: "10.0.1." + string(rune('1'+i)) + ":20160",
			Key: "coprocessor.region-split-size", Value: "256MiB"})
	}
	medium, low := "MEDIUM", "LOW"
	l.ResourceGroups = []state.ResourceGroup{{Name: "default", Priority: &medium}, {Name: "batch", Priority: &low}}
	l.Instances = append(l.Instances, state.Instance{Component: state.PD, Address: "10.0.1.9:2379", VersionText: "8.5.3", Version: version.MustParse("8.5.3")})
	l.Config = append(l.Config, state.ConfigRow{Component: state.PD, Instance: "10.0.1.9:2379", Key: "schedule.max-merge-region-size", Value: "20"})
	path := filepath.Join(t.TempDir(), "snap.json")
	var buf bytes.Buffer
	if err := live.WriteSnapshot(&buf, l, live.Origin{Cluster: "prod"}); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	text, errs, code := runCheckCmd(t, "check", "--from-snapshot", path)
	if code != 0 || !strings.Contains(text, "tiform check: PD v8.5.3 (1), TiKV v8.5.2–v8.5.3 (3, mixed)") {
		t.Errorf("exit %d, stderr %q, header:\n%s", code, errs, text)
	}
	out, errs, code := runCheckCmd(t, "check", "--from-snapshot", path, "--format", "json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	viewstest.Validate(t, "check.schema.json", []byte(out))
	var doc views.Check
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Clusters) != 1 {
		t.Fatalf("clusters: %+v", doc.Clusters)
	}
	var codes []string
	for _, f := range doc.Clusters[0].Findings {
		codes = append(codes, f.Code)
	}
	if diff := cmp.Diff([]string{"TF101", "TF107", "TF110", "TF110", "TF151"}, codes); diff != "" {
		t.Errorf("codes (-want +got)\n%s\n%s", diff, out)
	}
	if diff := cmp.Diff([]string{"tikv"}, doc.Clusters[0].Mixed); diff != "" {
		t.Errorf("mixed (-want +got)\n%s", diff)
	}
}

func TestCheckBadInput(t *testing.T) {
	t.Setenv("TIFORM_DSN", "")
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"check"}, "no cluster to read"},
		{[]string{"check", "--format", "yaml", "--dsn", "x"}, `--format "yaml"`},
		{[]string{"check", "--fail-on", "info", "--dsn", "x"}, `--fail-on "info"`},
		{[]string{"check", "--upgrade-to", "next", "--dsn", "x"}, "--upgrade-to"},
		{[]string{"check", "--dsn", "u:secret@tcp(127.0.0.1:1)/", "--from-snapshot", "f"}, "exclude each other"},
		{[]string{"check", "--dsn", "u:secret@tcp(127.0.0.1:1)/", "--connect-timeout", "200ms"}, ""},
	}
	for _, tt := range tests {
		_, errs, code := runCheckCmd(t, tt.args...)
		if code != 1 || !strings.Contains(errs, tt.want) {
			t.Errorf("%v: exit %d, stderr %q; want 1 and %q", tt.args, code, errs, tt.want)
		}
		if strings.Contains(errs, "secret") {
			t.Errorf("%v: password in stderr: %q", tt.args, errs)
		}
	}
}

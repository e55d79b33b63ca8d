package live

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/tiform/tiform/state"
	"github.com/tiform/tiform/version"
)

func sampleLive() *state.Live {
	l := &state.Live{
		ReadAt:              time.Date(2026, 11, 30, 8, 0, 0, 123456789, time.UTC),
		ServerVersion:       "8.0.11-TiDB-v8.5.1",
		ServerVersionParsed: version.MustParse("8.0.11-TiDB-v8.5.1"),
		ConnectedInstance:   "127.0.0.1:4000",
		Instances: []state.Instance{
			{Component: state.TiDB, Address: "127.0.0.1:4000", StatusAddress: "127.0.0.1:10080", VersionText: "8.5.1", Version: version.MustParse("8.5.1")},
			{Component: state.TiKV, Address: "127.0.0.1:20160", StatusAddress: "127.0.0.1:20180", VersionText: "8.5.1", Version: version.MustParse("8.5.1")},
			{Component: state.TiKV, Address: "127.0.0.1:20161", StatusAddress: "127.0.0.1:20181", VersionText: "5a5186162e"},
		},
		ConfigRead: []state.Component{state.TiKV},
		Config: []state.ConfigRow{
			{Component: state.TiKV, Instance: "127.0.0.1:20160", Key: "coprocessor.region-split-size", Value: "256MiB"},
		},
		Variables:          map[string]string{"tidb_enable_prepared_plan_cache": "ON", "max_connections": "0"},
		VariablesRead:      true,
		InstanceVariables:  []string{"max_connections"},
		ResourceGroupsRead: true,
		BurstSyntax:        state.BurstSyntaxBool,
		ResourceGroups: []state.ResourceGroup{
			{Name: "default", RUPerSec: ptr(state.UnlimitedRU), Priority: ptr("MEDIUM"), Burstable: ptr(state.BurstUnlimited),
				Background: &state.Background{TaskTypes: []string{"br", "ddl"}, UtilizationLimit: ptr(int64(30))}},
			{Name: "rg1", RUPerSec: ptr(int64(1000)), Priority: ptr("HIGH"), Burstable: ptr(state.BurstOff),
				QueryLimit: &state.QueryLimit{ExecElapsed: "1m0s", Action: "SWITCH_GROUP", SwitchGroup: "slow", Watch: "EXACT", WatchDuration: "UNLIMITED"},
				Users:      []state.UserRef{{User: "app@corp", Host: "%"}}},
		},
		UsersRead: true,
		Users:     []state.UserBinding{{UserRef: state.UserRef{User: "app@corp", Host: "%"}, ResourceGroup: "rg1"}, {UserRef: state.UserRef{User: "root", Host: "%"}}},
		Warnings:  []string{"CLUSTER_CONFIG: Warning 1105: request http://127.0.0.1:20181/config failed"},
		Notes:     []string{"tikv 127.0.0.1:20161 reports version \"5a5186162e\""},
	}
	l.AddGap(state.Gap{Kind: state.GapInstance, Component: state.TiKV, Instance: "127.0.0.1:20161", Reason: "tikv 127.0.0.1:20161 returned no config rows"})
	return l
}

func TestSnapshotRoundTrip(t *testing.T) {
	for _, tt := range []struct {
		name string
		l    *state.Live
	}{
		{"full", sampleLive()},
		{"nothing read", &state.Live{ReadAt: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC), ServerVersion: "8.0.11-TiDB-v8.5.1", ServerVersionParsed: version.MustParse("8.0.11-TiDB-v8.5.1")}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := WriteSnapshot(&buf, tt.l, Origin{Cluster: "prod"}); err != nil {
				t.Fatal(err)
			}
			path := filepath.Join(t.TempDir(), "snap.json")
			if err := os.WriteFile(path, buf.Bytes(), 0o600); err != nil {
				t.Fatal(err)
			}
			got, err := ReadSnapshot(path)
			if err != nil {
				t.Fatal(err)
			}
			if got.Offline == nil || got.Offline.Path != path || !got.Offline.TakenAt.Equal(tt.l.ReadAt) || got.Offline.Cluster != "prod" || len(got.Offline.Hash) != 64 {
				t.Errorf("Offline = %+v", got.Offline)
			}
			got.Offline = nil
			if diff := cmp.Diff(tt.l, got); diff != "" {
				t.Errorf("round trip (-want +got):\n%s", diff)
			}
		})
	}
}

func TestSnapshotRefusesTampering(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteSnapshot(&buf, sampleLive(), Origin{Cluster: "prod"}); err != nil {
		t.Fatal(err)
	}
	good := buf.String()
	tests := []struct {
		name, content, want string
	}{
		{"edited value", strings.Replace(good, `"256MiB"`, `"512MiB"`, 1), "content hash mismatch"},
		{"removed incomplete", strings.Replace(good, `"tikv 127.0.0.1:20161 returned no config rows"`, `"x"`, 1), "content hash mismatch"},
		{"newer format", strings.Replace(good, `"format_version": 1`, `"format_version": 2`, 1), "format_version 2 is not supported"},
		{"unknown field", strings.Replace(good, `"format_version": 1,`, `"format_version": 1, "dsn": "root:pw@tcp(h)/",`, 1), `unknown field "dsn"`},
		{"truncated", good[:len(good)/2], "not valid JSON"},
		{"not a snapshot", `{"hello": 1}`, "no format_version"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "snap.json")
			if err := os.WriteFile(path, []byte(tt.content), 0o600); err != nil {
				t.Fatal(err)
			}
			_, err := ReadSnapshot(path)
			if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.HasPrefix(err.Error(), "live: read snapshot") {
				t.Errorf("err = %v, want it to contain %q", err, tt.want)
			}
		})
	}
	if _, err := ReadSnapshot(filepath.Join(t.TempDir(), "missing.json")); err == nil {
		t.Error("missing file accepted")
	}
}

// The file's top-level keys are the documented ones (docs/snapshot.md).
func TestSnapshotKeys(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteSnapshot(&buf, sampleLive(), Origin{Cluster: "prod"}); err != nil {
		t.Fatal(err)
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(buf.Bytes(), &m); err != nil {
		t.Fatal(err)
	}
	var keys []string
	for k := range m {
		keys = append(keys, k)
	}
	want := []string{"burst_syntax", "config", "config_read", "connected_instance", "content_sha256", "cluster", "format_version", "incomplete", "instance_variables", "instances", "notes", "resource_groups", "resource_groups_read", "sem", "server_version", "taken_at", "tidb_version", "tiform_version", "users", "users_read", "variables", "variables_read", "warnings"}
	if diff := cmp.Diff(want, keys, cmpSortStrings); diff != "" {
		t.Errorf("keys (-want +got):\n%s", diff)
	}
}

// The example in docs/snapshot.md is a valid snapshot.
func TestSnapshotDocExample(t *testing.T) {
	doc, err := os.ReadFile("../docs/snapshot.md")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(doc), "```json\n")
	if !ok {
		t.Fatal("docs/snapshot.md has no ```json block")
	}
	example, _, ok := strings.Cut(rest, "```")
	if !ok {
		t.Fatal("unterminated ```json block")
	}
	path := filepath.Join(t.TempDir(), "example.json")
	if err := os.WriteFile(path, []byte(example), 0o600); err != nil {
		t.Fatal(err)
	}
	l, err := ReadSnapshot(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Incomplete()) != 1 || l.Offline.Cluster != "prod" || l.ServerVersionParsed.Short() != "v8.5.1" {
		t.Errorf("unexpected example content: %+v", l)
	}
}

func TestFromSnapshot(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteSnapshot(&buf, sampleLive(), Origin{Cluster: "prod"}); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "snap.json")
	if err := os.WriteFile(path, buf.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := FromSnapshot(path, "staging", Request{}); err == nil || !strings.Contains(err.Error(), `pulled for cluster "prod", not "staging"`) {
		t.Errorf("other cluster: %v", err)
	}
	req := Request{
		Config:    []ComponentRequest{{Component: state.PD, Keys: []ManagedKey{{Key: "schedule.max-merge-region-size"}}}},
		Variables: []string{"tidb_enable_prepared_plan_cache"},
	}
	l, err := FromSnapshot(path, "prod", req)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"tikv 127.0.0.1:20161 returned no config rows",
		"pd config is not in the snapshot " + path + " (pull it again with this configuration)",
	}
	if diff := cmp.Diff(want, l.Incomplete()); diff != "" {
		t.Errorf("incomplete (-want +got):\n%s", diff)
	}
}

// TestSnapshotOrigin: the writer's version is recorded as given, read back
// into Offline, and "dev" when none is given (no process-wide setting).
func TestSnapshotOrigin(t *testing.T) {
	for _, tt := range []struct{ given, want string }{{"v1.2.3", "v1.2.3"}, {"", "dev"}} {
		path := filepath.Join(t.TempDir(), "snap.json")
		var buf bytes.Buffer
		if err := WriteSnapshot(&buf, sampleLive(), Origin{Cluster: "prod", ToolVersion: tt.given}); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, buf.Bytes(), 0o600); err != nil {
			t.Fatal(err)
		}
		l, err := ReadSnapshot(path)
		if err != nil {
			t.Fatal(err)
		}
		if l.Offline.ToolVersion != tt.want || l.Offline.Cluster != "prod" {
			t.Errorf("ToolVersion %q: read back %+v", tt.given, l.Offline)
		}
	}
}

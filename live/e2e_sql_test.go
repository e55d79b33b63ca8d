package live

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/tiform/tiform/internal/tidbsim"
	"github.com/tiform/tiform/internal/tidbsimtest"
	"github.com/tiform/tiform/state"
)

// End-to-end tests that need the emulator's SQL domains (variables,
// resource groups, users).

func TestResourceGroupsAndUsers(t *testing.T) {
	s := tidbsimtest.Start(t, tidbsim.Options{SQL: []string{
		"CREATE RESOURCE GROUP rg1 RU_PER_SEC=1000 PRIORITY=HIGH QUERY_LIMIT=(EXEC_ELAPSED='60s', ACTION=KILL)",
		"CREATE USER 'app'@'%' IDENTIFIED BY 'x' RESOURCE GROUP rg1",
		"CREATE USER 'batch'@'%' IDENTIFIED BY 'y'",
	}})
	db := openSim(t, s, "root", "")
	l, _ := inspectLogged(t, s, db, Request{ResourceGroups: true, Users: true})
	if len(l.Incomplete()) != 0 {
		t.Fatalf("incomplete: %v", l.Incomplete())
	}
	var rg1 *state.ResourceGroup
	for i := range l.ResourceGroups {
		if l.ResourceGroups[i].Name == "rg1" {
			rg1 = &l.ResourceGroups[i]
		}
	}
	if rg1 == nil {
		t.Fatalf("rg1 not read: %+v", l.ResourceGroups)
	}
	want := state.ResourceGroup{Name: "rg1", RUPerSec: ptr(int64(1000)), Priority: ptr("HIGH"), Burstable: ptr(state.BurstOff),
		QueryLimit: &state.QueryLimit{ExecElapsed: "1m0s", Action: "KILL"}, Users: []state.UserRef{{User: "app", Host: "%"}}}
	if diff := cmp.Diff(want, *rg1); diff != "" {
		t.Errorf("rg1 (-want +got):\n%s", diff)
	}
	bound := map[string]string{}
	for _, u := range l.Users {
		bound[u.String()] = u.ResourceGroup
	}
	if bound["app@%"] != "rg1" || bound["batch@%"] != "" {
		t.Errorf("bindings = %v", bound)
	}
}

// A plan from a snapshot must see what a live plan sees: the snapshot round
// trip equals the live read, and the file never holds the password.
func TestSnapshotOfLiveRead(t *testing.T) {
	const pw = "Tr0ub4dor-3-live"
	s := tidbsimtest.Start(t, tidbsim.Options{TiKV: 2, SQL: []string{
		"CREATE USER 'tiform'@'%' IDENTIFIED BY '" + pw + "'",
		"GRANT ALL PRIVILEGES ON *.* TO 'tiform'@'%'",
		"CREATE RESOURCE GROUP rg1 RU_PER_SEC=500",
	}})
	db := openSim(t, s, "tiform", pw)
	s.Cluster.SetInstanceDown(s.Cluster.InstancesOf(tidbsim.TypeTiKV)[0].Address, true)
	l, err := Inspect(ctxT(t), db, Everything())
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Incomplete()) == 0 {
		t.Fatal("the down instance was not recorded")
	}
	var buf bytes.Buffer
	if err := WriteSnapshot(&buf, l, Origin{Cluster: "prod"}); err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(buf.Bytes(), []byte(pw)) {
		t.Fatal("the snapshot contains the password")
	}
	path := filepath.Join(t.TempDir(), "snap.json")
	if err := os.WriteFile(path, buf.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	got, err := ReadSnapshot(path)
	if err != nil {
		t.Fatal(err)
	}
	got.Offline = nil
	if diff := cmp.Diff(l, got); diff != "" {
		t.Errorf("snapshot round trip differs from the live read (-live +snapshot):\n%s", diff)
	}
}

// Errors against a real server: each names what to do, none holds the password.
func TestConnectionErrors(t *testing.T) {
	const pw = "C0rrect-H0rse-err"
	s := tidbsimtest.Start(t, tidbsim.Options{SQL: []string{
		"CREATE USER 'weak'@'%' IDENTIFIED BY '" + pw + "'",
	}})
	ctx := ctxT(t)
	_, err := Open(ctx, s.DSN("weak", pw+"-wrong"), ConnOptions{})
	assertKind(t, "wrong password", err, KindAuth, pw)

	dsn := strings.Replace(s.DSN("weak", pw), ")/", ")/no_such_db", 1)
	_, err = Open(ctx, dsn, ConnOptions{})
	assertKind(t, "unknown database", err, KindUnknownDatabase, pw)

	db := openSim(t, s, "weak", pw)
	_, err = Inspect(ctx, db, tikvRequest("coprocessor.region-split-size"))
	assertKind(t, "no CONFIG privilege", err, KindPrivilege, pw)
	if err != nil && !strings.Contains(err.Error(), "CONFIG") {
		t.Errorf("privilege error does not name CONFIG: %s", err)
	}
}

func assertKind(t *testing.T, name string, err error, kind ErrorKind, pw string) {
	t.Helper()
	var e *Error
	if !errors.As(err, &e) {
		t.Errorf("%s: got %T %v, want *live.Error", name, err, err)
		return
	}
	if e.Kind != kind {
		t.Errorf("%s: kind %d, want %d: %s", name, e.Kind, kind, e)
	}
	if strings.Contains(err.Error(), pw) {
		t.Errorf("%s: error contains the password: %s", name, err)
	}
}

package live

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tiform/tiform/internal/tidbsim"
	"github.com/tiform/tiform/internal/tidbsimtest"
	"github.com/tiform/tiform/internal/upstream"
	"github.com/tiform/tiform/state"
)

// TestReadHardware: a full read takes each TiKV host's CPUs and memory from
// CLUSTER_HARDWARE, contacting only TiKV; a snapshot keeps them; without
// the privilege (or under SEM) it is a note, and the read goes on.
func TestReadHardware(t *testing.T) {
	s := tidbsimtest.Start(t, tidbsim.Options{TiKV: 2, InstanceMachines: map[string]upstream.Machine{"tikv-1": {CPU: 2.5, Memory: 16 << 30}}})
	db := openSim(t, s, "root", "")
	pdContacts := s.Cluster.ContactsOf("127.0.0.1:2379")
	l, stmts := inspectLogged(t, s, db, Request{Hardware: true})
	want := map[string]state.Machine{"127.0.0.1:20160": {CPU: 8, Memory: 64 << 30}, "127.0.0.1:20161": {CPU: 2.5, Memory: 16 << 30}}
	if diff := cmp.Diff(want, l.Machines); diff != "" || !l.MachinesRead {
		t.Errorf("machines (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(Statements(Request{Hardware: true}), stmts); diff != "" {
		t.Errorf("statements (-want +got):\n%s", diff)
	}
	if s.Cluster.ContactsOf("127.0.0.1:2379") != pdContacts {
		t.Errorf("reading TiKV hosts contacted PD")
	}
	var b bytes.Buffer
	if err := WriteSnapshot(&b, l, Origin{Cluster: "prod"}); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "snap.json")
	if err := os.WriteFile(p, b.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	back, err := ReadSnapshot(p)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, back.Machines); diff != "" || !back.MachinesRead {
		t.Errorf("snapshot machines (-want +got):\n%s", diff)
	}

	sem := tidbsimtest.Start(t, tidbsim.Options{SEM: true})
	l, err = Inspect(ctxT(t), openSim(t, sem, "root", ""), Request{Hardware: true})
	if err != nil {
		t.Fatalf("a hidden CLUSTER_HARDWARE must not fail the read: %v", err)
	}
	if l.MachinesRead || len(l.Notes) == 0 {
		t.Errorf("under SEM: machines read %v, notes %q; want a note", l.MachinesRead, l.Notes)
	}
}

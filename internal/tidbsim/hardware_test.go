package tidbsim

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tiform/tiform/internal/upstream"
)

// TestClusterHardware: CLUSTER_HARDWARE and CLUSTER_SYSTEMINFO over the
// wire, with TYPE/INSTANCE pushed down, per instance's machine, behind
// CONFIG and PROCESS (pingcap/tidb pkg/executor/memtable_reader.go
// clusterServerInfoRetriever), a down instance a warning.
func TestClusterHardware(t *testing.T) {
	srv := startServer(t, Options{Version: "v8.5.1", TiKV: 2,
		InstanceMachines: map[string]upstream.Machine{"tikv-1": {CPU: 2.5, Memory: 16 << 30}},
		SQL:              []string{"CREATE USER 'plain'@'%' IDENTIFIED BY 'pw'"}})
	db := openDB(t, srv)
	got := queryRows(t, db, "SELECT INSTANCE, NAME, VALUE FROM INFORMATION_SCHEMA.CLUSTER_HARDWARE WHERE TYPE = 'tikv' AND DEVICE_TYPE IN ('cpu', 'memory') AND NAME IN ('cpu-logical-cores', 'capacity')")
	want := [][]string{
		{"127.0.0.1:20160", "cpu-logical-cores", "8"}, {"127.0.0.1:20160", "capacity", "68719476736"},
		{"127.0.0.1:20161", "cpu-logical-cores", "2.5"}, {"127.0.0.1:20161", "capacity", "17179869184"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("CLUSTER_HARDWARE (-want +got):\n%s", diff)
	}
	mark := srv.Cluster.ContactsOf("127.0.0.1:2379")
	queryRows(t, db, "SELECT * FROM INFORMATION_SCHEMA.CLUSTER_HARDWARE WHERE TYPE = 'tikv'")
	if srv.Cluster.ContactsOf("127.0.0.1:2379") != mark {
		t.Errorf("a TYPE predicate is pushed down: PD must not be contacted")
	}
	sys := queryRows(t, db, "SELECT TYPE, SYSTEM_TYPE, SYSTEM_NAME, NAME, VALUE FROM INFORMATION_SCHEMA.CLUSTER_SYSTEMINFO WHERE INSTANCE = '127.0.0.1:20160' AND NAME = 'vm.swappiness'")
	if diff := cmp.Diff([][]string{{"tikv", "system", "sysctl", "vm.swappiness", "0"}}, sys); diff != "" {
		t.Errorf("CLUSTER_SYSTEMINFO (-want +got):\n%s", diff)
	}
	srv.Cluster.SetInstanceDown("127.0.0.1:20161", true)
	rows := queryRows(t, db, "SELECT INSTANCE FROM INFORMATION_SCHEMA.CLUSTER_HARDWARE WHERE TYPE = 'tikv' AND NAME = 'capacity'")
	if diff := cmp.Diff([][]string{{"127.0.0.1:20160"}}, rows); diff != "" {
		t.Errorf("a down instance has no rows (-want +got):\n%s", diff)
	}
	if w := warnings(t, db); len(w) != 1 {
		t.Errorf("a down instance is a warning, got %v", w)
	}
	plain := openDBAs(t, srv, "plain", "pw")
	for _, q := range []string{"SELECT * FROM INFORMATION_SCHEMA.CLUSTER_HARDWARE", "SELECT * FROM INFORMATION_SCHEMA.CLUSTER_SYSTEMINFO"} {
		if _, err := queryRowsErr(plain, q); err == nil || mysqlErr(t, err).Number != 1227 {
			t.Errorf("%s without CONFIG/PROCESS: want 1227, got %v", q, err)
		}
	}
}

package tidbsim

import (
	"context"
	"net"
	"strconv"
	"testing"

	"github.com/dolthub/vitess/go/mysql"
)

// The warning count travels in the OK packet (statements without a result
// set) and in the EOF packet (result sets), as SHOW WARNINGS's row count.
func TestWarningCountOnTheWire(t *testing.T) {
	t.Parallel()
	srv := startServer(t, Options{})
	srv.Cluster.SetInstanceDown("127.0.0.1:20162", true)
	host, port, _ := net.SplitHostPort(srv.Addr())
	p, _ := strconv.Atoi(port)
	conn, err := mysql.Connect(context.Background(), &mysql.ConnParams{Host: host, Port: p, Uname: "root"})
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	tests := []struct {
		q    string
		want uint16
	}{
		{"SET CONFIG tikv `coprocessor.split-region-on-table` = 'yes'", 3}, // 2 parse failures + 1 down
		{"SHOW CONFIG WHERE type = 'tikv'", 1},
		{"SELECT 1", 0},
	}
	for _, tc := range tests {
		_, n, err := conn.ExecuteFetchWithWarningCount(tc.q, 10000, false)
		if err != nil {
			t.Fatalf("%s: %v", tc.q, err)
		}
		if n != tc.want {
			t.Errorf("%s: warning count %d, want %d", tc.q, n, tc.want)
		}
	}
}

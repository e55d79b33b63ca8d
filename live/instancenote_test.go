package live

import (
	"strings"
	"testing"

	"github.com/tiform/tiform/state"
)

// The note about INSTANCE-scoped variables is written only where another
// TiDB instance could hold another value: with one TiDB in the topology
// there is none; with two, or with the topology hidden, there may be.
func TestInstanceNote(t *testing.T) {
	tidb := func(addr string) state.Instance { return state.Instance{Component: state.TiDB, Address: addr} }
	names := []string{"tidb_slow_log_threshold"}
	for _, c := range []struct {
		name      string
		instances []state.Instance
		connected string
		want      string
	}{
		{"one TiDB", []state.Instance{tidb("10.0.1.1:4000")}, "10.0.1.1:4000", ""},
		{"two TiDB", []state.Instance{tidb("10.0.1.1:4000"), tidb("10.0.1.2:4000")}, "", "were read from the TiDB instance this connection landed on only"},
		{"topology hidden", nil, "", "were read from the TiDB instance this connection landed on only"},
	} {
		t.Run(c.name, func(t *testing.T) {
			l := &state.Live{Instances: c.instances, ConnectedInstance: c.connected}
			got := instanceNote(l, names)
			if c.want == "" && got != "" || c.want != "" && !strings.Contains(got, c.want) {
				t.Errorf("instanceNote = %q, want %q", got, c.want)
			}
			if got := instanceNote(l, nil); got != "" {
				t.Errorf("no names: %q", got)
			}
		})
	}
}

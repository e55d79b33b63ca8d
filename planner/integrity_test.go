package planner

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/tiform/tiform/state"
)

// A plan file reformatted by a tool (keys reordered, other indentation)
// still matches its hash; an edit of any field does not, and is named.
func TestPlanFileIntegrity(t *testing.T) {
	l := cluster("8.5.4")
	tikvAll(l, "storage.block-cache.capacity", "4GiB")
	d := &state.Desired{ConfigHash: "sha256:x", Clusters: []*state.DesiredCluster{{Name: "prod",
		Config: []state.ConfigSetting{cfgS("tikv", "storage.block-cache.capacity", "8GiB", 1)}}}}
	p, err := Build(d, map[string]*state.Live{"prod": l}, Options{Now: testNow})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := WritePlanFile(&b, p); err != nil {
		t.Fatal(err)
	}
	var generic map[string]any
	if err := json.Unmarshal(b.Bytes(), &generic); err != nil {
		t.Fatal(err)
	}
	reformatted, _ := json.MarshalIndent(generic, "", "\t") // keys sorted, tabs
	if _, err := ReadPlanFile(bytes.NewReader(reformatted)); err != nil {
		t.Errorf("a reformatted plan file is refused: %v", err)
	}
	for _, tc := range []struct{ edit, want string }{
		{`"config_hash": "sha256:x"`, "plan: config_hash"},
		{`"server_version": "8.0.11-TiDB-v8.5.4"`, `cluster "prod": server_version`},
		{`"after": "8GiB"`, "change tikv.storage.block-cache.capacity: after"},
	} {
		from, _, _ := strings.Cut(tc.edit, ": ")
		i := strings.Index(b.String(), tc.edit)
		if i < 0 {
			t.Fatalf("%s not in the plan file:\n%s", tc.edit, b.String())
		}
		edited := b.String()[:i] + from + `: "edited"` + b.String()[i+len(tc.edit):]
		_, err := ReadPlanFile(strings.NewReader(edited))
		var te *TamperedError
		if !errors.As(err, &te) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s edited: err = %v, want a TamperedError naming %q", from, err, tc.want)
		}
	}
}

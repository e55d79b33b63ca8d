package planner

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/tiform/tiform/plans"
	"github.com/tiform/tiform/state"
)

func TestShownMasksSensitiveChanges(t *testing.T) {
	secret := "s3://b/?key=Sens-Q7"
	x, y := state.VariableAddress("x_uri"), state.VariableAddress("y")
	ch := &plans.Change{
		Addr: x, Sensitive: true,
		Before:     []plans.InstanceValue{{Value: "s3://old"}},
		After:      secret,
		Statements: []plans.Statement{{SQL: "SET GLOBAL x_uri = '" + secret + "'"}},
		Rollback:   []plans.Statement{{SQL: "SET GLOBAL x_uri = 's3://old'"}},
		Verify:     []plans.Check{{Addr: x, Want: secret}},
		Reason:     "the cluster reports s3://old",
	}
	plain := &plans.Change{Addr: y, After: "ON", Statements: []plans.Statement{{SQL: "SET GLOBAL y = ON"}}}
	p := &Plan{Clusters: []*ClusterPlan{{Name: "c", Changes: []*plans.Change{ch, plain},
		Fingerprint: []plans.Dependency{{Addr: x, Value: "s3://old"}, {Addr: y, Value: "OFF"}}}}}
	shown := p.Shown()
	got := shown.Clusters[0].Changes[0]
	want := &plans.Change{
		Addr: x, Sensitive: true,
		Before:     []plans.InstanceValue{{Value: SensitiveText}},
		After:      SensitiveText,
		Statements: []plans.Statement{{SQL: "SET GLOBAL x_uri = (sensitive)"}},
		Rollback:   []plans.Statement{{SQL: "SET GLOBAL x_uri = (sensitive)"}},
		Verify:     []plans.Check{{Addr: x, Want: SensitiveText}},
		Reason:     "the cluster reports (sensitive)",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Shown (-want +got):\n%s", diff)
	}
	if shown.Clusters[0].Changes[1] != plain {
		t.Error("a change that is not sensitive was copied or changed")
	}
	if fp := shown.Clusters[0].Fingerprint; fp[0].Value != SensitiveText || fp[1].Value != "OFF" {
		t.Errorf("fingerprint = %+v", fp)
	}
	// The plan itself still holds what apply sends.
	if !strings.Contains(p.Clusters[0].Changes[0].Statements[0].SQL, secret) || p.Clusters[0].Fingerprint[0].Value != "s3://old" {
		t.Error("Shown changed the plan it was given")
	}
	// Nothing of the value in the plan file either.
	var b strings.Builder
	if err := WritePlanFile(&b, p); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.String(), "Sens-Q7") || strings.Contains(b.String(), "s3://old") || !strings.Contains(b.String(), `"sensitive": true`) {
		t.Errorf("plan file:\n%s", b.String())
	}
}

func TestMaskAssignment(t *testing.T) {
	for in, want := range map[string]string{
		"SET GLOBAL x = 'a = b'":                  "SET GLOBAL x = (sensitive)",
		"SET CONFIG tikv `a.b` = 'v'":             "SET CONFIG tikv `a.b` = (sensitive)",
		"SET CONFIG '10.0.0.1:20160' `a.b` = 100": "SET CONFIG '10.0.0.1:20160' `a.b` = (sensitive)",
		"no assignment":                           "(sensitive)",
	} {
		if got := MaskAssignment(in); got != want {
			t.Errorf("MaskAssignment(%q) = %q, want %q", in, got, want)
		}
	}
}

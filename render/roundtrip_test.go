package render

import (
	"bytes"
	"math/rand"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/tiform/tiform/planner"
	"github.com/tiform/tiform/state"
)

// `plan --out` then `show` must reproduce the same text, byte for byte, in
// every format.
func TestPlanFileRoundTrip(t *testing.T) {
	for _, sc := range scenarios() {
		t.Run(sc.name, func(t *testing.T) {
			p := buildScenario(t, sc)
			var file bytes.Buffer
			if err := planner.WritePlanFile(&file, p); err != nil {
				t.Fatal(err)
			}
			q, err := planner.ReadPlanFile(bytes.NewReader(file.Bytes()))
			if err != nil {
				t.Fatalf("ReadPlanFile: %v", err)
			}
			for _, o := range []TextOptions{{}, {Verbose: true}, {Color: true}} {
				a := render(t, func(b *bytes.Buffer) error { return Text(b, p, o) })
				b := render(t, func(b *bytes.Buffer) error { return Text(b, q, o) })
				if diff := cmp.Diff(string(a), string(b)); diff != "" {
					t.Errorf("text %+v differs after a save/read (-planned +shown):\n%s", o, diff)
				}
			}
			a := render(t, func(b *bytes.Buffer) error { return JSON(b, p) })
			b := render(t, func(b *bytes.Buffer) error { return JSON(b, q) })
			if diff := cmp.Diff(string(a), string(b)); diff != "" {
				t.Errorf("json differs after a save/read:\n%s", diff)
			}
			a = render(t, func(b *bytes.Buffer) error { return Markdown(b, p, MarkdownOptions{}) })
			b = render(t, func(b *bytes.Buffer) error { return Markdown(b, q, MarkdownOptions{}) })
			if diff := cmp.Diff(string(a), string(b)); diff != "" {
				t.Errorf("markdown differs after a save/read:\n%s", diff)
			}
			// The saved plan has what apply needs and never a DSN.
			if !bytes.Contains(file.Bytes(), []byte(`"fingerprint"`)) || !bytes.Contains(file.Bytes(), []byte(`"config_hash"`)) {
				t.Error("plan file lacks fingerprint or config hash")
			}
		})
	}
}

func TestPlanFileHasNoSecret(t *testing.T) {
	sc := scenarios()[1]
	const secret = "s3cr3t-pa55"
	for _, dc := range sc.desired.Clusters {
		dc.DSN = "root:" + secret + "@tcp(10.0.1.1:4000)/"
	}
	p := buildScenario(t, sc)
	var out bytes.Buffer
	if err := planner.WritePlanFile(&out, p); err != nil {
		t.Fatal(err)
	}
	for _, f := range []func(*bytes.Buffer) error{
		func(b *bytes.Buffer) error { return Text(b, p, TextOptions{Verbose: true}) },
		func(b *bytes.Buffer) error { return JSON(b, p) },
		func(b *bytes.Buffer) error { return Markdown(b, p, MarkdownOptions{}) },
	} {
		out.Write(render(t, f))
	}
	if strings.Contains(out.String(), secret) {
		t.Fatal("a plan view or file contains the DSN password")
	}
}

// The same inputs give byte-identical output, whatever order the inputs'
// slices are in and however Go iterates maps.
func TestDeterministic(t *testing.T) {
	for _, sc := range scenarios() {
		t.Run(sc.name, func(t *testing.T) {
			want := renderAll(t, buildScenario(t, sc))
			r := rand.New(rand.NewSource(1))
			for i := 0; i < 20; i++ {
				sc2 := sc
				sc2.desired, sc2.lives = shuffled(sc, r)
				got := renderAll(t, buildScenario(t, sc2))
				if diff := cmp.Diff(want, got); diff != "" {
					t.Fatalf("run %d differs (-first +shuffled):\n%s", i, diff)
				}
			}
		})
	}
}

func renderAll(t *testing.T, p *planner.Plan) string {
	var b bytes.Buffer
	_ = Text(&b, p, TextOptions{Verbose: true})
	_ = JSON(&b, p)
	_ = Markdown(&b, p, MarkdownOptions{})
	_ = planner.WritePlanFile(&b, p)
	return b.String()
}

// shuffled copies a scenario's inputs with every order-free slice permuted.
func shuffled(sc scenario, r *rand.Rand) (*state.Desired, map[string]*state.Live) {
	d := &state.Desired{ConfigHash: sc.desired.ConfigHash}
	for _, dc := range sc.desired.Clusters {
		c := *dc
		c.Config = append([]state.ConfigSetting(nil), dc.Config...)
		c.Variables = append([]state.VariableSetting(nil), dc.Variables...)
		c.ResourceGroups = append([]state.ResourceGroup(nil), dc.ResourceGroups...)
		r.Shuffle(len(c.Config), func(i, j int) { c.Config[i], c.Config[j] = c.Config[j], c.Config[i] })
		r.Shuffle(len(c.Variables), func(i, j int) { c.Variables[i], c.Variables[j] = c.Variables[j], c.Variables[i] })
		r.Shuffle(len(c.ResourceGroups), func(i, j int) {
			c.ResourceGroups[i], c.ResourceGroups[j] = c.ResourceGroups[j], c.ResourceGroups[i]
		})
		d.Clusters = append(d.Clusters, &c)
	}
	lives := map[string]*state.Live{}
	for name, l := range sc.lives {
		c := *l
		c.Config = append([]state.ConfigRow(nil), l.Config...)
		c.ResourceGroups = append([]state.ResourceGroup(nil), l.ResourceGroups...)
		c.Users = append([]state.UserBinding(nil), l.Users...)
		c.Instances = append([]state.Instance(nil), l.Instances...)
		r.Shuffle(len(c.Instances), func(i, j int) { c.Instances[i], c.Instances[j] = c.Instances[j], c.Instances[i] })
		r.Shuffle(len(c.Config), func(i, j int) { c.Config[i], c.Config[j] = c.Config[j], c.Config[i] })
		r.Shuffle(len(c.ResourceGroups), func(i, j int) {
			c.ResourceGroups[i], c.ResourceGroups[j] = c.ResourceGroups[j], c.ResourceGroups[i]
		})
		r.Shuffle(len(c.Users), func(i, j int) { c.Users[i], c.Users[j] = c.Users[j], c.Users[i] })
		lives[name] = &c
	}
	return d, lives
}

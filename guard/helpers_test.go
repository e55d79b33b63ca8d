package guard

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/tiform/tiform/diag"
	"github.com/tiform/tiform/state"
	"github.com/tiform/tiform/version"
)

// now is the fixed clock of every test.
var now = time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC)

// live builds a live state: "tikv=8.5.1" (one instance), "tikv=8.5.1,8.5.3"
// (two instances), "tiflash=8.5.1", "tidb=8.5.1", "pd=8.5.1".
func live(spec ...string) *state.Live {
	l := &state.Live{ReadAt: now, Variables: map[string]string{}, VariablesRead: true}
	for _, s := range spec {
		comp, vs, _ := strings.Cut(s, "=")
		for i, v := range strings.Split(vs, ",") {
			port := map[string]int{"tikv": 20160, "tiflash": 3930, "tidb": 4000, "pd": 2379}[comp]
			l.Instances = append(l.Instances, state.Instance{
				Component:   state.Component(comp),
				Address:     fmt.Sprintf("10.0.1.%d:%d", 10+i, port),
				VersionText: v,
				Version:     version.MustParse(v),
			})
		}
	}
	return l
}

// withConfig adds a live config row on every instance of comp.
func withConfig(l *state.Live, comp state.Component, key, value string) *state.Live {
	for _, addr := range l.InstancesOf(comp) {
		l.Config = append(l.Config, state.ConfigRow{Component: comp, Instance: addr, Key: key, Value: value})
	}
	return l
}

func withVar(l *state.Live, name, value string) *state.Live {
	l.Variables[name] = value
	return l
}

func withGroup(l *state.Live, name, priority string) *state.Live {
	p := priority
	l.ResourceGroups = append(l.ResourceGroups, state.ResourceGroup{Name: name, Priority: &p})
	return l
}

// withGroupsRead marks the resource groups as read (an empty list then
// means the cluster has none).
func withGroupsRead(l *state.Live) *state.Live {
	l.ResourceGroupsRead = true
	return l
}

// at is a source range on line n of main.hcl.
func at(line int) diag.SourceRange {
	return diag.SourceRange{Filename: "main.hcl", Start: diag.Pos{Line: line, Column: 5}, End: diag.Pos{Line: line, Column: 30}}
}

// desired builds a cluster declaring the given settings; each setting sits on
// its own line, starting at line 10, in order.
func desired(settings ...any) *state.DesiredCluster {
	// The TiUP name differs from tiform's, as it often does in a fleet:
	// advice must name the TiUP one.
	d := &state.DesiredCluster{Name: "prod", TiUPCluster: "tidb-prod", Range: at(1)}
	line := 10
	for _, s := range settings {
		switch s := s.(type) {
		case state.ConfigSetting:
			if s.Range.IsZero() {
				s.Range = at(line)
			}
			d.Config = append(d.Config, s)
		case state.VariableSetting:
			if s.Range.IsZero() {
				s.Range = at(line)
			}
			d.Variables = append(d.Variables, s)
		case state.ResourceGroup:
			if s.Range.IsZero() {
				s.Range = at(line)
			}
			d.ResourceGroups = append(d.ResourceGroups, s)
		case state.Acknowledgement:
			if s.Range.IsZero() {
				s.Range = at(line)
			}
			d.Acknowledgements = append(d.Acknowledgements, s)
		case state.Ignore:
			if s.Range.IsZero() {
				s.Range = at(line)
			}
			d.Ignores = append(d.Ignores, s)
		default:
			panic(fmt.Sprintf("desired: unexpected %T", s))
		}
		line++
	}
	return d
}

func tikv(key, value string) state.ConfigSetting {
	return state.ConfigSetting{Component: state.TiKV, Key: key, Value: state.Value{Text: value}}
}

func tikvOn(instance, key, value string) state.ConfigSetting {
	return state.ConfigSetting{Component: state.TiKV, Instance: instance, Key: key, Value: state.Value{Text: value}}
}

func pd(key, value string) state.ConfigSetting {
	return state.ConfigSetting{Component: state.PD, Key: key, Value: state.Value{Text: value, Type: state.LiteralNumber}}
}

func variable(name, value string) state.VariableSetting {
	return state.VariableSetting{Name: name, Value: state.Value{Text: value}}
}

func group(name, priority string) state.ResourceGroup {
	g := state.ResourceGroup{Name: name}
	if priority != "" {
		g.Priority = &priority
	}
	return g
}

// brief is what table tests compare: enough to pin a finding's identity and
// where it points.
type brief struct {
	Code     string
	Severity string
	Address  string
	Line     int
}

// only keeps the findings whose code starts with one of prefixes, as briefs.
func only(fs []Finding, prefixes ...string) []brief {
	var out []brief
	for _, f := range fs {
		for _, p := range prefixes {
			if strings.HasPrefix(f.Code, p) {
				out = append(out, brief{f.Code, f.Severity.String(), f.Address, f.Range.Start.Line})
				break
			}
		}
	}
	return out
}

// find returns the first finding with code, failing the test when none.
func find(t *testing.T, fs []Finding, code string) Finding {
	t.Helper()
	for _, f := range fs {
		if f.Code == code {
			return f
		}
	}
	t.Fatalf("no %s finding in %v", code, only(fs, "TF"))
	return Finding{}
}

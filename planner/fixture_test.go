package planner

import (
	"time"

	"github.com/tiform/tiform/diag"
	"github.com/tiform/tiform/state"
	"github.com/tiform/tiform/version"
)

// Test fixtures: a small live cluster and helpers to declare settings.

var testNow = time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC)

func inst(c state.Component, addr, v string) state.Instance {
	return state.Instance{Component: c, Address: addr, StatusAddress: addr, VersionText: v, Version: version.MustParse(v)}
}

// cluster returns a live cluster of 2 TiDB, 1 PD and 3 TiKV at version v with
// the given config rows and variables.
func cluster(v string) *state.Live {
	return &state.Live{
		ReadAt:            testNow,
		ServerVersion:     "8.0.11-TiDB-v" + v,
		ConnectedInstance: "10.0.1.1:4000",
		Instances: []state.Instance{
			inst(state.TiDB, "10.0.1.1:4000", v),
			inst(state.TiDB, "10.0.1.2:4000", v),
			inst(state.PD, "10.0.1.10:2379", v),
			inst(state.TiKV, "10.0.1.17:20160", v),
			inst(state.TiKV, "10.0.1.18:20160", v),
			inst(state.TiKV, "10.0.1.19:20160", v),
		},
		ConfigRead:         []state.Component{state.TiKV, state.PD},
		Variables:          map[string]string{},
		VariablesRead:      true,
		ResourceGroupsRead: true,
		UsersRead:          true,
		ResourceGroups: []state.ResourceGroup{
			{Name: "default", RUPerSec: i64(state.UnlimitedRU), Priority: str("MEDIUM"), Burstable: str(state.BurstUnlimited)},
		},
	}
}

// tikvAll sets key to value on every TiKV instance of l.
func tikvAll(l *state.Live, key, value string) {
	for _, a := range l.InstancesOf(state.TiKV) {
		l.Config = append(l.Config, state.ConfigRow{Component: state.TiKV, Instance: a, Key: key, Value: value})
	}
}

func setRow(l *state.Live, c state.Component, instance, key, value string) {
	for i, r := range l.Config {
		if r.Component == c && r.Instance == instance && r.Key == key {
			l.Config[i].Value = value
			return
		}
	}
	l.Config = append(l.Config, state.ConfigRow{Component: c, Instance: instance, Key: key, Value: value})
}

func rng(line int) diag.SourceRange {
	return diag.SourceRange{Filename: "main.hcl", Start: diag.Pos{Line: line, Column: 3, Byte: line * 40}, End: diag.Pos{Line: line, Column: 30, Byte: line*40 + 27}}
}

func cfgS(c state.Component, key, text string, line int) state.ConfigSetting {
	return state.ConfigSetting{Component: c, Key: key, Value: state.Value{Text: text}, Range: rng(line)}
}

func cfgN(c state.Component, key, text string, line int) state.ConfigSetting {
	return state.ConfigSetting{Component: c, Key: key, Value: state.Value{Text: text, Type: state.LiteralNumber}, Range: rng(line)}
}

func cfgI(c state.Component, instance, key, text string, line int) state.ConfigSetting {
	s := cfgS(c, key, text, line)
	s.Instance = instance
	return s
}

func varS(name, text string, typ state.LiteralType, line int) state.VariableSetting {
	return state.VariableSetting{Name: name, Value: state.Value{Text: text, Type: typ}, Range: rng(line)}
}

func i64(n int64) *int64   { return &n }
func str(s string) *string { return &s }
func bl(b bool) *bool      { return &b }

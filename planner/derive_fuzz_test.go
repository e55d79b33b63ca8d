package planner_test

import (
	"strings"
	"testing"

	"github.com/tiform/tiform/internal/tidbsim"
	"github.com/tiform/tiform/planner"
	"github.com/tiform/tiform/plans"
	"github.com/tiform/tiform/state"
)

// FuzzDerive: whatever a change's spec holds (a plan file is untrusted input),
// Derive either refuses it or writes statements that TiDB parses as exactly
// one statement of the kind the change makes, in both NO_BACKSLASH_ESCAPES
// settings (the emulator's lexer follows TiDB's); it never panics.
func FuzzDerive(f *testing.F) {
	f.Add("variable", "tidb_gc_life_time", "", "10m", "", false, false)
	f.Add("config", "coprocessor.region-split-size", "tikv", "256MiB", "96MiB", false, true)
	f.Add("config", "log.level", "127.0.0.1:20160", "it's", "info", true, false)
	f.Add("config", "x.y", "tikv", `a\'; DROP USER x; --`, "", false, false)
	f.Add("group", "rg", "", "100", "", false, false)
	f.Add("user", "app", "%", "rg", "default", false, false)
	srv, err := tidbsim.Start(tidbsim.Options{Addr: "127.0.0.1:0"})
	if err != nil {
		f.Fatal(err)
	}
	defer srv.Close()
	sessions := []*tidbsim.Session{srv.NewSession("root"), srv.NewSession("root")}
	if _, err := sessions[1].Exec("SET SESSION sql_mode = 'NO_BACKSLASH_ESCAPES'"); err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, kind, key, target, value, rendered string, restore, number bool) {
		c := &plans.Change{Action: plans.Update}
		lit := state.LiteralString
		if number {
			lit = state.LiteralNumber
		}
		as := plans.Assignment{Target: target, Value: state.Value{Text: value, Type: lit}, Rendered: rendered, Restore: restore}
		var prefix string
		switch kind {
		case "variable":
			as.Target = ""
			c.Addr, prefix = state.VariableAddress(key), "SET GLOBAL "
			c.Before = []plans.InstanceValue{{Value: rendered}}
			c.Spec.Set = []plans.Assignment{as}
		case "config":
			c.Addr, prefix = state.ConfigAddress(state.TiKV, "", key), "SET CONFIG "
			c.Spec.Set = []plans.Assignment{as}
		case "group":
			n := int64(len(value) + 1)
			c.Action, c.Addr, prefix = plans.Create, state.GroupAddress(key), "CREATE RESOURCE GROUP "
			c.Spec = plans.Spec{Group: &state.ResourceGroup{Name: key, RUPerSec: &n, Priority: &rendered}, Version: "v8.5.1"}
		case "user":
			c.Addr, prefix = state.UserAddress(state.UserRef{User: key, Host: target}), "ALTER USER "
			c.Before, c.After = []plans.InstanceValue{{Value: rendered}}, value
		default:
			return
		}
		stmts, rollback, err := planner.Derive(c)
		if err != nil {
			return
		}
		for _, st := range append(stmts, rollback...) {
			if !strings.HasPrefix(st.SQL, prefix) && !(kind == "group" && strings.HasPrefix(st.SQL, "DROP RESOURCE GROUP ")) {
				t.Fatalf("%q is not a %s statement", st.SQL, prefix)
			}
			for _, s := range sessions {
				if _, err := s.Exec(st.SQL); err != nil && strings.Contains(err.Error(), "1064") {
					t.Fatalf("%q does not parse: %v", st.SQL, err)
				}
			}
		}
	})
}

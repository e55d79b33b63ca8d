package state

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestAddressString(t *testing.T) {
	tests := []struct {
		a    Address
		want string
	}{
		{ConfigAddress(TiKV, "", "coprocessor.region-split-size"), "tikv.coprocessor.region-split-size"},
		{ConfigAddress(TiKV, "10.0.1.17:20160", "storage.block-cache.capacity"), `tikv["10.0.1.17:20160"].storage.block-cache.capacity`},
		{ConfigAddress(TiFlash, "", "raftstore-proxy.server.x"), "tiflash.raftstore-proxy.server.x"},
		{VariableAddress("tidb_enable_instance_plan_cache"), "variable.tidb_enable_instance_plan_cache"},
		{GroupAddress("oltp"), "resource_group.oltp"},
		// Names TiDB accepts (docs/language.md): shown as they are, or
		// quoted when a plain name would hide a space or a character.
		{GroupAddress("rg-with-dash"), "resource_group.rg-with-dash"},
		{GroupAddress("a.b c"), "resource_group.a.b c"},
		{GroupAddress("été"), "resource_group.été"},
		{GroupAddress("trail "), `resource_group."trail "`},
		{GroupAddress(" lead"), `resource_group." lead"`},
		{GroupAddress("tab\tx"), `resource_group."tab\tx"`},
		{GroupAddress("\u202egroup"), `resource_group."\u202egroup"`},
		{GroupAddress(`"q"`), `resource_group."\"q\""`},
		{GroupAddress(""), `resource_group.""`},
		{UserAddress(UserRef{User: "app", Host: "%"}), `user."app"@"%".resource_group`},
		{UserAddress(UserRef{User: `a"b@c`, Host: "10.%"}), `user."a\"b@c"@"10.%".resource_group`},
		{VersionAddress(PD, "10.0.1.10:2379"), `version.pd["10.0.1.10:2379"]`},
		{InstanceAddress(TiKV, "h:1"), `instance.tikv["h:1"]`},
		{Address{}, ""},
	}
	for _, tt := range tests {
		if got := tt.a.String(); got != tt.want {
			t.Errorf("%+v.String() = %q, want %q", tt.a, got, tt.want)
		}
		if tt.want == "" {
			continue
		}
		back, err := ParseAddress(tt.want)
		if err != nil {
			t.Errorf("ParseAddress(%q): %v", tt.want, err)
		}
		if d := cmp.Diff(tt.a, back); d != "" {
			t.Errorf("ParseAddress(%q) (-want +got):\n%s", tt.want, d)
		}
	}
}

func TestParseAddressRejects(t *testing.T) {
	for _, s := range []string{
		"", "tikv", "tikv.", "variable.", "resource_group.", `resource_group."a`, `resource_group."a"b`, "tiup.x", "TiKV.log.level",
		`tikv[].x`, `tikv["a"]`, `tikv["a"].`, `tikv["a".x`, `tikv[a].x`, `tikv[""].x`,
		`user.app@%.resource_group`, `user."app"@"%"`, `user."app"."%".resource_group`,
		`version.tikv`, `version.tikv["a"].x`, `version.foo["a"]`, `instance.tikv[""]`,
	} {
		if a, err := ParseAddress(s); err == nil {
			t.Errorf("ParseAddress(%q) = %+v, want an error", s, a)
		}
	}
}

// FuzzParseAddress: whatever a plan file holds, parsing never panics, and
// what parses prints as text that parses back to the same address (quoted
// parts may be spelled in several ways: "\u00e9" and "é").
func FuzzParseAddress(f *testing.F) {
	for _, s := range []string{"tikv.log.level", `tikv["h:1"].a.b`, "variable.x", "resource_group.g",
		`user."a"@"%".resource_group`, `resource_group."a "`, `resource_group.""`, `version.pd["h:2"]`, `instance.tiflash["h"]`, `tikv["\x00"].k`, `user."\u00e9"@"".resource_group`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		a, err := ParseAddress(s)
		if err != nil {
			return
		}
		back, err := ParseAddress(a.String())
		if err != nil || back != a {
			t.Fatalf("ParseAddress(%q) = %+v, prints %q, which parses as %+v (%v)", s, a, a.String(), back, err)
		}
	})
}

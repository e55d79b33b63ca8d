package schema

import (
	"strings"
	"testing"
)

// A resource group name that reads as another is refused as written:
// a character TiDB's lower-casing turns into ASCII (the Kelvin sign U+212A
// into "k"), mixed scripts, invisible characters; a name in one script is
// accepted.
func TestGroupNameLookAlikes(t *testing.T) {
	for _, tc := range []struct{ label, want string }{
		{"\u212aeep", `U+212A, which lower-cases to "k"`},
		{"\u0130o", `U+0130, which lower-cases to "i"`},
		{"\u043eltp", `U+006C, a Latin letter in a name with Cyrillic letters`}, // Cyrillic o
		{"oltp\u200b", `U+200B, an invisible control or format character`},      // zero-width space
		{"rg\u202eptlo", `U+202E, an invisible control or format character`},    // right-to-left override
	} {
		t.Run(tc.label, func(t *testing.T) {
			out, failed := loadText(t, "resource_group \""+tc.label+"\" {\n  ru_per_sec = 100\n}\n", nil, Options{})
			if !failed || !strings.Contains(out, "invalid resource group name") || !strings.Contains(out, tc.want) {
				t.Fatalf("want the name refused naming %s, got:\n%s", tc.want, out)
			}
		})
	}
	for _, ok := range []string{"Keep", "été", "компьютер", "データ処理", "rg-with-dash"} {
		if out, failed := loadText(t, "resource_group \""+ok+"\" {\n  ru_per_sec = 100\n}\n", nil, Options{}); failed {
			t.Fatalf("the name %q, in one script, was refused:\n%s", ok, out)
		}
	}
}

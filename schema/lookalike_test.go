package schema

import (
	"strings"
	"testing"
)

// A resource group name with a character outside ASCII is refused as
// written, before TiDB's case-insensitive lower-casing could turn it into
// another, ASCII, name (the Kelvin sign U+212A into "k").
func TestGroupNameLookAlikes(t *testing.T) {
	for _, tc := range []struct{ label, want string }{
		{"\u212aeep", `U+212A, which lower-cases to "k"`},
		{"\u0130o", `U+0130, which lower-cases to "i"`},
		{"\u043eltp", `U+043E, not ASCII`},  // Cyrillic o
		{"oltp\u200b", `U+200B, not ASCII`}, // zero-width space
	} {
		t.Run(tc.label, func(t *testing.T) {
			out, failed := loadText(t, "resource_group \""+tc.label+"\" {\n  ru_per_sec = 100\n}\n", nil, Options{})
			if !failed || !strings.Contains(out, "invalid resource group name") || !strings.Contains(out, tc.want) {
				t.Fatalf("want the name refused naming %s, got:\n%s", tc.want, out)
			}
		})
	}
	if out, failed := loadText(t, "resource_group \"Keep\" {\n  ru_per_sec = 100\n}\n", nil, Options{}); failed {
		t.Fatalf("an ASCII name was refused:\n%s", out)
	}
}

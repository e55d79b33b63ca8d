package schema

import (
	"strings"
	"testing"
)

// A credential (a setting of the secret class) is never written as text in
// the configuration; from a variable marked sensitive it is valid, also
// offline without a value (validate in CI), where it is left out unchecked.
func TestSecretSettingValues(t *testing.T) {
	const decl = "variable \"pw\" {\n  sensitive = true\n}\nvariable \"plain\" {\n  default = \"p\"\n}\n"
	for _, tc := range []struct {
		name, src string
		opts      Options
		wantErr   string // "" = valid
	}{
		{"a literal password", "variables {\n  authentication_ldap_simple_bind_root_pwd = \"Hunter2-literal\"\n}\n", Options{}, "holds a credential: its value may not be written in the configuration"},
		{"a TiKV master key literal", "tikv {\n  security {\n    encryption {\n      master-key = \"k\"\n    }\n  }\n}\n", Options{}, "holds a credential"},
		{"from a variable not marked sensitive", decl + "variables {\n  authentication_ldap_simple_bind_root_pwd = var.plain\n}\n", Options{}, "holds a credential"},
		{"empty: unsets it", "variables {\n  authentication_ldap_simple_bind_root_pwd = \"\"\n}\n", Options{}, ""},
		{"from a sensitive variable", decl + "variables {\n  authentication_ldap_simple_bind_root_pwd = var.pw\n}\n", Options{Vars: map[string]string{"pw": "Hunter2-var"}}, ""},
		{"from a sensitive variable, offline without a value", decl + "variables {\n  authentication_ldap_simple_bind_root_pwd = var.pw\n}\n", Options{Offline: true}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, failed := loadText(t, tc.src, nil, tc.opts)
			if strings.Contains(out, "Hunter2") {
				t.Errorf("the value was printed:\n%s", out)
			}
			if tc.wantErr == "" {
				if failed {
					t.Fatalf("want valid, got:\n%s", out)
				}
				return
			}
			if !failed || !strings.Contains(out, tc.wantErr) {
				t.Fatalf("want %q, got:\n%s", tc.wantErr, out)
			}
		})
	}
}

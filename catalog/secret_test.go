package catalog

import (
	"strings"
	"testing"
)

func TestSecretName(t *testing.T) {
	for key, want := range map[string]bool{
		"authentication_ldap_simple_bind_root_pwd":                true,
		"security.encryption.master-key":                          true,
		"security.encryption.master-key.aws.secret-access-key":    true,
		"security.encryption.master-key.azure.client-secret":      true,
		"backup.s3.access-key":                                    true,
		"x.some-password":                                         true,
		"security.key-path":                                       false, // a path to a key
		"security.encryption.master-key.gcp.credential-file-path": false,
		"default_password_lifetime":                               false,
		"initial-cluster-token":                                   false,
		"storage.max-key-size":                                    false,
		"pd-server.key-type":                                      false,
	} {
		if _, got := SecretName(key); got != want {
			t.Errorf("SecretName(%q) = %v, want %v", key, got, want)
		}
	}
}

// The secret class: generated for the settings upstream names or documents
// as credentials, keys under a secret struct, and unknown keys by name;
// policies about passwords are not secrets.
func TestSecretSettings(t *testing.T) {
	for _, tc := range []struct {
		t              Target
		component, key string
		secret         bool
	}{
		{TargetVariable, "tidb", "authentication_ldap_simple_bind_root_pwd", true},
		{TargetVariable, "tidb", "authentication_ldap_sasl_bind_root_pwd", true},
		{TargetVariable, "tidb", "tidb_cloud_storage_uri", true},
		{TargetVariable, "tidb", "password_history", false},
		{TargetVariable, "tidb", "default_password_lifetime", false},
		{TargetVariable, "tidb", "ssl_key", false},
		{TargetConfig, "tikv", "security.encryption.master-key", true},
		{TargetConfig, "tikv", "security.encryption.master-key.aws.secret-access-key", true},
		{TargetConfig, "tikv", "security.encryption.master-key.key-id", true}, // part of the struct
		{TargetConfig, "tikv", "security.key-path", false},
		{TargetConfig, "tikv", "newer-feature.admin-password", true}, // unknown, by name
		{TargetConfig, "pd", "security.encryption.master-key.type", false},
	} {
		got := SettingFor(tc.t, tc.component, tc.key).Secret()
		if (got != "") != tc.secret {
			t.Errorf("%s %s: Secret() = %q, want secret %v", tc.component, tc.key, got, tc.secret)
		}
	}
}

// A secret's value read from the cluster is kept concealed, compared through
// what TiDB shows of it, shown masked, never restored.
func TestSecretValues(t *testing.T) {
	ldap := SettingFor(TargetVariable, "tidb", "authentication_ldap_simple_bind_root_pwd")
	uri := SettingFor(TargetVariable, "tidb", "tidb_cloud_storage_uri")
	kms := SettingFor(TargetConfig, "tikv", "security.encryption.master-key.aws.secret-access-key")
	const pw = "Sup3r-ldap-pw"
	read := ldap.Conceal("******") // what the server shows, concealed as live keeps it
	if !Concealed(read) || strings.Contains(read, "*") {
		t.Fatalf("Conceal = %q", read)
	}
	for _, tc := range []struct {
		name     string
		s        Setting
		declared string
		live     string
		equal    bool
	}{
		{"a set LDAP password equals any declared one: TiDB shows ******", ldap, pw, read, true},
		{"an unset LDAP password differs from a declared one", ldap, pw, "", false},
		{"an empty declaration equals an unset password", ldap, "", "", true},
		{"a URI equals what TiDB shows of it", uri, "s3://bkt/p?secret-access-key=SK&access-key=AK", uri.Conceal("s3://bkt/p?access-key=xxxxxx&secret-access-key=xxxxxx"), true},
		{"another bucket differs", uri, "s3://other/p?access-key=AK&secret-access-key=SK", uri.Conceal("s3://bkt/p?access-key=xxxxxx&secret-access-key=xxxxxx"), false},
		{"a key TiKV shows as it is: compared by hash", kms, "SK-1", kms.Conceal("SK-1"), true},
		{"another key differs", kms, "SK-1", kms.Conceal("SK-2"), false},
		{"two reads of one value", kms, kms.Conceal("SK-1"), kms.Conceal("SK-1"), true},
	} {
		if got := tc.s.Equal(tc.declared, tc.live); got != tc.equal {
			t.Errorf("%s: Equal = %v, want %v", tc.name, got, tc.equal)
		}
	}
	for _, s := range []Setting{ldap, uri, kms} {
		if got := s.Render(pw); got != Masked {
			t.Errorf("%s: Render = %q", s.Key, got)
		}
		if c := s.Canonical(pw); strings.Contains(c, pw) || !Concealed(c) {
			t.Errorf("%s: Canonical = %q", s.Key, c)
		}
		if _, ok := s.RestoreSQL(s.Conceal(pw)); ok {
			t.Errorf("%s: a concealed value can be restored", s.Key)
		}
	}
	// Two settings conceal one value differently (the salt names the setting).
	if kms.Conceal(pw) == ldap.Conceal(pw) {
		t.Error("one value conceals alike for two settings")
	}
	// Other settings are not touched.
	if got := SettingFor(TargetVariable, "tidb", "tidb_gc_life_time").Conceal("10m0s"); got != "10m0s" {
		t.Errorf("a plain setting was concealed: %q", got)
	}
}

// redactURL is TiDB's ast.RedactURL: the keys of an s3/ks3 URI become
// xxxxxx and the query is re-encoded in key order; other schemes pass.
func TestRedactURLAsTiDB(t *testing.T) {
	for in, want := range map[string]string{
		"s3://bucket/prefix?secret-access-key=SK&access-key=AK&region=us": "s3://bucket/prefix?access-key=xxxxxx&region=us&secret-access-key=xxxxxx",
		"ks3://b/p?Access_Key=AK&session-token=T":                         "ks3://b/p?Access_Key=xxxxxx&session-token=xxxxxx",
		"gcs://bucket/prefix?credentials-file=/x.json":                    "gcs://bucket/prefix?credentials-file=/x.json",
		"": "",
	} {
		if got := redactURL(in); got != want {
			t.Errorf("redactURL(%q) = %q, want %q", in, got, want)
		}
	}
}

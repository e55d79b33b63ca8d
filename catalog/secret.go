package catalog

import (
	"crypto/pbkdf2"
	"crypto/sha256"
	"encoding/hex"
	"net/url"
	"regexp"
	"strings"
	"sync"
)

// Secret-bearing settings. Some settings hold credentials: the LDAP bind
// passwords, tidb_cloud_storage_uri (an S3 URI whose query may carry access
// keys), TiKV's encryption master key (whose KMS form holds cloud access
// keys). The class is generated from upstream (tools/catalogen secret.go:
// a name that denotes a credential, or documentation that says the value is
// a password or an external-storage URI) and, for a setting the catalog does
// not know, read from its name (SecretName). For such a setting:
//
//   - a value read from the cluster is kept only in its concealed form
//     (Conceal): a slow, per-setting salted hash, never the text;
//   - values compare through that form (Equal), after the redaction TiDB
//     applies when it shows the value (serverRedaction): a declared password
//     equals a cluster that shows "******", a declared URI equals the URI
//     TiDB shows with its keys replaced by "xxxxxx";
//   - every view shows Masked (Render), and no value read from the cluster
//     is restored by a rollback (RestoreSQL).

// Masked is how every view shows a secret value (state.SensitiveText).
const Masked = "(sensitive)"

// concealedPrefix starts the concealed form of a secret value.
const concealedPrefix = "(secret pbkdf2-sha256:"

// secretNameRE: the last segment of a key names a credential. A path to one
// (key-path, credential-file-path) is not one.
var secretNameRE = regexp.MustCompile(`(^|[-_])(password|passwd|pwd|secret|secret-access-key|access-key|client-secret|credential|credentials|sas-token|session-token|private-key|master-key)$`)

// SecretName reports whether a setting's name denotes a credential: the
// last dot-separated segment of key ends in password, pwd, secret,
// access-key, client-secret, credential(s), sas-token, session-token,
// private-key or master-key ('_' and '-' alike). The generator applies it to
// every string setting upstream lists; Setting.Secret to keys the catalog
// does not know.
func SecretName(key string) (reason string, ok bool) {
	seg := strings.ToLower(key)
	if i := strings.LastIndexByte(seg, '.'); i >= 0 {
		seg = seg[i+1:]
	}
	m := secretNameRE.FindStringSubmatch(strings.ReplaceAll(seg, "_", "-"))
	if m == nil {
		return "", false
	}
	return "its name says it holds a credential (" + m[2] + ")", true
}

// Secret returns why the setting e describes holds a credential (its
// generated class), "" when it does not.
func (e *Entry) Secret() string {
	if e.up != nil && e.up.Secret != nil {
		return e.up.Secret.Reason
	}
	return ""
}

// Secret returns why s holds a credential, "" when it does not: the
// generated class of its entry, an entry it is a key of (a TiKV struct such
// as security.encryption.master-key, flattened by CLUSTER_CONFIG into
// ….master-key.aws.secret-access-key), or, unknown to the catalog, its name.
func (s Setting) Secret() string {
	if s.Entry != nil {
		if r := s.Entry.Secret(); r != "" {
			return r
		}
		if s.Target == TargetVariable {
			return ""
		}
	}
	if s.Target == TargetConfig {
		for _, p := range secretParents() {
			if p.component == s.Component && strings.HasPrefix(s.Key, p.key+".") {
				return "it is part of " + p.key + ", which holds credentials"
			}
		}
	}
	if s.Entry == nil {
		if r, ok := SecretName(s.Key); ok {
			return r
		}
	}
	return ""
}

type secretParent struct{ component, key string }

var (
	secretParentsOnce sync.Once
	secretParentList  []secretParent
)

// secretParents are the secret config entries: keys under them are secret.
func secretParents() []secretParent {
	secretParentsOnce.Do(func() {
		for _, e := range Entries() {
			if e.Target == TargetConfig && e.Secret() != "" {
				secretParentList = append(secretParentList, secretParent{e.Component, e.Key})
			}
		}
	})
	return secretParentList
}

// serverRedaction is what TiDB shows instead of a secret variable's value
// when it is read (SHOW VARIABLES, SELECT @@, INFORMATION_SCHEMA
// VARIABLES_INFO), checked against the real server
// (TestSecretVariablesOnTheRealServer):
//
//   - the LDAP bind passwords read as "******" once set ("" when empty):
//     pingcap/tidb pkg/sessionctx/variable/sysvar.go,
//     AuthenticationLDAPSASLBindRootPWD and AuthenticationLDAPSimpleBindRootPWD
//     GetGlobal, MaskPwd;
//   - tidb_cloud_storage_uri reads through ast.RedactURL: an s3:// or ks3://
//     URI's access-key, secret-access-key and session-token query values
//     become "xxxxxx" (pingcap/tidb pkg/parser/ast/misc.go, RedactURL).
var serverRedaction = map[string]func(string) string{
	"authentication_ldap_sasl_bind_root_pwd":   maskPwd,
	"authentication_ldap_simple_bind_root_pwd": maskPwd,
	"tidb_cloud_storage_uri":                   redactURL,
}

// Opaque says, for a secret variable TiDB shows only as set or not set, what
// that means for a plan; "" for every other setting.
func (s Setting) Opaque() string {
	if s.Target != TargetVariable || serverRedaction[s.Key] == nil {
		return ""
	}
	if s.Key == "tidb_cloud_storage_uri" {
		return "TiDB shows it with its access keys replaced by xxxxxx, so tiform compares the rest of the URI, not the keys; to change only a key, set it on the cluster by hand"
	}
	return "TiDB shows only whether it is set (******), so tiform cannot tell another password from the declared one and plans nothing once it is set; to change it, set it on the cluster by hand"
}

// maskPwd is TiDB's MaskPwd: a set password reads as six asterisks.
func maskPwd(v string) string {
	if v == "" {
		return ""
	}
	return "******"
}

// redactURL is TiDB's ast.RedactURL (pingcap/tidb pkg/parser/ast/misc.go):
// for s3 and ks3 URIs, the values of the query parameters access-key,
// secret-access-key and session-token (compared with '_' as '-',
// case-insensitively) become "xxxxxx", and the query is re-encoded in key
// order; any other text is returned as it is.
func redactURL(s string) string {
	u, err := url.Parse(s)
	if err != nil {
		return s
	}
	switch strings.ToLower(u.Scheme) {
	case "s3", "ks3":
		values := u.Query()
		for k := range values {
			switch strings.ToLower(strings.ReplaceAll(k, "_", "-")) {
			case "access-key", "secret-access-key", "session-token":
				values[k] = []string{"xxxxxx"}
			}
		}
		u.RawQuery = values.Encode()
	}
	return u.String()
}

// Concealed reports whether text is the concealed form of a secret value.
func Concealed(text string) bool { return strings.HasPrefix(strings.TrimSpace(text), concealedPrefix) }

// Conceal returns the form a value of s is kept in once read from the
// cluster: for a secret setting, "" stays "" and any other text becomes its
// concealed form (a PBKDF2-SHA256 of it, salted with the setting's name);
// the value itself for any other setting. A text already concealed is
// returned as it is.
func (s Setting) Conceal(text string) string {
	t := strings.TrimSpace(text)
	if t == "" || Concealed(t) || s.Secret() == "" {
		return text
	}
	return s.conceal(t)
}

// conceal is the concealed form of t. The salt names the setting, so that
// equal values of two settings conceal differently and no table of common
// passwords serves every cluster; the iterations make each guess cost.
func (s Setting) conceal(t string) string {
	salt := "tiform-secret-v1\x00" + s.Component + "\x00" + s.Key
	key, err := pbkdf2.Key(sha256.New, t, []byte(salt), secretIterations, 16)
	if err != nil { // only for a key length out of range
		return concealedPrefix + "?)"
	}
	return concealedPrefix + hex.EncodeToString(key) + ")"
}

// secretIterations is the PBKDF2 cost of concealing one value: a
// millisecond here, for each guess of an attacker holding a snapshot.
const secretIterations = 20000

// secretForm is how a secret value compares: "" for no value, the
// concealed form for a value read, and for a declared value the concealed
// form of what TiDB shows of it.
func (s Setting) secretForm(text string) string {
	t := strings.TrimSpace(text)
	if t == "" || Concealed(t) {
		return t
	}
	if r := serverRedaction[s.Key]; r != nil && s.Target == TargetVariable {
		t = r(t)
	}
	return s.conceal(t)
}

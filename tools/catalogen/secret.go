package main

import (
	"regexp"
	"sort"
	"strings"

	"github.com/tiform/tiform/catalog"
	"github.com/tiform/tiform/internal/upstream"
)

// The secret class: settings that hold credentials, which tiform never
// imports, shows or keeps as text (catalog/secret.go). A setting is in it
// when its value is a string and
//
//   - its name says so (catalog.SecretName: the last segment of the key ends
//     in password, pwd, secret, access-key, credential(s), master-key, …), for
//     every component; or
//   - for a system variable, the docs describe its value as a password, a
//     key or a credential ("…使用的密码", "密钥", "凭证") or as an
//     external-storage URI, whose query carries access keys
//     (external-storage-uri.md: access-key, secret-access-key, sas-token).
//
// The docs are read at the refs readSysVars read (t.Inputs), newest release
// branch first and master last (master moves, as elsewhere in the table): the
// first description found is cited.

var (
	// secretDocRE: a description that says the value is a password, a key
	// or a credential.
	secretDocRE = regexp.MustCompile(`的(密码|密钥|私钥|凭证|凭据)(。|，|$)`)
	// storageURIRE: a description that points at the external storage URI
	// format.
	storageURIRE = regexp.MustCompile(`\(/external-storage-uri\.md`)
	// secretFactRE are the bullet lines of facts, not description.
	secretFactRE = regexp.MustCompile(`^- (作用域|作用范围|是否持久化到集群|持久化至集群|类型|默认值|可选值|范围|取值范围|单位|是否受 Hint)`)
)

// markSecrets sets Secret on every setting of t in the class.
func markSecrets(t *upstream.Table, docs *repo) error {
	described := map[string]*upstream.Secret{}
	var refs []string
	for _, in := range t.Inputs {
		if in.Repo == docs.name {
			for i := len(in.Refs) - 1; i >= 0; i-- {
				refs = append(refs, in.Refs[i].Name)
			}
		}
	}
	sort.SliceStable(refs, func(i, j int) bool { return refs[i] != "master" && refs[j] == "master" })
	for _, branch := range refs {
		src, err := docs.show(branch, "system-variables.md")
		if err != nil {
			return err
		}
		for name, s := range secretVariables(string(src), branch) {
			if _, ok := described[name]; !ok {
				described[name] = s
			}
		}
	}
	for _, s := range t.Settings {
		if reason, ok := nameSecret(s); ok {
			s.Secret = &upstream.Secret{Reason: reason, Source: s.Spans[len(s.Spans)-1].Source}
			continue
		}
		if d := described[s.Key]; d != nil && s.Component == upstream.SysVar && isString(s) {
			s.Secret = d
		}
	}
	return nil
}

// isString reports whether s's newest span holds a string.
func isString(s *upstream.Setting) bool {
	return len(s.Spans) > 0 && s.Spans[len(s.Spans)-1].Kind == upstream.KindString
}

// nameSecret is the name rule (catalog.SecretName) on a string setting.
func nameSecret(s *upstream.Setting) (string, bool) {
	if !isString(s) {
		return "", false
	}
	return catalog.SecretName(s.Key)
}

// secretVariables reads one branch's system-variables.md and returns the
// variables whose description says they hold a credential, each with the
// line that says so.
func secretVariables(src, branch string) map[string]*upstream.Secret {
	out := map[string]*upstream.Secret{}
	cur, inRef := "", false
	for i, l := range strings.Split(src, "\n") {
		if strings.HasPrefix(l, "## ") {
			inRef, cur = strings.Contains(l, "变量参考"), ""
			continue
		}
		if strings.HasPrefix(l, "### ") {
			cur = ""
			if m := headingRE.FindStringSubmatch(l); m != nil && inRef {
				cur = strings.ToLower(m[1])
			}
			continue
		}
		if cur == "" || out[cur] != nil || secretFactRE.MatchString(l) {
			continue
		}
		var reason string
		switch {
		case secretDocRE.MatchString(strings.TrimSpace(l)):
			reason = "the docs say its value is a " + map[string]string{"密码": "password", "密钥": "key", "私钥": "private key", "凭证": "credential", "凭据": "credential"}[secretDocRE.FindStringSubmatch(strings.TrimSpace(l))[1]]
		case storageURIRE.MatchString(l):
			reason = "the docs say its value is an external-storage URI, which may carry access keys"
		default:
			continue
		}
		out[cur] = &upstream.Secret{Reason: reason, Source: docsSource(branch, i+1)}
	}
	return out
}

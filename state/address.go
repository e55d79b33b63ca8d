package state

import (
	"cmp"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Kind says what an Address names.
type Kind string

const (
	KindConfig        Kind = "config"
	KindVariable      Kind = "variable"
	KindResourceGroup Kind = "resource_group"
	KindUser          Kind = "user"
	// KindVersion names the version of one instance (plan fingerprints).
	KindVersion Kind = "version"
	// KindInstance names one instance of the topology (plan fingerprints).
	KindInstance Kind = "instance"
)

// Address names one thing tiform plans, reads back or depends on, in the
// spirit of Terraform's addrs: built once from typed parts, printed with
// String, and parsed back only at the edges (plan files) with ParseAddress.
// Its text is what plans, reports and guard findings show:
//
//	config, every instance   tikv.coprocessor.region-split-size
//	config, one instance     tikv["10.0.1.17:20160"].storage.block-cache.capacity
//	variable                 variable.tidb_enable_instance_plan_cache
//	resource group           resource_group.oltp, resource_group."trail " (quoted
//	                         when a plain name would not show it exactly)
//	user binding             user."app"@"%".resource_group
//	instance version         version.tikv["10.0.1.17:20160"]
//	instance                 instance.tikv["10.0.1.17:20160"]
//
// The zero Address names nothing. Addresses are comparable and may be map keys.
type Address struct {
	Kind Kind
	// Component is the component of a config item, version or instance;
	// TiDB for a variable; empty for resource groups and users.
	Component Component
	// Instance is the service address (CLUSTER_INFO.INSTANCE) of a config item
	// set on one instance, of a version or of an instance; "" for a config
	// item on every instance of its component.
	Instance string
	// Key is the config key, the variable name or the resource group name.
	Key string
	// User is the account of a user binding.
	User UserRef
}

// ConfigAddress names config key of component c, on instance ("" for every
// instance of c).
func ConfigAddress(c Component, instance, key string) Address {
	return Address{Kind: KindConfig, Component: c, Instance: instance, Key: key}
}

// VariableAddress names a TiDB system variable.
func VariableAddress(name string) Address {
	return Address{Kind: KindVariable, Component: TiDB, Key: name}
}

// ValidConfigKey reports whether k is a config key as SHOW CONFIG prints
// one: lower-case dot-separated names of letters, digits, '-' and '_'
// ("coprocessor.region-split-size"). Nothing else is written after SET CONFIG.
func ValidConfigKey(k string) bool {
	if k == "" {
		return false
	}
	for _, part := range strings.Split(k, ".") {
		if part == "" {
			return false
		}
		for i := 0; i < len(part); i++ {
			c := part[i]
			if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
				return false
			}
		}
	}
	return true
}

// GroupAddress names a resource group.
func GroupAddress(name string) Address { return Address{Kind: KindResourceGroup, Key: name} }

// UserAddress names the resource-group binding of an account.
func UserAddress(u UserRef) Address { return Address{Kind: KindUser, User: u} }

// VersionAddress names the version of one instance.
func VersionAddress(c Component, instance string) Address {
	return Address{Kind: KindVersion, Component: c, Instance: instance}
}

// InstanceAddress names one instance of the topology.
func InstanceAddress(c Component, instance string) Address {
	return Address{Kind: KindInstance, Component: c, Instance: instance}
}

// OnEveryInstance returns a with no instance: a config item on every instance
// of its component.
func (a Address) OnEveryInstance() Address {
	if a.Kind == KindConfig {
		a.Instance = ""
	}
	return a
}

// Name is the name of what a names within its kind: the config key, the
// variable or group name, or the account as user@host (views list it next to
// the kind and component).
func (a Address) Name() string {
	if a.Kind == KindUser {
		return a.User.String()
	}
	return a.Key
}

// IsZero reports whether a names nothing.
func (a Address) IsZero() bool { return a == Address{} }

// String is the address as plans show it (see Address).
func (a Address) String() string {
	switch a.Kind {
	case KindConfig:
		if a.Instance != "" {
			return string(a.Component) + "[" + strconv.Quote(a.Instance) + "]." + a.Key
		}
		return string(a.Component) + "." + a.Key
	case KindVariable:
		return "variable." + a.Key
	case KindResourceGroup:
		return "resource_group." + groupKeyText(a.Key)
	case KindUser:
		return "user." + strconv.Quote(a.User.User) + "@" + strconv.Quote(a.User.Host) + ".resource_group"
	case KindVersion, KindInstance:
		return string(a.Kind) + "." + string(a.Component) + "[" + strconv.Quote(a.Instance) + "]"
	}
	return ""
}

// groupKeyText is a resource group name as an address shows it: as it is,
// or Go-quoted when that would not show it exactly — TiDB accepts any
// identifier as a name (docs/language.md), so a name may be empty, start or
// end with a space (`a ` and `a` are two groups), hold a character a
// terminal does not print, or start with a quote.
func groupKeyText(k string) string {
	if k == "" || k[0] == '"' || !utf8.ValidString(k) {
		return strconv.Quote(k)
	}
	first, _ := utf8.DecodeRuneInString(k)
	last, _ := utf8.DecodeLastRuneInString(k)
	if unicode.IsSpace(first) || unicode.IsSpace(last) || strings.IndexFunc(k, func(r rune) bool { return !unicode.IsPrint(r) }) >= 0 {
		return strconv.Quote(k)
	}
	return k
}

// ParseAddress reads an address printed by String. It is the inverse of
// String: ParseAddress(a.String()) == a for every Address tiform builds.
func ParseAddress(s string) (Address, error) {
	fail := func(why string) (Address, error) {
		return Address{}, fmt.Errorf("not an address %q: %s", s, why)
	}
	head, rest, ok := strings.Cut(s, ".")
	if !ok {
		if h, _, ok := strings.Cut(s, "["); ok && isComponent(h) {
			return parseConfig(s, fail)
		}
		return fail("want kind.name, such as tikv.log.level or variable.tidb_txn_mode")
	}
	switch head {
	case "variable", "resource_group":
		if rest == "" {
			return fail("no name after " + head + ".")
		}
		if head == "variable" {
			return VariableAddress(rest), nil
		}
		if strings.HasPrefix(rest, `"`) {
			name, err := strconv.Unquote(rest)
			if err != nil {
				return fail("a quoted resource group name must be one Go-quoted string")
			}
			return GroupAddress(name), nil
		}
		return GroupAddress(rest), nil
	case "user":
		return parseUser(rest, fail)
	case "version", "instance":
		c, inst, tail, err := parseInstance(rest)
		if err != nil || tail != "" || !isComponent(string(c)) {
			return fail(`want ` + head + `.<component>["host:port"]`)
		}
		if head == "version" {
			return VersionAddress(c, inst), nil
		}
		return InstanceAddress(c, inst), nil
	}
	return parseConfig(s, fail)
}

// parseConfig reads tikv.key or tikv["host:port"].key.
func parseConfig(s string, fail func(string) (Address, error)) (Address, error) {
	i := strings.IndexAny(s, ".[")
	if i <= 0 || !isComponent(s[:i]) {
		return fail("unknown kind or component (want tidb, tikv, pd, tiflash, variable, resource_group, user, version or instance)")
	}
	c, rest := Component(s[:i]), s[i:]
	inst := ""
	if rest[0] == '[' {
		var err error
		if _, inst, rest, err = parseInstance(s); err != nil {
			return fail(`want ` + string(c) + `["host:port"].key`)
		}
	}
	key, ok := strings.CutPrefix(rest, ".")
	if !ok || key == "" {
		return fail("no key")
	}
	return ConfigAddress(c, inst, key), nil
}

// parseInstance reads component["host:port"] and returns what follows.
func parseInstance(s string) (c Component, inst, rest string, err error) {
	i := strings.IndexByte(s, '[')
	if i <= 0 {
		return "", "", "", errors.New("no instance")
	}
	q, err := strconv.QuotedPrefix(s[i+1:])
	if err != nil || q[0] != '"' {
		return "", "", "", errors.New("instance is not a quoted string")
	}
	inst, _ = strconv.Unquote(q)
	rest, ok := strings.CutPrefix(s[i+1+len(q):], "]")
	if !ok || inst == "" {
		return "", "", "", errors.New("no ] after the instance")
	}
	return Component(s[:i]), inst, rest, nil
}

// parseUser reads "user"@"host".resource_group.
func parseUser(s string, fail func(string) (Address, error)) (Address, error) {
	want := `want user."name"@"host".resource_group`
	u, err := strconv.QuotedPrefix(s)
	if err != nil || u[0] != '"' {
		return fail(want)
	}
	rest, ok := strings.CutPrefix(s[len(u):], "@")
	if !ok {
		return fail(want)
	}
	h, err := strconv.QuotedPrefix(rest)
	if err != nil || h[0] != '"' || rest[len(h):] != ".resource_group" {
		return fail(want)
	}
	user, _ := strconv.Unquote(u)
	host, _ := strconv.Unquote(h)
	return UserAddress(UserRef{User: user, Host: host}), nil
}

func isComponent(s string) bool {
	for _, c := range Components {
		if string(c) == s {
			return true
		}
	}
	return false
}

// Compare orders addresses by kind, component, instance, key and account:
// the order fingerprints and reports list them in. It returns -1, 0 or +1.
func Compare(a, b Address) int {
	// Field by field, stopping at the first difference (cmp.Or would
	// compare every field: this orders every row of a plan's fingerprint).
	if c := cmp.Compare(a.Kind, b.Kind); c != 0 {
		return c
	}
	if c := cmp.Compare(a.Component, b.Component); c != 0 {
		return c
	}
	if c := cmp.Compare(a.Instance, b.Instance); c != 0 {
		return c
	}
	if c := cmp.Compare(a.Key, b.Key); c != 0 {
		return c
	}
	if c := cmp.Compare(a.User.User, b.User.User); c != 0 {
		return c
	}
	return cmp.Compare(a.User.Host, b.User.Host)
}

// GroupName is a resource group's comparable name: TiDB compares resource
// group names lower-cased by Go's strings.ToLower (pingcap/tidb@e4e814fdc0af:
// pkg/parser/ast, model.NewCIStr), which case folding (strings.EqualFold) is
// not, and keeps spaces, so `a ` and `a` are two groups.
func GroupName(s string) string { return strings.ToLower(s) }

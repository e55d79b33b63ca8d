package catalog

import (
	"github.com/tiform/tiform/internal/upstream"
	"github.com/tiform/tiform/version"
)

// Class says what a key a component prints is. Most are settings; the
// others are printed by the component's config endpoint (SHOW CONFIG shows
// them) but are not settings tiform manages: import never writes them,
// export never puts them in server_configs, drift never reports them, and
// declaring one is a validation error (Class.Hint says what to do instead).
// New kinds of non-setting (for example keys that carry a secret) are new
// values of this one type, so every caller that asks Setting() keeps working.
type Class int

const (
	// ClassSetting is a setting: tiform may declare, plan and apply it.
	ClassSetting Class = iota
	// ClassIdentity is where and as what one instance runs, given by the
	// deployment to each instance: addresses, URLs, names, cluster
	// membership (initial-cluster, join), placement labels. Derived from the
	// components' command-line flags (tools/catalogen class.go).
	ClassIdentity
	// ClassPath is a path on the instance's host: data, log and WAL
	// directories, log files, certificate files.
	ClassPath
	// ClassComputed is computed by the component at every start and
	// overwrites whatever its config file says (TiKV's
	// in-memory-engine.expected-region-size follows the Region split size).
	ClassComputed
	// ClassReadOnly is printed but cannot be set (a variable of scope NONE).
	ClassReadOnly
)

// String names the class as `tiform catalog` shows it.
func (c Class) String() string {
	switch c {
	case ClassIdentity:
		return "identity"
	case ClassPath:
		return "path"
	case ClassComputed:
		return "computed"
	case ClassReadOnly:
		return "read-only"
	}
	return "setting"
}

// Setting reports whether the class is a setting tiform manages.
func (c Class) Setting() bool { return c == ClassSetting }

// Why says why a key of the class is not a setting, for diagnostics and the
// import summary.
func (c Class) Why() string {
	switch c {
	case ClassIdentity:
		return "it is one instance's own address, URL, name, cluster membership or placement label, which the deployment gives each instance"
	case ClassPath:
		return "it is a path on one instance's host, which the deployment gives each instance"
	case ClassComputed:
		return "the component computes it at every start and overwrites the value of its config file"
	case ClassReadOnly:
		return "it is read-only"
	}
	return ""
}

// Hint says what to do instead of declaring a key of the class.
func (c Class) Hint() string {
	switch c {
	case ClassIdentity, ClassPath:
		return "remove it: the deployment owns it (TiUP's host entries and run scripts, the TidbCluster spec of TiDB Operator)"
	case ClassComputed:
		return "remove it, and declare the setting it is computed from"
	case ClassReadOnly:
		return "remove it from the configuration"
	}
	return ""
}

// classOf maps a span's class to a Class.
func classOf(s string) Class {
	switch s {
	case upstream.ClassIdentity:
		return ClassIdentity
	case upstream.ClassPath:
		return ClassPath
	}
	return ClassSetting
}

// ClassIn is the entry's class in version v (its Class when v is zero or
// the setting does not exist there): a variable is read-only where its
// scope is NONE, a config key is what its span says.
func (e *Entry) ClassIn(v version.Version) Class {
	if e.Class == ClassComputed || e.ReadOnly || e.Pattern != "" {
		return e.Class // stated by the overlay, the scope, or the naming rule of a prefix's key
	}
	sp, gen := e.span(v)
	if !gen || sp == nil {
		return e.Class
	}
	if e.Target == TargetVariable && sp.Scope == "NONE" {
		return ClassReadOnly
	}
	return classOf(sp.Class)
}

// computed marks a key the component recomputes at every start (overlay).
func computed() opt { return func(e *Entry) { e.Class = ClassComputed } }

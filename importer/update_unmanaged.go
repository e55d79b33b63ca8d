package importer

import (
	"sort"
	"strings"

	"github.com/tiform/tiform/catalog"
	"github.com/tiform/tiform/diag"
	"github.com/tiform/tiform/planner"
	"github.com/tiform/tiform/state"
)

// unmanagedSetting accepts one unmanaged setting (plan --drift --unmanaged)
// into the configuration: declared in the cluster's own scope (its cluster
// block, or the end of the first file when there are none) at the value
// the cluster shows, with the version's default as its comment, as import
// would write it. A config key is declared for every instance when all
// instances of the component show the same value (PD's members always
// share one), otherwise per instance for those whose value is tuned.
func (u *updater) unmanagedSetting(c Drifted, s planner.UnmanagedSetting) {
	what := s.Addr.String()
	switch s.Addr.Kind {
	case state.KindVariable:
		e, ok := catalog.Variable(s.Addr.Key)
		if !ok || len(s.Live) != 1 {
			u.refuse(c.Desired, what, "the catalog does not know it")
			return
		}
		v, err := u.unmanagedValue(c, e, state.TiDB, s.Live[0].Value)
		if err != nil {
			u.refuse(c.Desired, what, err.Error())
			return
		}
		u.declare(c, what, v, target{variable: strings.ToLower(s.Addr.Key)})
	case state.KindConfig:
		comp, key := s.Addr.Component, s.Addr.Key
		e, ok := catalog.Config(string(comp), key)
		if !ok {
			u.refuse(c.Desired, what, "the catalog does not know it")
			return
		}
		vals := make([]value, len(s.Live))
		same := true
		for i, iv := range s.Live {
			v, err := u.unmanagedValue(c, e, comp, iv.Value)
			if err != nil {
				u.refuse(c.Desired, what, err.Error())
				return
			}
			vals[i] = v
			same = same && v.canon == vals[0].canon
		}
		if same && (comp == state.PD || len(s.Live) == len(c.Live.InstancesOf(comp))) {
			u.declare(c, what, vals[0], target{config: &configKey{comp: comp, key: key}})
			return
		}
		for i, iv := range s.Live {
			inst := strings.ToLower(iv.Instance)
			u.declare(c, state.ConfigAddress(comp, inst, key).String(), vals[i], target{config: &configKey{comp: comp, inst: inst, key: key}})
		}
	default:
		u.refuse(c.Desired, what, "import --update declares unmanaged config keys and variables only")
	}
}

// unmanagedValue is text as import writes it, with the default of the
// cluster's version for its comment.
func (u *updater) unmanagedValue(c Drifted, e *catalog.Entry, comp state.Component, text string) (value, error) {
	lit, canon, err := literal(e, text)
	if err == nil {
		err = e.Check(text)
	}
	if err != nil {
		return value{}, err
	}
	return value{lit: lit, canon: canon, dflt: defaultFor(e, versionOf(c.Live, comp), text, catalog.Host{Store: c.Live.Store()})}, nil
}

// declare adds v to the cluster's own scope.
func (u *updater) declare(c Drifted, what string, v value, t target) {
	u.override(drift{cluster: c.Desired, decl: diag.SourceRange{Filename: u.firstFile()}, what: what, from: "not declared",
		to: v, target: t, why: "unmanaged drift: now declared"})
}

// firstFile is the configuration's first file by name: where a
// configuration without cluster blocks gets its new declarations.
func (u *updater) firstFile() string {
	names := make([]string, 0, len(u.in.Sources))
	for n := range u.in.Sources {
		names = append(names, n)
	}
	sort.Strings(names)
	if len(names) == 0 {
		return ""
	}
	return names[0]
}

package catalog

import (
	"fmt"
	"math"

	"github.com/tiform/tiform/version"
)

// Helpers the entries_*.go tables use to stay readable. They run only at
// package initialisation on literal data; a malformed version literal there
// is a programming error caught by every test run.

type opt func(*Entry)

// restartTiKV is the RestartNote of TiKV items marked #[online_config(skip)]
// (tidb-facts.md §8.2, §2.6).
const restartTiKV = "restart-only: SET CONFIG answers the warning \"config <field> can not be changed\" (§8.2). " +
	"Change it in the deployment instead: TiUP `tiup cluster edit-config <cluster>` then " +
	"`tiup cluster reload <cluster> -R tikv`; TiDB Operator: edit spec.tikv.config of the TidbCluster (rolling restart)"

// restartUnlisted is the RestartNote of items tidb-facts.md does not list as
// online-changeable: tiform does not send SET CONFIG for them.
const restartUnlisted = "not listed as online-changeable (§2.4), so tiform treats it as restart-only: " +
	"TiUP `tiup cluster edit-config <cluster>` then `tiup cluster reload <cluster> -R tikv`, " +
	"or spec.tikv.config of the TidbCluster (TiDB Operator)"

func cfg(component, key string, kind Kind, source, doc string, opts ...opt) *Entry {
	e := &Entry{Target: TargetConfig, Component: component, Key: key, Kind: kind, Online: true, Source: source, Doc: doc}
	for _, o := range opts {
		o(e)
	}
	return e
}

func sysvar(name string, kind Kind, scope Scope, source, doc string, opts ...opt) *Entry {
	e := &Entry{Target: TargetVariable, Component: "tidb", Key: name, Kind: kind, Online: true, Scope: scope, Source: source, Doc: doc}
	for _, o := range opts {
		o(e)
	}
	return e
}

func ver(s string) version.Version {
	if s == "" {
		return version.Version{}
	}
	return version.MustParse(s)
}

// def adds a default from a version on ("" = from the beginning).
func def(since, value string) opt {
	return func(e *Entry) { e.Defaults = append(e.Defaults, Default{Since: ver(since), Value: value}) }
}

// defNote adds a default with a note ("new clusters only").
func defNote(since, value, note string) opt {
	return func(e *Entry) { e.Defaults = append(e.Defaults, Default{Since: ver(since), Value: value, Note: note}) }
}

func introduced(v string) opt  { return func(e *Entry) { e.Introduced = ver(v) } }
func deprecated(v string) opt  { return func(e *Entry) { e.Deprecated = ver(v) } }
func removed(v string) opt     { return func(e *Entry) { e.Removed = ver(v) } }
func unit(u string) opt        { return func(e *Entry) { e.Unit = u } }
func enum(vs ...string) opt    { return func(e *Entry) { e.Enum = vs } }
func family(f string) opt      { return func(e *Entry) { e.Family = f } }
func related(r ...string) opt  { return func(e *Entry) { e.Related = append(e.Related, r...) } }
func replacedBy(r string) opt  { return func(e *Entry) { e.ReplacedBy = r } }
func restart(note string) opt  { return func(e *Entry) { e.Online, e.RestartNote = false, note } }
func onlineSince(v string) opt { return func(e *Entry) { e.OnlineSince = ver(v) } }
func stringBool() opt          { return func(e *Entry) { e.StringBool = true } }
func experimental() opt        { return func(e *Entry) { e.Experimental = true } }
func readOnly() opt            { return func(e *Entry) { e.ReadOnly, e.Online = true, false } }
func prefix() opt              { return func(e *Entry) { e.Prefix = true } }

// rng sets an inclusive documented range in the kind's base unit (bytes,
// seconds, or the number); math.Inf(1) as hi means "no upper bound".
func rng(lo, hi float64) opt {
	return func(e *Entry) { e.HasRange, e.Min, e.Max = true, lo, hi }
}

// atLeast is rng(lo, +Inf).
func atLeast(lo float64) opt { return rng(lo, math.Inf(1)) }

// rngOpenLow is (lo, hi].
func rngOpenLow(lo, hi float64) opt {
	return func(e *Entry) { e.HasRange, e.Min, e.Max, e.MinExclusive = true, lo, hi, true }
}

// sprintf is fmt.Sprintf without importing fmt in every table file.
func sprintf(format string, a ...any) string { return fmt.Sprintf(format, a...) }

// advise sets a documented recommendation (see Entry.Advice).
func advise(lo, hi float64, why string) opt {
	return func(e *Entry) { e.HasAdvice, e.AdviceMin, e.AdviceMax, e.Advice = true, lo, hi, why }
}

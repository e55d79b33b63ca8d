package catalog

import (
	"fmt"
	"math"

	"github.com/tiform/tiform/version"
)

// Helpers the overlay and the hand-modelled tables use to stay readable.
// They run only at package initialisation on literal data; a malformed
// version literal there is a programming error caught by every test run.

type opt func(*Entry)

// Documentation pages the overlay cites most.
const (
	docDynamicConfig = "https://docs.pingcap.com/tidb/stable/dynamic-config"
	docTiKVConfig    = "https://docs.pingcap.com/tidb/stable/tikv-configuration-file"
	docPDConfig      = "https://docs.pingcap.com/tidb/stable/pd-configuration-file"
	docSysVars       = "https://docs.pingcap.com/tidb/stable/system-variables"
	docRegionSize    = "https://docs.pingcap.com/tidb/stable/tune-region-performance"
	docLoadBaseSplit = "https://docs.pingcap.com/tidb/stable/configure-load-base-split"
	docIME           = "https://docs.pingcap.com/tidb/stable/tikv-in-memory-engine"
	docResourceCtl   = "https://docs.pingcap.com/tidb/stable/tidb-resource-control-ru-groups"
	docPlanCache     = "https://docs.pingcap.com/tidb/stable/sql-prepared-plan-cache"
	docNonPrepCache  = "https://docs.pingcap.com/tidb/stable/sql-non-prepared-plan-cache"
	docInstanceCache = "https://docs.pingcap.com/tidb/stable/system-variables#tidb_enable_instance_plan_cache-new-in-v840"
	docTiFlashConfig = "https://docs.pingcap.com/tidb/stable/dynamic-config#modify-tiflash-configuration-dynamically"
)

// cfg builds a hand-modelled config entry (TiFlash).
func cfg(component, key string, kind Kind, sources []string, doc string, opts ...opt) *Entry {
	e := &Entry{Target: TargetConfig, Component: component, Key: key, Kind: kind, Online: true, Sources: sources, Doc: doc}
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

// defNote adds a default with a note ("new clusters only"); on a generated
// setting whose default upstream states, it only qualifies that default.
func defNote(since, value, note string) opt {
	return func(e *Entry) { e.Defaults = append(e.Defaults, Default{Since: ver(since), Value: value, Note: note}) }
}

func unit(u string) opt       { return func(e *Entry) { e.Unit = u } }
func enum(vs ...string) opt   { return func(e *Entry) { e.Enum = vs } }
func family(f string) opt     { return func(e *Entry) { e.Family = f } }
func related(r ...string) opt { return func(e *Entry) { e.Related = append(e.Related, r...) } }
func replacedBy(r string) opt { return func(e *Entry) { e.ReplacedBy = r } }
func experimental() opt       { return func(e *Entry) { e.Experimental = true } }
func prefix() opt             { return func(e *Entry) { e.Prefix = true } }

// restartIfEnabled: false→true is accepted online but needs a restart.
func restartIfEnabled(note string) opt {
	return func(e *Entry) { e.RestartIfEnabled, e.RestartNote = true, note }
}

// rng sets an inclusive documented range in the kind's base unit (bytes,
// seconds, or the number); math.Inf(1) as hi means "no upper bound".
func rng(lo, hi float64) opt {
	return func(e *Entry) { e.HasRange, e.Min, e.Max = true, lo, hi }
}

// atLeast is rng(lo, +Inf).
func atLeast(lo float64) opt { return rng(lo, math.Inf(1)) }

// sprintf is fmt.Sprintf without importing fmt in every table file.
func sprintf(format string, a ...any) string { return fmt.Sprintf(format, a...) }

// advise sets a documented recommendation (see Entry.Advice).
func advise(lo, hi float64, why string) opt {
	return func(e *Entry) { e.HasAdvice, e.AdviceMin, e.AdviceMax, e.Advice = true, lo, hi, why }
}

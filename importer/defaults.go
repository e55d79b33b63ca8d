package importer

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/tiform/tiform/catalog"
	"github.com/tiform/tiform/version"
)

// defaultInfo is what the catalog says about a value's default in the
// version the cluster runs; the comment on an imported value is made from it.
type defaultInfo struct {
	version string // "v8.5.1"; "" when the version is unknown
	known   bool   // the catalog records a default for this version
	value   string // the default, as the component renders it
	atDflt  bool   // the live value equals it
	// older is set when the live value equals a default of an earlier
	// version ("96MiB", before "v8.4.0"): the cluster kept it through an
	// upgrade, or someone set it back.
	older, olderUntil string
	// why says how a cluster comes to hold an older default, where the
	// version package knows it (region size, PD merge thresholds).
	why  string
	note string // the catalog's note on the default ("new clusters only…")
	// computed is, for a default the component computes from its host, how
	// and on what host ("45% of the memory limit … on 8 CPUs, 64GiB");
	// computedUnknown says why it could not be computed (the value is then
	// imported, known false).
	computed, computedUnknown string
}

// defaultFor is what the catalog's one decision (catalog.Entry.Judge:
// the version's default, computed from the host h where the component
// computes it, compared through catalog.Setting.Equal) says about text, a
// value the cluster shows, in the form an imported value's comment is made
// from.
func defaultFor(e *catalog.Entry, v version.Version, text string, h catalog.Host) defaultInfo {
	j := e.Judge(v, text, h)
	d := defaultInfo{}
	if !v.IsZero() {
		d.version = v.Short()
	}
	switch j.Standing {
	case catalog.NoDefault:
		return d
	case catalog.ComputedUnknown:
		d.computedUnknown = j.Computed.Unknown
		return d
	}
	d.known, d.value, d.note, d.atDflt = true, j.Default, j.Note, j.Standing == catalog.AtDefault
	if c := j.Computed; c != nil {
		d.note = ""
		d.computed = fmt.Sprintf("%s, on this host's %s CPUs and %s (%s)", c.Formula, strconv.FormatFloat(h.Machine.CPU, 'f', -1, 64), hostMemory(h.Machine.Memory), c.Source)
	}
	if j.Older != "" {
		d.older, d.olderUntil, d.why = j.Older, j.OlderUntil, olderWhy(e, v)
	}
	return d
}

// hostMemory shows a memory size in GiB when it is a whole number of them.
func hostMemory(b uint64) string {
	if b%(1<<30) == 0 {
		return strconv.FormatUint(b>>30, 10) + "GiB"
	}
	return strconv.FormatUint(b, 10) + " bytes"
}

// olderWhy explains an older default in a family whose history tiform
// knows; "" otherwise (the comment then only says which default it is).
func olderWhy(e *catalog.Entry, v version.Version) string {
	switch {
	case e.Family == "region-size" && v.InheritsRegionSize():
		return "kept through the upgrade: TiKV " + v.Short() + " inherits an undeclared Region size from last_tikv.toml, tikv/tikv#18505"
	case e.Family == "region-size" && v.RegionSizeReset():
		return "set in the TiKV config file: TiKV " + v.Short() + " resets an undeclared Region size to the new default at restart, tikv/tikv#18503"
	case e.Family == "pd-merge":
		return "PD keeps the value stored in etcd when the cluster was bootstrapped"
	}
	return ""
}

// comment is the text after "#" on an imported value: the default(s) of the
// version(s) the value is imported from. ds has one entry per cluster that
// shares the value (several in a baseline).
func comment(ds []defaultInfo) string {
	var parts []string
	seen := map[string]bool{}
	for _, g := range groupDefaults(ds) {
		p := g.text()
		if !seen[p] {
			seen[p] = true
			parts = append(parts, p)
		}
	}
	return strings.Join(parts, "; ")
}

// sameDefault is the defaults of several clusters that say the same thing,
// with the versions they run.
type sameDefault struct {
	d        defaultInfo
	versions []string
}

func groupDefaults(ds []defaultInfo) []sameDefault {
	var out []sameDefault
	for _, d := range ds {
		key := d
		key.version = ""
		found := false
		for i := range out {
			if out[i].d == key {
				out[i].versions = appendUnique(out[i].versions, d.version)
				found = true
				break
			}
		}
		if !found {
			out = append(out, sameDefault{d: key, versions: appendUnique(nil, d.version)})
		}
	}
	for i := range out {
		sort.Strings(out[i].versions)
	}
	return out
}

func appendUnique(list []string, s string) []string {
	if s == "" {
		return list
	}
	for _, x := range list {
		if x == s {
			return list
		}
	}
	return append(list, s)
}

// text renders one group: "default 256MiB (v8.5.1)", "default (v8.5.1)",
// "default 256MiB (v8.5.3); 96MiB is the default before v8.4.0, kept from an
// earlier version", "no default known (v8.5.1)".
func (g sameDefault) text() string {
	in := ""
	if len(g.versions) > 0 {
		in = " (" + strings.Join(g.versions, ", ") + ")"
	}
	d := g.d
	switch {
	case d.computedUnknown != "":
		return "default computed by TiKV from its host" + in + "; not computed here: " + d.computedUnknown
	case !d.known:
		return "no default known" + in
	case d.atDflt && d.computed != "":
		return "default" + in + ": " + d.computed
	case d.atDflt:
		return "default" + in
	}
	s := fmt.Sprintf("default %s%s", shown(d.value), in)
	if d.computed != "" {
		s += ": " + d.computed
	}
	if d.note != "" {
		s += ", " + d.note
	}
	if d.older != "" {
		if d.why != "" {
			s += fmt.Sprintf("; %s is the default before %s (%s)", shown(d.older), d.olderUntil, d.why)
		} else {
			s += fmt.Sprintf("; %s is also the default before %s", shown(d.older), d.olderUntil)
		}
	}
	return s
}

// shown is a default as a comment shows it: the empty string visibly.
func shown(s string) string {
	if s == "" {
		return `""`
	}
	return s
}

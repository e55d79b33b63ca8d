package cmd

import (
	"fmt"
	"io"
	"math"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/tiform/tiform/catalog"
	"github.com/tiform/tiform/version"
	"github.com/tiform/tiform/views"
)

func init() { register(newCatalogCmd) }

type catalogFlags struct {
	component string
	search    string
	format    string
	version   string
	online    string
	stats     bool
}

func newCatalogCmd(env *Env) *cobra.Command {
	var f catalogFlags
	c := &cobra.Command{
		Use:   "catalog",
		Short: "List the settings tiform knows: kind, online or restart, versions, defaults, sources",
		Long: `List the settings in tiform's catalog (docs/catalog.md): every TiKV and PD config
item and every TiDB system variable of v6.5.0 to v8.5.x and master, generated
from the upstream sources (internal/upstream/settings.json), plus TiFlash's
raftstore-proxy items; with the value kind, whether it changes online or needs
a restart, the versions it exists in, its default per version (where the
default changed, every value with the version it applies from) and the
public source of its facts (the upstream file at a release tag, the docs).

--component selects tikv, pd, tiflash, or tidb (system variables).
--search keeps entries whose name or description contains TEXT
(case-insensitive). --version keeps entries that exist in that version and
shows what holds there: online or not, scope, the default. --online yes
keeps what SET CONFIG / SET GLOBAL can change (in --version, or in the
newest release); --online no the rest. --stats prints how much of the
upstream table the catalog covers instead of the entries.`,
		Example: `  # everything
  tiform catalog

  # the Region size family and related PD merge settings
  tiform catalog --search region

  # TiKV items that cannot change online in v8.5.1
  tiform catalog --component tikv --online no --version v8.5.1

  # plan-cache variables as they are in v8.5.1, as JSON
  tiform catalog --component tidb --search plan_cache --version v8.5.1 --format json

  # coverage of the generated upstream table
  tiform catalog --stats`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			return runCatalog(env.Stdout, f)
		},
	}
	fl := c.Flags()
	fl.StringVar(&f.component, "component", "", "only this component: tikv, pd, tiflash or tidb (system variables)")
	fl.StringVar(&f.search, "search", "", "only entries whose name or description contains TEXT")
	fl.StringVar(&f.format, "format", "text", "output format: text or json")
	fl.StringVar(&f.version, "version", "", "only entries that exist in this version, with what holds there (e.g. v8.5.1)")
	fl.StringVar(&f.online, "online", "", "yes: only what changes online (SET CONFIG / SET GLOBAL); no: only what does not")
	fl.BoolVar(&f.stats, "stats", false, "print the coverage of the generated upstream table instead of the entries")
	return c
}

// catalogQuery is the parsed and checked flags.
type catalogQuery struct {
	comp, search string
	ver          version.Version
	online       string // "", "yes", "no"
}

func parseCatalogFlags(f catalogFlags) (catalogQuery, error) {
	q := catalogQuery{comp: strings.ToLower(f.component), search: strings.ToLower(f.search), online: strings.ToLower(f.online)}
	if f.format != "text" && f.format != "json" {
		return q, fmt.Errorf("catalog: --format %q: use text or json", f.format)
	}
	switch q.comp {
	case "", "tikv", "pd", "tiflash", "tidb":
	default:
		return q, fmt.Errorf("catalog: --component %q: use tikv, pd, tiflash or tidb", f.component)
	}
	switch q.online {
	case "", "yes", "no":
	default:
		return q, fmt.Errorf("catalog: --online %q: use yes or no", f.online)
	}
	if f.version != "" {
		v, err := version.Parse(f.version)
		if err != nil {
			return q, fmt.Errorf("catalog: --version: %w", err)
		}
		q.ver = v
	}
	return q, nil
}

// match reports whether e passes the query's filters.
func (q catalogQuery) match(e *catalog.Entry) bool {
	switch {
	case q.comp != "" && e.Component != q.comp:
		return false
	case q.search != "" && !strings.Contains(strings.ToLower(e.Address()+" "+e.Doc), q.search):
		return false
	case !q.ver.IsZero() && !e.ExistsIn(q.ver):
		return false
	case q.online != "" && (e.OnlineIn(q.ver) || e.RestartIfEnabled) != (q.online == "yes"):
		return false
	}
	return true
}

func runCatalog(out io.Writer, f catalogFlags) error {
	q, err := parseCatalogFlags(f)
	if err != nil {
		return exitCode(ExitError, err)
	}
	if f.stats {
		if f.format == "json" {
			return writeCatalogStatsJSON(out, catalog.Stats())
		}
		return writeCatalogStats(out, catalog.Stats())
	}
	var entries []*catalog.Entry
	for _, e := range catalog.Entries() {
		if q.match(e) {
			entries = append(entries, e)
		}
	}
	if f.format == "json" {
		return writeCatalogJSON(out, entries, q.ver)
	}
	return writeCatalogText(out, entries, q.ver)
}

// catalogRow is what both views of the catalog show of one entry: for
// --version what holds in that version, else the facts of the newest
// release (and "varies" where they differ between versions). The text and
// JSON views are built from it, so they cannot disagree.
type catalogRow struct {
	kind        catalog.Kind
	enum        []string
	kindText    string
	scope       string
	online      bool
	onlineText  string
	readOnly    bool
	class       catalog.Class
	restartNote string
	// def is the default that applies (--version) or every default with
	// the version it applies from; note its Note; computed the formula of a
	// default computed from the machine.
	def, note, computed string
	defInVersion        *string
}

func rowFor(e *catalog.Entry, ver version.Version) catalogRow {
	r := catalogRow{kind: e.KindIn(ver), enum: e.EnumIn(ver), scope: e.ScopeIn(ver).String(), class: e.ClassIn(ver)}
	r.kindText = kindText(e, r.kind, r.enum)
	r.readOnly = r.class == catalog.ClassReadOnly
	r.online = e.OnlineIn(ver) && !r.readOnly
	r.onlineText = onlineText(e, ver, r.class)
	if !r.online && !r.readOnly && r.class.Setting() {
		r.restartNote = e.RestartNote
	}
	r.def, r.note = defaultsText(e, ver)
	if !ver.IsZero() {
		if d, ok := e.DefaultIn(ver); ok {
			r.defInVersion = &d
		}
	}
	if f, ok := e.ComputedIn(ver); ok {
		r.computed = f
		if r.def == "" {
			r.def = "computed: " + f
		}
	}
	return r
}

func writeCatalogText(out io.Writer, entries []*catalog.Entry, ver version.Version) error {
	if len(entries) == 0 {
		fmt.Fprintln(out, "No settings match.")
		return nil
	}
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tKIND\tSCOPE\tONLINE\tVERSIONS\tDEFAULT\tSOURCE")
	var notes []string // footnotes: a default's note would make the column too wide
	for _, e := range entries {
		r := rowFor(e, ver)
		def := r.def
		if r.note != "" {
			notes = append(notes, fmt.Sprintf("[%d] %s: %s", len(notes)+1, e.Address(), r.note))
			def += fmt.Sprintf(" [%d]", len(notes))
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", e.Address(), r.kindText, dash(r.scope),
			r.onlineText, e.VersionsText(), dash(def), sourceText(e))
	}
	if err := tw.Flush(); err != nil {
		return exitCode(ExitError, fmt.Errorf("catalog: write: %w", err))
	}
	if len(notes) > 0 {
		fmt.Fprintln(out)
		for _, n := range notes {
			fmt.Fprintln(out, n)
		}
	}
	noun := "settings"
	if len(entries) == 1 {
		noun = "setting"
	}
	fmt.Fprintf(out, "\n%d %s (the generated upstream table covers %s).\n", len(entries), noun, catalog.TableRange())
	for _, e := range entries {
		if ver.IsZero() && e.OnlineText() != "" {
			fmt.Fprintln(out, "ONLINE \"varies\": online in some versions only; --version or --format json (online_versions) says which.")
			break
		}
	}
	return nil
}

// writeCatalogStats prints the coverage table.
func writeCatalogStats(out io.Writer, c catalog.Coverage) error {
	fmt.Fprintf(out, "Coverage of the generated upstream table at %s (internal/upstream/settings.json):\n\n", c.Release)
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "SETTINGS\tUPSTREAM\tCATALOGUED\t\tKIND STATED UPSTREAM\t")
	for _, g := range c.Groups {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%.1f%%\t%d\t%.1f%%\n", g.Name, g.Upstream, g.Catalogued, g.Percent(), g.Typed, g.TypedPercent())
	}
	if err := tw.Flush(); err != nil {
		return exitCode(ExitError, fmt.Errorf("catalog: write: %w", err))
	}
	fmt.Fprintln(out, "\nCatalogued: known with a kind, an online flag (a scope for variables) and a version range that agree with upstream.")
	fmt.Fprintln(out, "Kind stated upstream: read from a Rust or Go type or the type the docs state, not compared as text for want of one.")
	return nil
}

func writeCatalogStatsJSON(out io.Writer, c catalog.Coverage) error {
	doc := views.CatalogStats{Header: views.NewHeader(), Release: c.Release, Groups: []views.CatalogStatsGroup{}}
	for _, g := range c.Groups {
		doc.Groups = append(doc.Groups, views.CatalogStatsGroup{Name: g.Name, Upstream: g.Upstream, Catalogued: g.Catalogued,
			Percent: round1(g.Percent()), KindStated: g.Typed, KindStatedPercent: round1(g.TypedPercent())})
	}
	if err := views.Write(out, doc); err != nil {
		return exitCode(ExitError, fmt.Errorf("catalog: %w", err))
	}
	return nil
}

func round1(f float64) float64 { return math.Round(f*10) / 10 }

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func kindText(e *catalog.Entry, kind catalog.Kind, enum []string) string {
	k := kind.String()
	if kind == catalog.KindEnum {
		k += "(" + strings.Join(enum, "|") + ")"
	}
	if e.Unit != "" && e.Unit != "B" {
		k += " " + e.Unit
	}
	if e.Prefix {
		k += " (prefix rule)"
	}
	if e.Secret() != "" {
		k += " (credential)"
	}
	return k
}

func onlineText(e *catalog.Entry, ver version.Version, class catalog.Class) string {
	switch {
	case class == catalog.ClassReadOnly:
		return "read-only"
	case !class.Setting():
		return "not a setting (" + class.String() + ")"
	case e.RestartIfEnabled:
		return "yes (restart to enable)"
	case !ver.IsZero() && e.OnlineIn(ver):
		return "yes"
	case !ver.IsZero():
		return "restart"
	case e.OnlineText() != "":
		return "varies"
	case e.Online:
		return "yes"
	}
	return "restart"
}

// sourceText is the first source of an entry: the upstream file its facts
// were read from, or the documentation of a hand-modelled one.
func sourceText(e *catalog.Entry) string {
	if len(e.Sources) == 0 {
		return "-"
	}
	return e.Sources[0]
}

// defaultsText lists every documented default with the version it applies
// from ("96MiB; 256MiB (v8.4.0+)"), or only the one that applies in ver; note
// is the Note of a listed default ("new clusters only; …"), shown as a
// footnote.
func defaultsText(e *catalog.Entry, ver version.Version) (text, note string) {
	if !ver.IsZero() {
		d, ok := e.DefaultRecordIn(ver)
		if !ok {
			return "", ""
		}
		return d.Value, d.Note
	}
	parts := make([]string, 0, len(e.Defaults))
	var notes []string
	for _, d := range e.Defaults {
		s := d.Value
		if !d.Since.IsZero() {
			s += " (" + d.Since.Short() + "+)"
		}
		if d.Note != "" {
			notes = append(notes, d.Value+": "+d.Note)
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, "; "), strings.Join(notes, "; ")
}

func writeCatalogJSON(out io.Writer, entries []*catalog.Entry, ver version.Version) error {
	doc := views.Catalog{Header: views.NewHeader(), Entries: []views.CatalogEntry{}}
	if !ver.IsZero() {
		doc.Version = ver.Short()
	}
	short := func(v version.Version) string {
		if v.IsZero() {
			return ""
		}
		return v.Short()
	}
	for _, e := range entries {
		r := rowFor(e, ver)
		j := views.CatalogEntry{
			Address: e.Address(), Component: e.Component, Key: e.Key, Kind: r.kind.String(), Unit: e.Unit,
			Enum: views.Strings(r.enum), Online: r.online, OnlineVersions: e.OnlineText(), RestartNote: r.restartNote, RestartIfEnabled: e.RestartIfEnabled,
			ReadOnly: r.readOnly, Secret: e.Secret(), Class: r.class.String(), DefaultComputed: r.computed, Experimental: e.Experimental, Prefix: e.Prefix, Scope: r.scope,
			Introduced: short(e.Introduced), Deprecated: short(e.Deprecated), Removed: short(e.Removed),
			Versions: e.VersionsText(), Defaults: []views.Default{}, Family: e.Family, Related: views.Strings(e.Related),
			ReplacedBy: e.ReplacedBy, Sources: views.Strings(e.Sources), Doc: e.Doc, Target: "config",
		}
		if e.Target == catalog.TargetVariable {
			j.Target = "variable"
		}
		if e.HasRange {
			r := &views.Bounds{Min: e.Min, MinExclusive: e.MinExclusive, MaxExclusive: e.MaxExclusive}
			if !math.IsInf(e.Max, 1) {
				m := e.Max
				r.Max = &m
			}
			j.Bounds = r
		}
		if e.HasAdvice {
			j.Advice = &views.Advice{Min: e.AdviceMin, Max: e.AdviceMax, Text: e.Advice}
		}
		for _, d := range e.Defaults {
			j.Defaults = append(j.Defaults, views.Default{Since: short(d.Since), Value: d.Value, Note: d.Note})
		}
		j.DefaultInVersion = r.defInVersion
		doc.Entries = append(doc.Entries, j)
	}
	if err := views.Write(out, doc); err != nil {
		return exitCode(ExitError, fmt.Errorf("catalog: %w", err))
	}
	return nil
}

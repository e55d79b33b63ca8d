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
}

func newCatalogCmd(env *Env) *cobra.Command {
	var f catalogFlags
	c := &cobra.Command{
		Use:   "catalog",
		Short: "List the settings tiform knows: kind, online or restart, versions, defaults, sources",
		Long: `List the settings in tiform's catalog (docs/catalog.md): TiKV, PD and TiFlash
config items and TiDB system variables, with their value kind, whether they
change online or need a restart, the versions they exist in, their default per
version (where the default changed, every value is shown with the version it
applies from) and the section of tidb-facts.md each fact comes from.

Settings not in the catalog can still be declared: they are compared in the
kind the cluster shows them in (a size, a duration, a boolean, a number or text).

--component selects tikv, pd, tiflash, or tidb (system variables).
--search keeps entries whose name or description contains TEXT
(case-insensitive). --version keeps entries that exist in that version and
shows only the default that applies there.`,
		Example: `  # everything
  tiform catalog

  # the Region size family and related PD merge settings
  tiform catalog --search region

  # TiKV items only, as JSON
  tiform catalog --component tikv --format json

  # plan-cache variables as they are in v8.5.1
  tiform catalog --component tidb --search plan_cache --version v8.5.1`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			return runCatalog(env.Stdout, f)
		},
	}
	fl := c.Flags()
	fl.StringVar(&f.component, "component", "", "only this component: tikv, pd, tiflash or tidb (system variables)")
	fl.StringVar(&f.search, "search", "", "only entries whose name or description contains TEXT")
	fl.StringVar(&f.format, "format", "text", "output format: text or json")
	fl.StringVar(&f.version, "version", "", "only entries that exist in this version, with its defaults (e.g. v8.5.1)")
	return c
}

func runCatalog(out io.Writer, f catalogFlags) error {
	if f.format != "text" && f.format != "json" {
		return exitCode(ExitError, fmt.Errorf("catalog: --format %q: use text or json", f.format))
	}
	comp := strings.ToLower(f.component)
	switch comp {
	case "", "tikv", "pd", "tiflash", "tidb":
	default:
		return exitCode(ExitError, fmt.Errorf("catalog: --component %q: use tikv, pd, tiflash or tidb", f.component))
	}
	var ver version.Version
	if f.version != "" {
		v, err := version.Parse(f.version)
		if err != nil {
			return exitCode(ExitError, fmt.Errorf("catalog: --version: %w", err))
		}
		ver = v
	}
	search := strings.ToLower(f.search)
	var entries []*catalog.Entry
	for _, e := range catalog.Entries() {
		if comp != "" && e.Component != comp {
			continue
		}
		if search != "" && !strings.Contains(strings.ToLower(e.Address()+" "+e.Doc), search) {
			continue
		}
		if !ver.IsZero() && !e.ExistsIn(ver) {
			continue
		}
		entries = append(entries, e)
	}
	if f.format == "json" {
		return writeCatalogJSON(out, entries, ver)
	}
	if len(entries) == 0 {
		fmt.Fprintln(out, "No settings match.")
		return nil
	}
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tKIND\tSCOPE\tONLINE\tVERSIONS\tDEFAULT\tSOURCE")
	var notes []string // footnotes: a default's note would make the column too wide
	for _, e := range entries {
		def, note := defaultsText(e, ver)
		if note != "" {
			notes = append(notes, fmt.Sprintf("[%d] %s: %s", len(notes)+1, e.Address(), note))
			def += fmt.Sprintf(" [%d]", len(notes))
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", e.Address(), kindText(e), dash(e.Scope.String()),
			onlineText(e, ver), e.VersionsText(), dash(def), sourceText(e))
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
	fmt.Fprintf(out, "\n%d %s. Keys not listed are still accepted and compared in the kind the cluster shows them in.\n", len(entries), noun)
	return nil
}

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func kindText(e *catalog.Entry) string {
	k := e.Kind.String()
	if e.Kind == catalog.KindEnum {
		k += "(" + strings.Join(e.Enum, "|") + ")"
	}
	if e.Unit != "" && e.Unit != "B" {
		k += " " + e.Unit
	}
	if e.Prefix {
		k += " (prefix rule)"
	}
	return k
}

func onlineText(e *catalog.Entry, ver version.Version) string {
	switch {
	case e.ReadOnly:
		return "read-only"
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
		j := views.CatalogEntry{
			Address: e.Address(), Component: e.Component, Key: e.Key, Kind: e.Kind.String(), Unit: e.Unit,
			Enum: views.Strings(e.Enum), Online: e.Online, OnlineVersions: e.OnlineText(), RestartNote: e.RestartNote, RestartIfEnabled: e.RestartIfEnabled,
			ReadOnly: e.ReadOnly, Experimental: e.Experimental, Prefix: e.Prefix, Scope: e.Scope.String(),
			Introduced: short(e.Introduced), Deprecated: short(e.Deprecated), Removed: short(e.Removed),
			Versions: e.VersionsText(), Defaults: []views.Default{}, Family: e.Family, Related: views.Strings(e.Related),
			ReplacedBy: e.ReplacedBy, Sources: views.Strings(e.Sources), Doc: e.Doc, Target: "config",
		}
		if e.Target == catalog.TargetVariable {
			j.Target = "variable"
		}
		if e.HasRange {
			r := &views.Bounds{Min: e.Min, MinExclusive: e.MinExclusive}
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
		if !ver.IsZero() {
			if d, ok := e.DefaultIn(ver); ok {
				j.DefaultInVersion = &d
			}
		}
		doc.Entries = append(doc.Entries, j)
	}
	if err := views.Write(out, doc); err != nil {
		return exitCode(ExitError, fmt.Errorf("catalog: %w", err))
	}
	return nil
}

package importer

import (
	"fmt"
	"sort"
	"strings"

	"github.com/zclconf/go-cty/cty"

	"github.com/tiform/tiform/catalog"
	"github.com/tiform/tiform/diag"
	"github.com/tiform/tiform/planner"
	"github.com/tiform/tiform/plans"
	"github.com/tiform/tiform/state"
	"github.com/tiform/tiform/version"
)

// Drifted is one cluster of a configuration planned against what it holds.
type Drifted struct {
	Desired *state.DesiredCluster
	Live    *state.Live
	Changes []*plans.Change
	// Unmanaged are the cluster's unmanaged settings to declare (plan
	// --drift --unmanaged; import --update --unmanaged): not declared, live
	// value not the default, not accepted by an ignore block.
	Unmanaged []planner.UnmanagedSetting
}

// UpdateInput is what `tiform import --update` accepts drift from.
type UpdateInput struct {
	// Sources are the configuration's files by the name source ranges use.
	Sources  map[string][]byte
	Clusters []Drifted
	// Fleet: the configuration has cluster blocks (top-level declarations
	// are then a baseline other clusters may share).
	Fleet bool
	// Everyone: Clusters holds every cluster of the configuration, so a
	// baseline value every one of them drifted from may be rewritten.
	Everyone bool
}

// UpdateResult is what Update changed.
type UpdateResult struct {
	// Files holds the new content of every file that changed.
	Files map[string][]byte
	// Accepted lists each value taken from a cluster: "prod: tikv.x: 1 → 2".
	Accepted []string
	// Refused lists drift that could not be written, with the reason.
	Refused []string
}

// Update rewrites, in the configuration's files, the declared values that
// drifted on the clusters, keeping every comment and the layout: the value
// of an attribute is replaced in place; a value a cluster shares with others
// through the baseline gets an override in that cluster's block instead
// (the baseline is rewritten only when every cluster that inherits it
// drifted to the same value); a type-wide value some instances no longer
// have gets per-instance values. Only what the plan calls a change is
// touched: a declared value the cluster lacks (create) is reported, not
// removed.
func Update(in UpdateInput) (*UpdateResult, error) {
	u := &updater{in: in, res: &UpdateResult{Files: map[string][]byte{}}, shared: map[sharedKey][]drift{}, adds: map[string]*layer{}, addFile: map[string]string{}}
	for _, c := range in.Clusters {
		u.cluster(c)
	}
	u.decideShared()
	if err := u.write(); err != nil {
		return nil, err
	}
	sort.Strings(u.res.Accepted)
	return u.res, nil
}

// drift is one declared value to bring in line with a cluster.
type drift struct {
	cluster *state.DesiredCluster
	decl    diag.SourceRange // where the value is declared
	what    string           // the plan's address, for the report
	from    string           // the declared value, as shown
	to      value            // the cluster's value
	// target says what the value sets, for an override in the cluster's
	// block when the declaration is shared.
	target target
	// why an override is added instead of a rewrite, for the report.
	why string
}

// target is what a drifted value sets: a config key, a variable, or a
// resource-group option (query_limit and background as whole blocks).
type target struct {
	config   *configKey
	variable string
	group    string
	field    string
	block    *block // query_limit / background: the whole block
}

type sharedKey struct {
	file       string
	start, end int
}

type updater struct {
	in     UpdateInput
	res    *UpdateResult
	edits  []edit
	shared map[sharedKey][]drift
	adds   map[string]*layer // cluster name → overrides to add to its block
	// addFile is the file each cluster's overrides go into: its cluster
	// block's, or (no cluster blocks) the file of the first declaration.
	addFile map[string]string
	order   []string
	users   map[string]bool
}

// cluster derives the drift of one cluster from its plan.
func (u *updater) cluster(c Drifted) {
	for _, ch := range c.Changes {
		switch {
		case ch.Sensitive:
			// A credential, or a value from a variable marked sensitive:
			// what the cluster holds is not written into files.
			u.refuse(c.Desired, ch.Addr.String(), "it holds a credential or a sensitive value, which import --update never writes into a file; change the variable's value where tiform runs, or set it on the cluster")
		case ch.Addr.Kind == state.KindConfig && (ch.Action == plans.Update || ch.Action == plans.Drift):
			u.configDrift(c, ch)
		case ch.Addr.Kind == state.KindVariable && ch.Action == plans.Update:
			u.variableDrift(c, ch)
		case ch.Addr.Kind == state.KindResourceGroup && ch.Action == plans.Update:
			u.groupDrift(c, ch)
		case ch.Addr.Kind == state.KindUser:
			u.userDrift(c, ch)
		default:
			u.refuse(c.Desired, ch.Addr.String(), fmt.Sprintf("the plan would %s it; import --update only takes values that drifted (remove or fix the declaration by hand)", ch.Action))
		}
	}
	for _, s := range c.Unmanaged {
		u.unmanagedSetting(c, s)
	}
}

func (u *updater) refuse(dc *state.DesiredCluster, what, why string) {
	u.res.Refused = append(u.res.Refused, fmt.Sprintf("%s: %s: %s", dc.Name, what, why))
}

// accept records d: rewritten in place when the declaration is the
// cluster's own, decided later when it is shared.
func (u *updater) accept(d drift) {
	if u.own(d.cluster, d.decl) {
		u.rewrite(d)
		return
	}
	k := sharedKey{d.decl.Filename, d.decl.Start.Byte, d.decl.End.Byte}
	u.shared[k] = append(u.shared[k], d)
}

// own reports whether r lies in dc's own scope: its cluster block, or the
// whole configuration when there are no cluster blocks.
func (u *updater) own(dc *state.DesiredCluster, r diag.SourceRange) bool {
	if !u.in.Fleet {
		return true
	}
	cr := dc.Range
	return r.Filename == cr.Filename && r.Start.Byte >= cr.Start.Byte && r.End.Byte <= cr.End.Byte
}

func (u *updater) rewrite(d drift) {
	u.edits = append(u.edits, edit{rng: d.decl, to: d.to, block: d.target.block, blockName: d.target.field, what: d.what})
	u.res.Accepted = append(u.res.Accepted, fmt.Sprintf("%s: %s: %s → %s", d.cluster.Name, d.what, d.from, shownValue(d.to)))
}

// decideShared rewrites a baseline value when every cluster inheriting it
// was read and drifted to the same value; otherwise each drifted cluster
// gets an override in its own block.
func (u *updater) decideShared() {
	keys := make([]sharedKey, 0, len(u.shared))
	for k := range u.shared {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		return keys[i].file < keys[j].file || keys[i].file == keys[j].file && keys[i].start < keys[j].start
	})
	for _, k := range keys {
		ds := u.shared[k]
		same := true
		for _, d := range ds[1:] {
			if d.to.canon != ds[0].to.canon {
				same = false
			}
		}
		if u.in.Everyone && same && len(ds) == u.inheritors(ds[0].decl) {
			for i, d := range ds {
				if i == 0 {
					u.rewrite(d)
					continue
				}
				u.res.Accepted = append(u.res.Accepted, fmt.Sprintf("%s: %s: %s → %s", d.cluster.Name, d.what, d.from, shownValue(d.to)))
			}
			continue
		}
		for _, d := range ds {
			u.override(d)
		}
	}
}

// inheritors counts the clusters whose declared value comes from r.
func (u *updater) inheritors(r diag.SourceRange) int {
	n := 0
	for _, c := range u.in.Clusters {
		if declaresAt(c.Desired, r) {
			n++
		}
	}
	return n
}

func declaresAt(dc *state.DesiredCluster, r diag.SourceRange) bool {
	for _, s := range dc.Config {
		if s.Range == r {
			return true
		}
	}
	for _, v := range dc.Variables {
		if v.Range == r {
			return true
		}
	}
	for _, g := range dc.ResourceGroups {
		for _, fr := range g.FieldRanges {
			if fr == r {
				return true
			}
		}
	}
	return false
}

// override adds d's value to its cluster's block.
func (u *updater) override(d drift) {
	name := d.cluster.Name
	ly := u.adds[name]
	if ly == nil {
		ly = newLayer()
		u.adds[name] = ly
		u.order = append(u.order, name)
		u.addFile[name] = d.decl.Filename
		if u.in.Fleet {
			u.addFile[name] = d.cluster.Range.Filename
		}
	}
	it := item{lit: d.to}
	switch t := d.target; {
	case t.config != nil:
		ly.config[*t.config] = it
	case t.variable != "":
		ly.vars[t.variable] = it
	case t.group != "":
		g := ly.groups[t.group]
		if g == nil {
			g = &layerGroup{attrs: map[string]item{}}
			ly.groups[t.group] = g
		}
		switch t.field {
		case "query_limit":
			g.queryLimit = t.block
		case "background":
			g.background = t.block
		default:
			g.attrs[t.field] = it
		}
	}
	why := d.why
	if why == "" {
		why = fmt.Sprintf("the baseline gives other clusters this value too: overridden in cluster %q", name)
	}
	u.res.Accepted = append(u.res.Accepted, fmt.Sprintf("%s: %s: %s → %s (%s)", name, d.what, d.from, shownValue(d.to), why))
}

// relit is the value to declare for text, a value the cluster shows,
// written like the declaration it replaces where the kind allows: a size
// declared as a number of bytes stays a number, a boolean declared as "ON"
// stays a word.
func relit(e *catalog.Entry, text string, was state.Value) (value, error) {
	if e == nil {
		t := strings.TrimSpace(text)
		switch {
		case was.Type == state.LiteralBool && (t == "true" || t == "false"):
			return value{lit: cty.BoolVal(t == "true"), canon: t, bare: true}, nil
		case was.Type == state.LiteralNumber:
			if v, c, err := number(t); err == nil {
				return value{lit: v, canon: c, bare: true}, nil
			}
		}
		return value{lit: cty.StringVal(t), canon: t, bare: true}, nil
	}
	lit, canon, err := literal(e, text)
	if err != nil {
		return value{}, err
	}
	switch {
	case was.Type == state.LiteralNumber && e.Kind == catalog.KindSize:
		lit, canon, err = number(canon)
	case was.Type == state.LiteralString && e.Kind == catalog.KindBool:
		lit = cty.StringVal(e.Render(canon))
	}
	return value{lit: lit, canon: canon, bare: true}, err
}

// versionOf is the version defaults are read in for a component.
func versionOf(l *state.Live, comp state.Component) version.Version {
	if comp == state.TiDB {
		return l.ServerVersionParsed
	}
	v, _ := l.MinVersion(comp)
	return v
}

// shownValue is a value as the report shows it.
func shownValue(v value) string {
	return strings.TrimSpace(string(tokensFor(v.lit)))
}

package schema

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"path/filepath"
	"runtime/debug"
	"slices"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/tiform/tiform/diag"
	"github.com/tiform/tiform/input"
	"github.com/tiform/tiform/state"
)

// Options are the inputs of Load that do not come from the configuration files.
type Options struct {
	// Vars are -var NAME=VALUE flags. A value for a string (or untyped)
	// variable is taken verbatim; for other types it is parsed as an HCL
	// expression (`-var 'ru=[1,2]'`).
	Vars map[string]string
	// VarFiles are --var-file paths: HCL files of `name = value` lines,
	// applied in order (later files win).
	VarFiles []string
	// Env looks up environment variables (env() and TIFORM_VAR_<name>);
	// nil means os.LookupEnv.
	Env func(string) (string, bool)
	// DefaultDSN is the DSN of the implicit "default" cluster used when the
	// configuration declares no cluster block (the CLI passes --dsn or
	// TIFORM_DSN). Secret: never printed.
	DefaultDSN string
	// Offline is set by `tiform validate`: env("X") of an unset variable
	// without a default is not an error; values that depend on it are unknown
	// and left unchecked (a DSN becomes "").
	Offline bool
	// AllowEnv names the environment variables env() may read anywhere in
	// the configuration (--allow-env, TIFORM_ALLOW_ENV). It is never read
	// from the configuration itself: a pull request cannot widen it. Besides
	// these, a cluster's dsn = env("NAME") may read NAME, there only.
	AllowEnv []string
	// maxEval lowers MaxEvalBytes (tests); 0 = MaxEvalBytes.
	maxEval int64
	// Clusters, when set, names the clusters that will be contacted (plan
	// --cluster NAME): inside the other cluster blocks env("X") is treated
	// as Offline, so planning one cluster of a fleet needs only that
	// cluster's secrets. Every cluster is still loaded and checked.
	Clusters []string
}

// source is one configuration file.
type source struct {
	name string // as printed in diagnostics: dir/file.hcl
	src  []byte
}

// Load reads every *.hcl file in dir (sorted by name), evaluates variables,
// locals and functions, and resolves the fleet into one DesiredCluster per
// cluster block (or one "default" cluster). It never panics: every problem is
// a diagnostic with a source range and a snippet. When the returned
// diagnostics have errors, the Desired is nil.
func Load(dir string, opts Options) (*state.Desired, diag.Diagnostics) {
	cd, err := input.OpenDir(dir, "the configuration directory")
	if err != nil {
		return nil, diag.Diagnostics{{
			Severity: diag.Error,
			Summary:  fmt.Sprintf("cannot read configuration directory %s", dir),
			Detail:   errText(err),
			Hint:     "pass the directory holding your *.hcl files with --chdir DIR",
		}}
	}
	defer cd.Close()
	names, err := cd.Names(".hcl")
	if err != nil {
		return nil, diag.Diagnostics{{
			Severity: diag.Error,
			Summary:  fmt.Sprintf("cannot read configuration directory %s", dir),
			Detail:   errText(err),
			Hint:     "pass the directory holding your *.hcl files with --chdir DIR",
		}}
	}
	var srcs []source
	for _, name := range names {
		p := displayPath(dir, name)
		// Through the directory's root: a *.hcl link to a file outside is
		// refused before a byte of it is read, so no diagnostic can quote it.
		b, err := cd.ReadFile(name, input.Config)
		if err != nil {
			return nil, diag.Diagnostics{{
				Severity: diag.Error,
				Summary:  fmt.Sprintf("cannot read %s", p),
				Detail:   errText(err),
				Hint:     confinedHint(err),
			}}
		}
		srcs = append(srcs, source{name: p, src: b})
	}
	if len(srcs) == 0 {
		return nil, diag.Diagnostics{{
			Severity: diag.Error,
			Summary:  fmt.Sprintf("no configuration files: %s has no *.hcl files", dir),
			Hint:     "pass the directory holding your *.hcl files with --chdir DIR",
		}}
	}
	sort.Slice(srcs, func(i, j int) bool { return srcs[i].name < srcs[j].name })
	return loadSources(dir, srcs, opts)
}

// confinedHint is the hint of a file that could not be read: for one that
// leads out of its directory, what to do instead.
func confinedHint(err error) string {
	if errors.Is(err, input.ErrOutside) {
		return "keep the configuration's files inside the directory: replace the link with the file itself"
	}
	return ""
}

// LoadFiles is Load for files held in memory (base name → content), named
// as if they were the *.hcl files of dir: `tiform import` checks what it
// generates before writing it.
func LoadFiles(dir string, files map[string][]byte, opts Options) (*state.Desired, diag.Diagnostics) {
	srcs := make([]source, 0, len(files))
	for name, b := range files {
		srcs = append(srcs, source{name: displayPath(dir, name), src: b})
	}
	sort.Slice(srcs, func(i, j int) bool { return srcs[i].name < srcs[j].name })
	return loadSources(dir, srcs, opts)
}

// DisplayPath is how a file of dir is named in diagnostics and source
// ranges: relative to the current directory the way the user named dir.
func DisplayPath(dir, name string) string { return displayPath(dir, name) }

// displayPath is how a file is named in diagnostics: relative to the current
// directory the way the user named dir.
func displayPath(dir, name string) string {
	if dir == "" || dir == "." {
		return name
	}
	return filepath.Join(dir, name)
}

// loadSources is Load after the files are read (the fuzz target calls it
// directly). Panics in the HCL or cty libraries become an error diagnostic.
func loadSources(dir string, srcs []source, opts Options) (d *state.Desired, diags diag.Diagnostics) {
	defer func() {
		if r := recover(); r != nil {
			d = nil
			diags = append(diags, diag.Diagnostic{
				Severity: diag.Error,
				Summary:  "internal error while loading the configuration",
				Detail:   fmt.Sprintf("%v\n%s", r, firstFrames(debug.Stack())),
				Hint: "please report this with the file that causes it; " +
					"meanwhile, simplify the expression the error points near",
			})
		}
	}()
	l := newLoader(dir, srcs, opts)
	desired := l.run()
	ds := l.b.diags.Dedupe()
	ds.Sort()
	hidden := l.hiddenValues()
	// One copy of the sources, every secret and hidden value masked, serves
	// these diagnostics and, through Desired.Sources, the planner's.
	sources := diag.NewSources(l.files, append(append([]string(nil), l.secrets...), hidden...))
	sources.Attach(ds)
	hideValues(ds, hidden)
	if ds.HasErrors() {
		return nil, ds
	}
	desired.Sources = sources
	return desired, ds
}

// hiddenValues are texts no diagnostic may contain, whatever produced it (an
// HCL or cty error message can quote a value): every DSN, the default DSN,
// and the values of variables marked sensitive (when at least 4 characters,
// so that masking cannot garble ordinary words).
func (l *loader) hiddenValues() []string {
	out := append([]string{}, l.dsns...)
	if l.opts.DefaultDSN != "" {
		out = append(out, l.opts.DefaultDSN)
	}
	for name, v := range l.vars {
		val, ok := l.varVals[name]
		val, _ = val.UnmarkDeep()
		if !v.sensitive || !ok || !val.IsWhollyKnown() || val.IsNull() || val.Type() != cty.String {
			continue
		}
		if s := val.AsString(); len(s) >= 4 {
			out = append(out, s)
		}
	}
	return out
}

// hideValues replaces every hidden value in every text of every diagnostic.
func hideValues(ds diag.Diagnostics, hidden []string) {
	if len(hidden) == 0 {
		return
	}
	// Longest first, so that a DSN is hidden whole before its password.
	sort.Slice(hidden, func(i, j int) bool { return len(hidden[i]) > len(hidden[j]) })
	h := func(s string) string {
		for _, x := range hidden {
			if x != "" {
				s = strings.ReplaceAll(s, x, "(hidden)")
			}
		}
		return s
	}
	for i := range ds {
		d := &ds[i]
		d.Summary, d.Detail, d.Hint, d.Snippet = h(d.Summary), h(d.Detail), h(d.Hint), h(d.Snippet)
		for j := range d.Related {
			d.Related[j].Snippet = h(d.Related[j].Snippet)
		}
	}
}

func firstFrames(stack []byte) string {
	lines := strings.Split(string(stack), "\n")
	if len(lines) > 12 {
		lines = lines[:12]
	}
	return strings.Join(lines, "\n")
}

// loader holds the state of one Load call.
type loader struct {
	dir   string
	opts  Options
	srcs  []source
	files map[string][]byte // name → contents, for snippets
	b     diagBuilder
	// secrets are passwords found in DSN literals; masked in every snippet.
	secrets []string
	// dsns are the evaluated DSNs; never printed (see hiddenValues).
	dsns []string

	bodies []*hclsyntax.Body

	vars        map[string]*varDecl
	varOrder    []string
	varVals     map[string]cty.Value
	locals      map[string]*hclsyntax.Attribute
	localVals   map[string]cty.Value
	localBusy   map[string]bool
	localFailed map[string]bool
	ctx         *hcl.EvalContext
	// filesCtx is filesOnlyContext's result, built on first use.
	filesCtx *hcl.EvalContext
	// dsnEnv holds the environment variables the dsn being evaluated may
	// read (dsnEnvNames); nil outside a dsn.
	dsnEnv map[string]bool
	// sensitiveUses are the ranges of evaluated expressions whose value came
	// from a sensitive variable; sensitiveOK those of them where tiform can
	// hide the value (a setting's value, a dsn). See sensitive.go.
	sensitiveUses, sensitiveOK []hcl.Range
	// spent is the size of every value evaluated so far (budget.go).
	spent int64
}

// envAllowed reports whether env(name) may be read where evaluation is now:
// a name given with --allow-env, or, while a cluster's dsn is evaluated, a
// variable whose value is that whole DSN (dsnEnvNames).
func (l *loader) envAllowed(name string) bool {
	return l.dsnEnv[name] || slices.Contains(l.opts.AllowEnv, name)
}

func newLoader(dir string, srcs []source, opts Options) *loader {
	l := &loader{
		dir: dir, opts: opts, srcs: srcs,
		files:       map[string][]byte{},
		vars:        map[string]*varDecl{},
		varVals:     map[string]cty.Value{},
		locals:      map[string]*hclsyntax.Attribute{},
		localVals:   map[string]cty.Value{},
		localBusy:   map[string]bool{},
		localFailed: map[string]bool{},
	}
	l.ctx = &hcl.EvalContext{
		Variables: map[string]cty.Value{},
	}
	l.ctx.Functions = functions(dir, opts, l.envAllowed)
	return l
}

func (l *loader) run() *state.Desired {
	hash := sha256.New()
	for _, s := range l.srcs {
		l.files[s.name] = s.src
		l.secrets = append(l.secrets, dsnPasswordsInText(s.src)...)
		fmt.Fprintf(hash, "%s\x00%d\x00", filepath.Base(s.name), len(s.src))
		hash.Write(s.src)
		if d, deep := checkNesting(s.src, s.name, false); deep {
			l.b.add(d)
			continue
		}
		f, hd := hclsyntax.ParseConfig(s.src, s.name, hcl.InitialPos)
		l.b.hcl(hd)
		if f == nil {
			continue
		}
		if body, ok := f.Body.(*hclsyntax.Body); ok {
			l.bodies = append(l.bodies, body)
		}
	}
	if l.b.hasErrors() {
		// Syntax errors: the structure is unreliable; report only them.
		return nil
	}
	if l.checkNumberLiterals(l.bodies...) {
		return nil
	}

	l.declareVariables()
	l.assignVariables(hash)
	l.markSensitive()
	l.collectLocals()
	l.refreshContext()
	for _, name := range sortedKeys(l.locals) {
		l.evalLocal(name)
	}
	l.refreshContext()

	base := newLayer("")
	var clusters []*clusterDecl
	clusterNames := map[string]hcl.Range{}
	var rollout *rolloutDecl
	var windows []state.Window
	var windowRngs []hcl.Range
	windowNames := map[string]hcl.Range{}
	for _, body := range l.bodies {
		for _, it := range bodyItems(body) {
			switch {
			case it.attr != nil:
				l.layerAttr(base, it.attr, false)
			case it.block.Type == "variable" || it.block.Type == "locals":
				// handled above
			case it.block.Type == "rollout":
				if r := l.rolloutBlock(it.block, rollout); r != nil {
					rollout = r
				}
			case it.block.Type == "window":
				if w, ok := l.windowBlock(it.block, windowNames); ok {
					windows = append(windows, w)
					windowRngs = append(windowRngs, it.block.LabelRanges[0])
				}
			case it.block.Type == "cluster":
				c := l.clusterBlock(it.block)
				if c == nil {
					continue
				}
				if first, dup := clusterNames[c.name]; dup {
					l.b.duplicate(c.labelRange, first, fmt.Sprintf("duplicate cluster %q", c.name),
						"Each cluster block must have a unique name.")
					continue
				}
				clusterNames[c.name] = c.labelRange
				clusters = append(clusters, c)
			default:
				l.layerBlock(base, it.block, false)
			}
		}
	}

	l.checkSensitiveUses()
	out := &state.Desired{ConfigHash: hex.EncodeToString(hash.Sum(nil))}
	if len(clusters) == 0 {
		dc := l.resolve(base, &clusterDecl{name: "default", layer: newLayer("default")})
		dc.DSN = l.opts.DefaultDSN
		out.Clusters = append(out.Clusters, dc)
	}
	for _, c := range clusters {
		out.Clusters = append(out.Clusters, l.resolve(base, c))
	}
	if rollout != nil && len(rollout.r.Stages) > 0 {
		l.checkRollout(rollout, out.Clusters)
		out.Rollout = &rollout.r
	}
	l.checkWindows(windows, windowRngs, out.Clusters)
	out.Windows = windows
	l.checkNoDSNPassword(out.Clusters)
	return out
}

// checkNumberLiterals reports number literals beyond float64's range before
// anything is evaluated: converting such a number to text (a template, a
// tostring) takes unbounded time in cty. It reports whether any was found.
func (l *loader) checkNumberLiterals(bodies ...*hclsyntax.Body) bool {
	found := false
	for _, body := range bodies {
		hclsyntax.VisitAll(body, func(n hclsyntax.Node) hcl.Diagnostics {
			lit, ok := n.(*hclsyntax.LiteralValueExpr)
			if !ok || lit.Val.Type() != cty.Number || !lit.Val.IsKnown() || lit.Val.IsNull() {
				return nil
			}
			f := lit.Val.AsBigFloat()
			if f.Sign() != 0 && (f.MantExp(nil) > maxNumberExp || f.MantExp(nil) < -maxNumberExp) {
				found = true
				l.b.errorf(lit.SrcRange, "number out of range",
					"No TiDB setting takes a number this large or this close to zero (the limit is float64's range, about 1e308).",
					"write the value the setting takes (tiform catalog shows each setting's default and range)")
			}
			return nil
		})
	}
	return found
}

// item is one attribute or block of a body, in source order.
type item struct {
	attr  *hclsyntax.Attribute
	block *hclsyntax.Block
}

func (it item) start() hcl.Pos {
	if it.attr != nil {
		return it.attr.SrcRange.Start
	}
	return it.block.TypeRange.Start
}

// bodyItems returns a body's attributes and blocks in source order.
func bodyItems(body *hclsyntax.Body) []item {
	var out []item
	for _, a := range body.Attributes {
		out = append(out, item{attr: a})
	}
	for _, b := range body.Blocks {
		out = append(out, item{block: b})
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].start().Byte < out[j].start().Byte })
	return out
}

func sortedKeys[K ~string, V any](m map[K]V) []K {
	out := make([]K, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}

// refreshContext publishes the current variable and local values to expressions.
func (l *loader) refreshContext() {
	l.ctx.Variables["var"] = cty.ObjectVal(l.varVals)
	l.ctx.Variables["local"] = cty.ObjectVal(l.localVals)
}

// eval evaluates an expression after checking its references, so that a
// misspelled var.x gets a suggestion. ok is false when a diagnostic was added.
// The value is returned without marks: when it came from a variable marked
// sensitive, the expression's range is recorded instead (sensitive.go).
func (l *loader) eval(expr hclsyntax.Expression) (cty.Value, bool) {
	v, ok := l.evalMarked(expr)
	return l.unmark(v, expr.Range()), ok
}

// evalMarked is eval keeping cty marks (for locals, whose marks must reach
// the expressions that use them).
func (l *loader) evalMarked(expr hclsyntax.Expression) (cty.Value, bool) {
	if !l.checkRefs(expr) || !l.checkBudget(expr) {
		return cty.DynamicVal, false
	}
	v, hd := expr.Value(l.ctx)
	ds := fromHCL(hd)
	for i := range ds {
		rewriteEnvDiag(&ds[i])
	}
	l.b.diags = append(l.b.diags, ds...)
	if hd.HasErrors() {
		return cty.DynamicVal, false
	}
	if !l.spend(v, expr.Range()) {
		return cty.DynamicVal, false
	}
	return v, true
}

// rewriteEnvDiag turns HCL's generic "Invalid function argument" for an
// unset or not-allowed environment variable into a diagnostic that names it.
func rewriteEnvDiag(d *diag.Diagnostic) {
	if d.Summary != "Invalid function argument" {
		return
	}
	if i := strings.Index(d.Detail, envNotAllowedMarker); i >= 0 {
		name, _, _ := strings.Cut(d.Detail[i+len(envNotAllowedMarker):], " ")
		name = strings.TrimRight(name, ".")
		d.Summary = fmt.Sprintf("env(%q): this configuration may not read environment variable %s", name, name)
		d.Detail = "env() reads only the environment variables named where tiform runs, with --allow-env NAME (or " +
			"TIFORM_ALLOW_ENV=NAME,…), and a cluster's dsn = env(\"NAME\"), for that dsn only. The list cannot be " +
			"widened from the configuration, so that a pull request cannot read the CI's secrets and show them in a plan."
		d.Hint = fmt.Sprintf("if %s is meant to be read here, run tiform with --allow-env %s; to pass a value, prefer an input variable (--var, --var-file or TIFORM_VAR_<name>)", name, name)
		return
	}
	const marker = "environment variable "
	i := strings.Index(d.Detail, marker)
	if i < 0 || !strings.Contains(d.Detail, " is not set") {
		return
	}
	rest := d.Detail[i+len(marker):]
	name, _, _ := strings.Cut(rest, " ")
	d.Summary = fmt.Sprintf("environment variable %s is not set", name)
	d.Detail = "env() without a default fails when the variable is unset, so that a forgotten export does not silently become an empty value."
	d.Hint = fmt.Sprintf("export %s=…, or give a default: env(%q, \"…\")", name, name)
}

// checkRefs reports references to undeclared variables/locals and unknown
// roots, with suggestions; it evaluates locals on demand.
func (l *loader) checkRefs(expr hclsyntax.Expression) bool {
	ok := true
	for _, tr := range hclsyntax.Variables(expr) {
		root := tr.RootName()
		switch root {
		case "var", "local":
			if len(tr) < 2 {
				l.b.errorf(tr.SourceRange(), fmt.Sprintf("%s must be followed by a name", root),
					fmt.Sprintf("Refer to one %s at a time, for example %s.name.", map[string]string{"var": "input variable", "local": "local value"}[root], root),
					fmt.Sprintf("write %s.NAME", root))
				ok = false
				continue
			}
			name, nameOK := traverserName(tr[1])
			if !nameOK {
				l.b.errorf(tr.SourceRange(), fmt.Sprintf("invalid reference to %s", root),
					fmt.Sprintf("Use %s.name with a literal name.", root), fmt.Sprintf("write %s.NAME", root))
				ok = false
				continue
			}
			if root == "var" {
				if _, found := l.vars[name]; !found {
					l.b.errorf(tr.SourceRange(), fmt.Sprintf("reference to undeclared input variable %q", name),
						fmt.Sprintf("Declare it with variable %q { … } in any *.hcl file of the directory.", name),
						didYouMean(name, sortedKeys(l.vars), "var."))
					ok = false
				}
				continue
			}
			if _, found := l.locals[name]; !found {
				l.b.errorf(tr.SourceRange(), fmt.Sprintf("reference to undeclared local value %q", name),
					"Local values are declared in locals { … } blocks.", didYouMean(name, sortedKeys(l.locals), "local."))
				ok = false
				continue
			}
			if !l.evalLocal(name) {
				ok = false
			}
		default:
			l.b.errorf(tr.SourceRange(), fmt.Sprintf("unknown reference %q", root),
				"Expressions can refer to input variables (var.NAME) and local values (local.NAME).",
				didYouMean(root, append(prefixed("var.", sortedKeys(l.vars)), prefixed("local.", sortedKeys(l.locals))...), ""))
			ok = false
		}
	}
	return ok
}

func prefixed(p string, names []string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = p + n
	}
	return out
}

func traverserName(t hcl.Traverser) (string, bool) {
	switch t := t.(type) {
	case hcl.TraverseAttr:
		return t.Name, true
	case hcl.TraverseIndex:
		if t.Key.Type() == cty.String && t.Key.IsKnown() && !t.Key.IsNull() {
			return t.Key.AsString(), true
		}
	}
	return "", false
}

// collectLocals gathers every locals block's attributes (duplicates are errors).
func (l *loader) collectLocals() {
	for _, body := range l.bodies {
		for _, blk := range body.Blocks {
			if blk.Type != "locals" {
				continue
			}
			if len(blk.Labels) > 0 {
				l.b.errorf(blk.LabelRanges[0], "locals blocks take no label", "Write locals { name = value }.", "")
			}
			for _, nb := range blk.Body.Blocks {
				l.b.errorf(nb.TypeRange, fmt.Sprintf("unexpected block %q in locals", nb.Type),
					"locals holds attributes only: name = expression.", fmt.Sprintf("write %s = { … } instead", nb.Type))
			}
			for _, a := range sortedAttrs(blk.Body) {
				if first, dup := l.locals[a.Name]; dup {
					l.b.duplicate(a.NameRange, first.NameRange, fmt.Sprintf("duplicate local value %q", a.Name),
						"Each local value may be defined only once across all files.")
					continue
				}
				l.locals[a.Name] = a
			}
		}
	}
}

// evalLocal evaluates one local (and, through checkRefs, the locals it uses).
func (l *loader) evalLocal(name string) bool {
	if _, done := l.localVals[name]; done {
		return !l.localFailed[name]
	}
	a := l.locals[name]
	if l.localBusy[name] {
		l.b.errorf(a.NameRange, fmt.Sprintf("local value %q is part of a reference cycle", name),
			"Local values must not form a cycle of references.",
			"compute one of the locals in the cycle without referring to the others")
		l.localVals[name] = cty.DynamicVal
		l.localFailed[name] = true
		return false
	}
	l.localBusy[name] = true
	ok := l.checkRefs(a.Expr)
	var v cty.Value
	if ok {
		l.refreshContext()
		v, ok = l.evalMarked(a.Expr)
	}
	delete(l.localBusy, name)
	if !ok {
		v = cty.DynamicVal
		l.localFailed[name] = true
	}
	l.localVals[name] = v
	return ok
}

func sortedAttrs(body *hclsyntax.Body) []*hclsyntax.Attribute {
	out := make([]*hclsyntax.Attribute, 0, len(body.Attributes))
	for _, a := range body.Attributes {
		out = append(out, a)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].SrcRange.Start.Byte < out[j].SrcRange.Start.Byte })
	return out
}

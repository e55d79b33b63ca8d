package schema

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"

	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/tiform/tiform/diag"
	"github.com/tiform/tiform/input"
	"github.com/tiform/tiform/operator"
	"github.com/tiform/tiform/state"
	"github.com/tiform/tiform/tiup"
)

// maxManifests bounds operator_manifests.
const maxManifests = 64

// persistedLayer decodes tiup_topology = "FILE" or operator_manifests =
// ["FILE", …] in a cluster block: it reads the files (relative to the
// configuration directory and confined to it, like file()) and keeps what
// they hold as the cluster's persisted layer. A file that cannot be read
// or is not what the attribute says is an error at the attribute, with the
// file's line and column.
func (l *loader) persistedLayer(c *clusterDecl, a *hclsyntax.Attribute) {
	if c.persisted != nil {
		l.b.duplicate(a.NameRange, c.persistedRng,
			"the persisted layer is named twice",
			"A cluster's settings persist in one place: its TiUP topology (tiup_topology) or its TiDB Operator resources (operator_manifests).")
		return
	}
	p := &state.Persisted{Range: rangeOf(a.NameRange)}
	var files []string
	if a.Name == "tiup_topology" {
		p.Tool = state.PersistTiUP
		f, ok := l.evalString(a)
		if !ok {
			return
		}
		files = []string{f}
	} else {
		p.Tool = state.PersistOperator
		v, ok := l.eval(a.Expr)
		if !ok || !v.IsWhollyKnown() {
			return
		}
		if v.IsNull() || !(v.Type().IsListType() || v.Type().IsTupleType() || v.Type().IsSetType()) || v.LengthInt() == 0 || v.LengthInt() > maxManifests {
			l.b.errorf(a.Expr.Range(), fmt.Sprintf("operator_manifests must be a list of 1 to %d file names", maxManifests), "",
				`write operator_manifests = ["tidb/tikv-group.yaml", "tidb/pd-group.yaml"]`)
			return
		}
		for it := v.ElementIterator(); it.Next(); {
			_, ev := it.Element()
			if ev.IsNull() || ev.Type() != cty.String {
				l.b.errorf(a.Expr.Range(), "operator_manifests holds a value that is not a file name", "", `write operator_manifests = ["tidb/tikv-group.yaml"]`)
				return
			}
			files = append(files, ev.AsString())
		}
	}
	dir, err := input.OpenDir(l.dir, "the configuration directory")
	if err != nil {
		l.b.errorf(a.Expr.Range(), "cannot open the configuration directory", errText(err), "check the directory's permissions")
		return
	}
	defer dir.Close()
	for _, f := range files {
		places, d, ok := readLayerFile(dir, p.Tool, f)
		if !ok {
			d.Range = rangeOf(a.Expr.Range())
			l.b.add(d)
			return
		}
		p.Files = append(p.Files, f)
		p.Places = append(p.Places, places...)
	}
	c.persisted, c.persistedRng = p, a.NameRange
}

// readLayerFile reads one file of the persisted layer; on failure the
// diagnostic (without a range: the caller's attribute) says where in the
// file and what to do.
func readLayerFile(dir *input.Dir, tool state.PersistTool, f string) ([]state.PersistedPlace, diag.Diagnostic, bool) {
	kind, what, hint := input.Topology, "TiUP topology", "name the cluster's meta.yaml (~/.tiup/storage/cluster/clusters/NAME/meta.yaml) or the output of `tiup cluster show-config NAME`, copied into the configuration directory"
	if tool == state.PersistOperator {
		kind, what, hint = input.Manifest, "TiDB Operator manifest", "name the TidbCluster (v1) or TiKVGroup/PDGroup/TiFlashGroup (v2) YAML as `kubectl get -o yaml` prints it, copied into the configuration directory"
	}
	fail := func(summary, detail, h string) ([]state.PersistedPlace, diag.Diagnostic, bool) {
		return nil, diag.Diagnostic{Severity: diag.Error, Summary: summary, Detail: detail, Hint: h}, false
	}
	b, err := dir.ReadFile(f, kind)
	if err != nil {
		h := hint
		if errors.Is(err, input.ErrOutside) {
			h = "copy the file into the configuration directory (tiform reads only inside it, as file() does)"
		}
		return fail(fmt.Sprintf("cannot read the %s %s: %s", what, f, err), "", h)
	}
	if tool == state.PersistTiUP {
		top, err := tiup.Parse(b)
		if err != nil {
			line := 0
			if m := lineRe.FindStringSubmatch(err.Error()); m != nil {
				line, _ = strconv.Atoi(m[1])
			}
			return fail(fmt.Sprintf("%s: %s", fileAt(f, line, 1), err), "", hint)
		}
		return top.Places(f), diag.Diagnostic{}, true
	}
	cs, err := operator.Parse(b)
	if err != nil {
		var oe *operator.Error
		if errors.As(err, &oe) {
			h := oe.Hint
			if h == "" {
				h = hint
			}
			return fail(fmt.Sprintf("%s: %s", fileAt(f, oe.Line, oe.Column), oe.Msg), "", h)
		}
		return fail(fmt.Sprintf("%s: %s", f, err), "", hint)
	}
	var out []state.PersistedPlace
	for _, c := range cs {
		out = append(out, c.Place(f))
	}
	return out, diag.Diagnostic{}, true
}

// lineRe finds the line a YAML error names.
var lineRe = regexp.MustCompile(`line (\d+)`)

// fileAt is file:line:col, or file when the line is unknown.
func fileAt(f string, line, col int) string {
	if line <= 0 {
		return f
	}
	if col <= 0 {
		col = 1
	}
	return fmt.Sprintf("%s:%d:%d", f, line, col)
}

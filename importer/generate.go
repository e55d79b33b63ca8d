package importer

import (
	"errors"
	"fmt"
	"strings"

	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/hashicorp/hcl/v2/hclwrite"
	"github.com/zclconf/go-cty/cty"

	"github.com/tiform/tiform/schema"
)

// File names Generate writes: a configuration without cluster blocks is one
// file; a fleet is the baseline and one file per cluster.
const (
	MainFile     = "main.hcl"
	BaselineFile = "baseline.hcl"
)

// ClusterFile is the file of one cluster block: cluster-NAME.hcl.
func ClusterFile(name string) string { return "cluster-" + name + ".hcl" }

// Generate builds the configuration that declares what the clusters hold.
// A cluster without a Name is the implicit default cluster: it must be the
// only one, and its settings are written at the top level of main.hcl.
// Otherwise baseline.hcl holds what every cluster shares and
// cluster-NAME.hcl each cluster block, with its DSN read from
// env("TIFORM_DSN_<NAME>").
func Generate(clusters []Cluster, o Options) (*Result, error) {
	if len(clusters) == 0 {
		return nil, errors.New("importer: no cluster to import")
	}
	cvs := make([]*clusterValues, len(clusters))
	for i, c := range clusters {
		if c.Live == nil {
			return nil, fmt.Errorf("importer: cluster %q was not read", c.Name)
		}
		if c.Name == "" && len(clusters) > 1 {
			return nil, errors.New("importer: every cluster of a fleet needs a name")
		}
		cvs[i] = extract(c, o)
	}
	base, per := split(cvs)
	res := &Result{}
	add := func(name string, f *hclwrite.File) error {
		b, err := format(f)
		res.Files = append(res.Files, File{Name: name, Content: b})
		return err
	}
	f := newFile(fileHeader(cvs)...)
	if clusters[0].Name == "" {
		// No cluster block: the cluster's own values (per instance) go at
		// the top level too.
		ly := merged(base, per[0])
		declareSecrets(f.Body(), ly, "")
		writeLayer(f.Body(), ly)
		if err := add(MainFile, f); err != nil {
			return nil, err
		}
	} else {
		declareSecrets(f.Body(), base, "")
		writeLayer(f.Body(), base)
		if err := add(BaselineFile, f); err != nil {
			return nil, err
		}
		envs := dsnEnvs(clusters)
		for i, cv := range cvs {
			cv.report.DSNEnv = envs[i]
			f := newFile()
			declareSecrets(f.Body(), per[i], "_"+secretVarName("", cv.name))
			writeCluster(f.Body(), cv, envs[i], per[i])
			if err := add(ClusterFile(cv.name), f); err != nil {
				return nil, err
			}
		}
	}
	for i, cv := range cvs {
		count(cv.report, base, per[i])
		res.Clusters = append(res.Clusters, *cv.report)
	}
	return res, nil
}

func names(cs []Cluster) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = c.Name
	}
	return out
}

func newFile(header ...string) *hclwrite.File {
	f := hclwrite.NewEmptyFile()
	if len(header) > 0 {
		comments(f.Body(), header...)
		f.Body().AppendNewline()
	}
	return f
}

// fileHeader says where the values came from and how to read the comments.
func fileHeader(cvs []*clusterValues) []string {
	var from []string
	for _, cv := range cvs {
		n := cv.name
		if n == "" {
			n = "the cluster"
		}
		if cv.report.Version != "" {
			n += " (TiDB " + cv.report.Version + ")"
		}
		from = append(from, n)
	}
	h := []string{"Imported by `tiform import` from " + strings.Join(from, ", ") + "."}
	if len(cvs) > 1 {
		h = append(h, "Baseline: what every imported cluster has in common; each cluster-*.hcl holds its differences.")
	}
	return append(h, "Each value's comment gives the default of the version it was read from (docs/import.md).")
}

// writeCluster writes one cluster block: how to reach it, its labels, and
// what it declares beyond the baseline.
func writeCluster(body *hclwrite.Body, cv *clusterValues, env string, ly *layer) {
	cb := body.AppendNewBlock("cluster", []string{cv.name}).Body()
	cb.SetAttributeRaw("dsn", hclwrite.TokensForFunctionCall("env", hclwrite.TokensForValue(cty.StringVal(env))))
	if len(cv.labels) > 0 {
		cb.SetAttributeRaw("labels", inlineObject(cv.labels))
	}
	if cv.tiup != "" {
		cb.SetAttributeValue("tiup_cluster", cty.StringVal(cv.tiup))
	} else {
		comments(cb, `tiup_cluster = "NAME"  # the name `+"`tiup cluster list`"+` shows, for tiform export tiup and guard advice`)
	}
	writeLayer(cb, ly)
}

// format returns the file in the canonical layout (what `tiform fmt`
// writes), so that `tiform fmt --check` passes on generated files.
func format(f *hclwrite.File) ([]byte, error) {
	out, err := schema.Format(f.Bytes())
	if err != nil {
		// hclwrite built it: a syntax error here is a bug, not user input.
		return nil, fmt.Errorf("importer: the generated configuration does not parse (a bug; please report it): %w", err)
	}
	return out, nil
}

// count fills the report's counts from what the cluster's configuration
// declares (baseline and its own block).
func count(r *Report, base, own *layer) {
	for _, ly := range []*layer{base, own} {
		for k := range ly.config {
			if k.inst == "" {
				r.Config++
			} else {
				r.Instance++
			}
		}
		r.Variables += len(ly.vars)
	}
	groups := map[string]bool{}
	users := map[string]int{}
	for _, ly := range []*layer{base, own} {
		for n, g := range ly.groups {
			groups[n] = true
			if u, ok := g.attrs["users"]; ok {
				users[n] = u.lit.lit.LengthInt()
			}
		}
	}
	r.Groups = len(groups)
	for _, n := range users {
		r.Users += n
	}
}

// dsnEnvs is the environment variable of each cluster's block: the one the
// configuration it was named in already reads (OSAKA_DSN stays OSAKA_DSN),
// else DSNEnvNames' name, never one a kept name uses.
func dsnEnvs(cs []Cluster) []string {
	derived := DSNEnvNames(names(cs))
	kept := map[string]bool{}
	for _, c := range cs {
		if c.DSNEnv != "" {
			kept[c.DSNEnv] = true
		}
	}
	out := make([]string, len(cs))
	for i, c := range cs {
		if c.DSNEnv != "" {
			out[i] = c.DSNEnv
			continue
		}
		name := derived[i]
		for k := 2; kept[name]; k++ {
			name = fmt.Sprintf("%s_%d", derived[i], k)
		}
		kept[name] = true
		out[i] = name
	}
	return out
}

// DSNEnvNames derives, for each cluster name, the environment variable its
// generated cluster block reads the DSN from: TIFORM_DSN_ and the name
// upper-cased, every character other than a letter or digit an underscore
// (a valid POSIX environment variable name). Names that would collide get
// _2, _3… in order.
func DSNEnvNames(clusterNames []string) []string {
	out := make([]string, len(clusterNames))
	used := map[string]bool{}
	for i, n := range clusterNames {
		var b strings.Builder
		b.WriteString("TIFORM_DSN_")
		for _, r := range strings.ToUpper(n) {
			if r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' {
				b.WriteRune(r)
			} else {
				b.WriteByte('_')
			}
		}
		name := b.String()
		for k := 2; used[name]; k++ {
			name = fmt.Sprintf("%s_%d", b.String(), k)
		}
		used[name] = true
		out[i] = name
	}
	return out
}

// inlineObject writes a map of strings on one line, as docs/language.md
// writes labels: { env = "prod", region = "tokyo" }.
func inlineObject(m map[string]string) hclwrite.Tokens {
	toks := hclwrite.Tokens{{Type: hclsyntax.TokenOBrace, Bytes: []byte("{")}}
	for i, k := range sortedKeys(m) {
		if i > 0 {
			toks = append(toks, &hclwrite.Token{Type: hclsyntax.TokenComma, Bytes: []byte(",")})
		}
		var key hclwrite.Tokens
		if hclsyntax.ValidIdentifier(k) {
			key = hclwrite.TokensForIdentifier(k)
		} else {
			key = hclwrite.TokensForValue(cty.StringVal(k))
		}
		key[0].SpacesBefore = 1
		toks = append(toks, key...)
		toks = append(toks, &hclwrite.Token{Type: hclsyntax.TokenEqual, Bytes: []byte("="), SpacesBefore: 1})
		val := hclwrite.TokensForValue(cty.StringVal(m[k]))
		val[0].SpacesBefore = 1
		toks = append(toks, val...)
	}
	return append(toks, &hclwrite.Token{Type: hclsyntax.TokenCBrace, Bytes: []byte("}"), SpacesBefore: 1})
}

// Generated reports whether name is a file name Generate writes.
func Generated(name string) bool {
	return name == MainFile || name == BaselineFile ||
		strings.HasPrefix(name, "cluster-") && strings.HasSuffix(name, ".hcl")
}

// merged is the union of two layers that declare different things.
func merged(a, b *layer) *layer {
	out := newLayer()
	for _, ly := range []*layer{a, b} {
		for k, v := range ly.config {
			out.config[k] = v
		}
		for k, v := range ly.vars {
			out.vars[k] = v
		}
		for k, v := range ly.groups {
			out.groups[k] = v
		}
	}
	return out
}

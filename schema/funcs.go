package schema

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"unicode/utf8"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
	"github.com/zclconf/go-cty/cty/function/stdlib"
)

// maxFileSize bounds what file() reads, so a stray path cannot load a huge file.
const maxFileSize = 1 << 20

// functions returns the functions available in expressions (docs/language.md
// "Functions"). They come from go-cty's stdlib, plus env and file, which read
// the process environment (through opts.Env) and files relative to dir.
func functions(dir string, opts Options) map[string]function.Function {
	fs := map[string]function.Function{
		"abs":        stdlib.AbsoluteFunc,
		"ceil":       stdlib.CeilFunc,
		"chomp":      stdlib.ChompFunc,
		"coalesce":   stdlib.CoalesceFunc,
		"compact":    stdlib.CompactFunc,
		"concat":     stdlib.ConcatFunc,
		"contains":   stdlib.ContainsFunc,
		"distinct":   stdlib.DistinctFunc,
		"element":    stdlib.ElementFunc,
		"flatten":    stdlib.FlattenFunc,
		"floor":      stdlib.FloorFunc,
		"format":     stdlib.FormatFunc,
		"formatlist": stdlib.FormatListFunc,
		"join":       stdlib.JoinFunc,
		"jsonencode": stdlib.JSONEncodeFunc,
		"keys":       stdlib.KeysFunc,
		"length":     stdlib.LengthFunc,
		"lookup":     stdlib.LookupFunc,
		"lower":      stdlib.LowerFunc,
		"max":        stdlib.MaxFunc,
		"merge":      stdlib.MergeFunc,
		"min":        stdlib.MinFunc,
		"replace":    stdlib.ReplaceFunc,
		"reverse":    stdlib.ReverseListFunc,
		"sort":       stdlib.SortFunc,
		"split":      stdlib.SplitFunc,
		"substr":     stdlib.SubstrFunc,
		"title":      stdlib.TitleFunc,
		"trimspace":  stdlib.TrimSpaceFunc,
		"upper":      stdlib.UpperFunc,
		"values":     stdlib.ValuesFunc,
		"zipmap":     stdlib.ZipmapFunc,
		"tostring":   stdlib.MakeToFunc(cty.String),
		"tonumber":   stdlib.MakeToFunc(cty.Number),
		"tobool":     stdlib.MakeToFunc(cty.Bool),
		"tolist":     stdlib.MakeToFunc(cty.List(cty.DynamicPseudoType)),
		"tomap":      stdlib.MakeToFunc(cty.Map(cty.DynamicPseudoType)),
		"env":        envFunc(opts),
		"file":       fileFunc(dir),
	}
	return fs
}

// functionNames lists the available functions, sorted (for suggestions and docs).
func functionNames() []string {
	var out []string
	for name := range functions("", Options{}) {
		out = append(out, name)
	}
	sort.Strings(out)
	return out
}

// envFunc is env(NAME) or env(NAME, DEFAULT): the value of an environment
// variable. Without a default, an unset variable is an error, so a forgotten
// export fails loudly instead of planning against an empty value. In offline
// mode (Options.Offline: `tiform validate`) an unset variable without default
// yields an unknown string: the configuration is still checked, and the value
// is only needed when a cluster is contacted.
func envFunc(opts Options) function.Function {
	return function.New(&function.Spec{
		Description: "Returns the value of an environment variable.",
		Params:      []function.Parameter{{Name: "name", Type: cty.String}},
		VarParam:    &function.Parameter{Name: "default", Type: cty.String},
		Type: func(args []cty.Value) (cty.Type, error) {
			if len(args) > 2 {
				return cty.NilType, fmt.Errorf("env takes a name and at most one default")
			}
			return cty.String, nil
		},
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			name := args[0].AsString()
			if name == "" {
				return cty.NilVal, function.NewArgErrorf(0, "the variable name is empty")
			}
			lookup := opts.Env
			if lookup == nil {
				lookup = os.LookupEnv
			}
			if v, ok := lookup(name); ok {
				return cty.StringVal(v), nil
			}
			if len(args) == 2 {
				return args[1], nil
			}
			if opts.Offline {
				return cty.UnknownVal(cty.String), nil
			}
			return cty.NilVal, function.NewArgErrorf(0,
				"environment variable %s is not set (export it, or give a default: env(%q, \"…\"))", name, name)
		},
	})
}

// fileFunc is file(PATH): the contents of a UTF-8 file, PATH relative to the
// configuration directory.
func fileFunc(dir string) function.Function {
	return function.New(&function.Spec{
		Description: "Reads a file relative to the configuration directory.",
		Params:      []function.Parameter{{Name: "path", Type: cty.String}},
		Type:        function.StaticReturnType(cty.String),
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			p := args[0].AsString()
			if p == "" {
				return cty.NilVal, function.NewArgErrorf(0, "the path is empty")
			}
			if !filepath.IsAbs(p) {
				p = filepath.Join(dir, p)
			}
			st, err := os.Stat(p)
			if err != nil {
				return cty.NilVal, function.NewArgErrorf(0, "cannot read %s: %v", args[0].AsString(), errText(err))
			}
			if !st.Mode().IsRegular() {
				return cty.NilVal, function.NewArgErrorf(0, "%s is not a regular file", args[0].AsString())
			}
			if st.Size() > maxFileSize {
				return cty.NilVal, function.NewArgErrorf(0, "%s is larger than 1 MiB", args[0].AsString())
			}
			b, err := os.ReadFile(p)
			if err != nil {
				return cty.NilVal, function.NewArgErrorf(0, "cannot read %s: %v", args[0].AsString(), errText(err))
			}
			if !utf8.Valid(b) {
				return cty.NilVal, function.NewArgErrorf(0, "%s is not UTF-8 text", args[0].AsString())
			}
			return cty.StringVal(string(b)), nil
		},
	})
}

// errText strips the path from an os error (the path is reported separately).
func errText(err error) string {
	if pe, ok := err.(*os.PathError); ok {
		return pe.Err.Error()
	}
	return err.Error()
}

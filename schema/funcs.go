package schema

import (
	"errors"
	"fmt"
	"os"
	"sort"
	"unicode/utf8"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
	"github.com/zclconf/go-cty/cty/function/stdlib"

	"github.com/tiform/tiform/input"
)

// functions returns the functions available in expressions (docs/language.md
// "Functions"). They come from go-cty's stdlib, plus env and file, which read
// the environment variables allowed tells (through opts.Env) and regular
// files inside dir.
func functions(dir string, opts Options, allowed func(name string) bool) map[string]function.Function {
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
		"env":        envFunc(opts, allowed),
		"file":       fileFunc(dir),
	}
	budgetedFunctions(fs)
	return fs
}

// functionNames lists the available functions, sorted (for suggestions and docs).
func functionNames() []string {
	var out []string
	for name := range functions("", Options{}, nil) {
		out = append(out, name)
	}
	sort.Strings(out)
	return out
}

// envFunc is env(NAME) or env(NAME, DEFAULT): the value of an environment
// variable the configuration may read (allowed: see loader.envAllowed and
// docs/decisions/0006-what-a-configuration-may-read.md). Any other name is an
// error, set or not, so that a configuration cannot read the CI's secrets and
// show them in a plan. Without a default, an unset variable is an error, so a
// forgotten export fails loudly instead of planning against an empty value. In
// offline mode (Options.Offline: `tiform validate`) an unset variable without
// default yields an unknown string: the configuration is still checked, and
// the value is only needed when a cluster is contacted.
func envFunc(opts Options, allowed func(name string) bool) function.Function {
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
			if allowed == nil || !allowed(name) {
				return cty.NilVal, function.NewArgErrorf(0, "%s%s", envNotAllowedMarker, name)
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

// envNotAllowedMarker starts the error of env() for a name the configuration
// may not read (rewriteEnvDiag turns it into a diagnostic of its own).
const envNotAllowedMarker = "not allowed to read environment variable "

// fileFunc is file(PATH): the contents of a UTF-8 regular file inside the
// configuration directory, at most maxFileSize bytes. PATH is relative to the
// directory; an absolute path, a ".." component, and a symbolic link that
// leads out of the directory are errors (os.Root enforces the last), so that
// a configuration cannot read /proc/self/environ, a CI secret mounted
// elsewhere or the runner's files and show them in a plan
// (docs/decisions/0006-what-a-configuration-may-read.md).
func fileFunc(dir string) function.Function {
	return function.New(&function.Spec{
		Description: "Reads a file inside the configuration directory.",
		Params:      []function.Parameter{{Name: "path", Type: cty.String}},
		Type:        function.StaticReturnType(cty.String),
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			p := args[0].AsString()
			b, err := readConfigFile(dir, p)
			if err != nil {
				return cty.NilVal, function.NewArgErrorf(0, "file(%q): %s", p, err)
			}
			return cty.StringVal(string(b)), nil
		},
	})
}

// readConfigFile reads path, relative to dir and confined to it, as file()
// does (input.Dir: no absolute path, no "..", no link out).
func readConfigFile(dir, path string) ([]byte, error) {
	cd, err := input.OpenDir(dir, "the configuration directory")
	if err != nil {
		return nil, fmt.Errorf("cannot open the configuration directory: %s", errText(err))
	}
	defer cd.Close()
	b, err := cd.ReadFile(path, input.Included)
	if err != nil {
		return nil, err
	}
	if !utf8.Valid(b) {
		return nil, errors.New("not UTF-8 text")
	}
	return b, nil
}

// errText strips the path from an os error (the path is reported separately).
func errText(err error) string {
	if pe, ok := err.(*os.PathError); ok {
		return pe.Err.Error()
	}
	return err.Error()
}

// Package viewstest checks JSON output against the JSON Schemas of package
// views, for tests only (it is never linked into the tiform binary: only
// _test.go files import it).
package viewstest

import (
	"bytes"
	"io/fs"
	"sync"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/tiform/tiform/views"
)

// base is the $id prefix every schema of views/schema shares.
const base = "https://github.com/tiform/tiform/views/schema/"

var (
	once     sync.Once
	compiled map[string]*jsonschema.Schema
	loadErr  error
)

// compileAll compiles every schema once per test binary.
func compileAll() (map[string]*jsonschema.Schema, error) {
	once.Do(func() {
		c := jsonschema.NewCompiler()
		c.AssertFormat()
		names, err := fs.Glob(views.Schemas, "schema/*.json")
		if err != nil {
			loadErr = err
			return
		}
		for _, n := range names {
			b, err := views.Schemas.ReadFile(n)
			if err != nil {
				loadErr = err
				return
			}
			doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
			if err != nil {
				loadErr = err
				return
			}
			if err := c.AddResource(base+n[len("schema/"):], doc); err != nil {
				loadErr = err
				return
			}
		}
		compiled = map[string]*jsonschema.Schema{}
		for _, n := range names {
			s, err := c.Compile(base + n[len("schema/"):])
			if err != nil {
				loadErr = err
				return
			}
			compiled[n[len("schema/"):]] = s
		}
	})
	return compiled, loadErr
}

// Names lists the schema files ("plan.schema.json", …).
func Names(t testing.TB) []string {
	t.Helper()
	all, err := compileAll()
	if err != nil {
		t.Fatalf("views schemas: %v", err)
	}
	var out []string
	for n := range all {
		out = append(out, n)
	}
	return out
}

// Validate fails t unless doc (one JSON document) is valid against the
// schema file name ("check.schema.json").
func Validate(t testing.TB, name string, doc []byte) {
	t.Helper()
	if err := Check(name, doc); err != nil {
		t.Errorf("%s: %v\n%s", name, err, doc)
	}
}

// Check is Validate's verdict as an error (nil when valid).
func Check(name string, doc []byte) error {
	all, err := compileAll()
	if err != nil {
		return err
	}
	s, ok := all[name]
	if !ok {
		return fs.ErrNotExist
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(doc))
	if err != nil {
		return err
	}
	return s.Validate(inst)
}

// ValidateLines validates each non-empty line of out (JSON lines) against
// name and returns how many it checked.
func ValidateLines(t testing.TB, name string, out []byte) int {
	t.Helper()
	n := 0
	for _, line := range bytes.Split(out, []byte("\n")) {
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		Validate(t, name, line)
		n++
	}
	return n
}

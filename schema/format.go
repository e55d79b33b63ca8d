package schema

import (
	"bytes"
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/hashicorp/hcl/v2/hclwrite"
	"github.com/tiform/tiform/diag"
)

// Format returns src in canonical layout (hclwrite: indentation, aligned
// equals signs, spacing). It refuses a file with syntax errors rather than
// guess, returning the first error with its position. Format is idempotent:
// Format(Format(x)) == Format(x).
func Format(src []byte) ([]byte, error) {
	return formatNamed(src, "<input>")
}

// FormatFile is Format with a file name for the error position.
func FormatFile(name string, src []byte) ([]byte, error) {
	return formatNamed(src, name)
}

func formatNamed(src []byte, name string) ([]byte, error) {
	if d, deep := checkNesting(src, name, false); deep {
		return nil, fmt.Errorf("schema: format %s:%d:%d: %s", name, d.Range.Start.Line, d.Range.Start.Column, d.Summary)
	}
	_, diags := hclsyntax.ParseConfig(src, name, hcl.InitialPos)
	if diags.HasErrors() {
		d := diags[0]
		for _, x := range diags {
			if x.Severity == hcl.DiagError {
				d = x
				break
			}
		}
		if d.Subject != nil {
			return nil, fmt.Errorf("schema: format %s:%d:%d: %s", d.Subject.Filename, d.Subject.Start.Line, d.Subject.Start.Column, d.Summary)
		}
		return nil, fmt.Errorf("schema: format %s: %s", name, d.Summary)
	}
	out := hclwrite.Format(src)
	// A second pass settles the few constructs whose alignment depends on
	// the first pass's output, so that formatting is idempotent.
	if again := hclwrite.Format(out); !bytes.Equal(again, out) {
		out = again
	}
	return out, nil
}

// SyntaxDiagnostics returns the syntax errors of one file as diagnostics
// with snippets and hints (what `tiform fmt` prints for a file it refuses to
// format); nil when the file parses. Passwords in DSN-like text are masked.
func SyntaxDiagnostics(name string, src []byte) diag.Diagnostics {
	if d, deep := checkNesting(src, name, false); deep {
		return diag.Diagnostics{d}
	}
	_, hd := hclsyntax.ParseConfig(src, name, hcl.InitialPos)
	if !hd.HasErrors() {
		return nil
	}
	ds := fromHCL(hd)
	ds.Sort()
	diag.NewSources(map[string][]byte{name: src}, dsnPasswordsInText(src)).Attach(ds)
	return ds
}

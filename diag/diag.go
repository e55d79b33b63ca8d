package diag

import (
	"errors"
	"fmt"
	"sort"
	"strings"
)

// Severity ranks a diagnostic or a guard finding: Info < Warning < Error, so
// that "at least a warning" is s >= Warning. An error makes a configuration
// unusable and blocks apply; a warning is printed and work goes on.
type Severity int

const (
	Info Severity = iota
	Warning
	Error
)

// String is the severity's name in every output: "info", "warning", "error".
func (s Severity) String() string {
	switch s {
	case Info:
		return "info"
	case Warning:
		return "warning"
	case Error:
		return "error"
	}
	return "unknown"
}

// ParseSeverity is the inverse of String.
func ParseSeverity(s string) (Severity, error) {
	for _, v := range []Severity{Info, Warning, Error} {
		if v.String() == s {
			return v, nil
		}
	}
	return Info, fmt.Errorf("unknown severity %q (info, warning or error)", s)
}

// Pos is a position in a source file (1-based line and column, 0-based byte).
type Pos struct {
	Line, Column, Byte int
}

// SourceRange is a copy of hcl.Range, so that state, planner and render never
// import hcl. The zero value means "no source" (for example a value read from
// a cluster, or a -var flag).
type SourceRange struct {
	Filename   string
	Start, End Pos
}

// IsZero reports whether r carries no source.
func (r SourceRange) IsZero() bool { return r.Filename == "" }

// String is "file:line:col", or "" for no source.
func (r SourceRange) String() string {
	if r.IsZero() {
		return ""
	}
	return fmt.Sprintf("%s:%d:%d", r.Filename, r.Start.Line, r.Start.Column)
}

// FileLine is "file:line" (the short form plans show), or "" for no source.
func (r SourceRange) FileLine() string {
	if r.IsZero() {
		return ""
	}
	return fmt.Sprintf("%s:%d", r.Filename, r.Start.Line)
}

// Diagnostic is one problem, about the configuration or found while planning
// or applying it.
//
// No field ever contains a DSN or another secret: a diagnostic about a DSN
// names the attribute, and a Snippet comes from Sources, which masks secrets.
type Diagnostic struct {
	Severity Severity
	// Summary is one line: what is wrong.
	Summary string
	// Detail explains why, and what is expected (with an example).
	Detail string
	// Hint is the fix in one line ("did you mean `region-split-size`?"); may be empty.
	Hint string
	// Range is the source the diagnostic is about; zero when it has none.
	Range SourceRange
	// Snippet is the source line Range starts on, with secrets masked
	// (filled by Sources.Attach).
	Snippet string
	// Related points at other places involved (the first definition of a
	// duplicated key), each with its own snippet.
	Related []Related
}

// Related is a secondary source location of a diagnostic.
type Related struct {
	Message string
	Range   SourceRange
	Snippet string
}

// Err returns the diagnostic as an error that Diagnostics.Append turns back
// into the same diagnostic (range, hint and all), or nil for a diagnostic that
// is not an error.
func (d Diagnostic) Err() error { return Diagnostics{d}.Err() }

// Diagnostics is a list of diagnostics in the order they were found.
type Diagnostics []Diagnostic

// Append adds items and returns the list, like the built-in append. Each item
// may be nil (ignored), a Diagnostic, Diagnostics, or an error: an error made
// by Diagnostics.Err (even wrapped with %w) gives back its diagnostics; any
// other error becomes an error diagnostic whose summary is its text.
func (ds Diagnostics) Append(items ...any) Diagnostics {
	for _, it := range items {
		switch v := it.(type) {
		case nil:
		case Diagnostic:
			ds = append(ds, v)
		case Diagnostics:
			ds = append(ds, v...)
		case error:
			var de *diagnosticsError
			if errors.As(v, &de) {
				ds = append(ds, de.diags...)
				continue
			}
			ds = append(ds, Diagnostic{Severity: Error, Summary: v.Error()})
		default:
			panic(fmt.Sprintf("diag: Append of %T", it))
		}
	}
	return ds
}

// HasErrors reports whether any diagnostic is an error.
func (ds Diagnostics) HasErrors() bool {
	for _, d := range ds {
		if d.Severity == Error {
			return true
		}
	}
	return false
}

// Errors returns only the errors.
func (ds Diagnostics) Errors() Diagnostics { return ds.only(Error) }

// Warnings returns only the warnings.
func (ds Diagnostics) Warnings() Diagnostics { return ds.only(Warning) }

func (ds Diagnostics) only(s Severity) Diagnostics {
	var out Diagnostics
	for _, d := range ds {
		if d.Severity == s {
			out = append(out, d)
		}
	}
	return out
}

// Err returns nil when there is no error; else an error whose text is the
// first error's "file:line:col: summary" and a count of the others, and which
// Append turns back into every diagnostic of ds (warnings included).
func (ds Diagnostics) Err() error {
	if !ds.HasErrors() {
		return nil
	}
	return &diagnosticsError{diags: append(Diagnostics(nil), ds...)}
}

// As returns the diagnostics err carries (made by Err, perhaps wrapped with
// %w), or false for an error that carries none.
func As(err error) (Diagnostics, bool) {
	var de *diagnosticsError
	if errors.As(err, &de) {
		return append(Diagnostics(nil), de.diags...), true
	}
	return nil, false
}

// diagnosticsError carries diagnostics through code that returns error.
type diagnosticsError struct {
	diags Diagnostics
}

func (e *diagnosticsError) Error() string {
	errs := e.diags.Errors()
	msg := location(errs[0].Range) + errs[0].Summary
	if len(errs) > 1 {
		msg += fmt.Sprintf(" (and %d more errors)", len(errs)-1)
	}
	return msg
}

// location is "file:line:col: ", or "" for no source.
func location(r SourceRange) string {
	if r.IsZero() {
		return ""
	}
	return r.String() + ": "
}

// Sort orders diagnostics by file, line and column; diagnostics without a
// range come first. The order is stable for equal positions.
func (ds Diagnostics) Sort() {
	sort.SliceStable(ds, func(i, j int) bool {
		a, b := ds[i].Range, ds[j].Range
		if a.Filename != b.Filename {
			return a.Filename < b.Filename
		}
		if a.Start.Line != b.Start.Line {
			return a.Start.Line < b.Start.Line
		}
		return a.Start.Column < b.Start.Column
	})
}

// Dedupe drops exact repeats (the same problem reported once per cluster),
// keeping the first; it reuses ds's storage.
func (ds Diagnostics) Dedupe() Diagnostics {
	seen := map[string]bool{}
	out := ds[:0]
	for _, d := range ds {
		k := fmt.Sprintf("%d\x00%s\x00%s\x00%s\x00%v", d.Severity, d.Summary, d.Detail, d.Hint, d.Range)
		if seen[k] {
			continue
		}
		seen[k] = true
		out = append(out, d)
	}
	return out
}

// Sources is the text of the configuration files, one slice of lines per
// file name, with every secret masked, kept to show the line a diagnostic
// points at. The zero value holds nothing and fills no snippet.
type Sources struct {
	lines map[string][]string
}

// NewSources keeps files' text with each secret replaced by asterisks of the
// same length (so that carets still line up), in the order given. No secret
// is stored.
func NewSources(files map[string][]byte, secrets []string) Sources {
	s := Sources{lines: make(map[string][]string, len(files))}
	for name, src := range files {
		lines := strings.Split(string(src), "\n")
		for i, l := range lines {
			lines[i] = mask(strings.TrimRight(l, "\r"), secrets)
		}
		s.lines[name] = lines
	}
	return s
}

// Snippet is the (masked) line r starts on, or "" when r is zero or not in
// the sources.
func (s Sources) Snippet(r SourceRange) string {
	if r.IsZero() || r.Start.Line < 1 {
		return ""
	}
	lines := s.lines[r.Filename]
	if r.Start.Line > len(lines) {
		return ""
	}
	return lines[r.Start.Line-1]
}

// Attach fills every empty Snippet of ds (and of its Related locations) from s.
func (s Sources) Attach(ds Diagnostics) {
	for i := range ds {
		if ds[i].Snippet == "" {
			ds[i].Snippet = s.Snippet(ds[i].Range)
		}
		for j := range ds[i].Related {
			if ds[i].Related[j].Snippet == "" {
				ds[i].Related[j].Snippet = s.Snippet(ds[i].Related[j].Range)
			}
		}
	}
}

// mask replaces each secret in s with asterisks of the same length.
func mask(s string, secrets []string) string {
	for _, sec := range secrets {
		if sec == "" {
			continue
		}
		s = strings.ReplaceAll(s, sec, strings.Repeat("*", len([]rune(sec))))
	}
	return s
}

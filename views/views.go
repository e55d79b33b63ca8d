package views

import (
	"bytes"
	"embed"
	"encoding/json"
	"fmt"
	"io"

	"github.com/tiform/tiform/diag"
)

// FormatVersion is the format_version of every JSON output ("MAJOR.MINOR"):
// MINOR grows when fields are added (consumers ignore fields they do not
// know); MAJOR when a field changes meaning or disappears.
type FormatVersion string

// Format is the one format_version all JSON outputs carry (docs/json-plan.md).
const Format FormatVersion = "2.0"

// Header is embedded first in every JSON document, so that each starts with
// the same format_version.
type Header struct {
	FormatVersion FormatVersion `json:"format_version"`
}

// NewHeader is the header of a document written now.
func NewHeader() Header { return Header{FormatVersion: Format} }

// Write encodes doc as one indented JSON document, HTML characters as they
// are ("<absent>", not "\u003c…"), ending with a newline. It is the encoder of
// every JSON output, so that all have the same layout.
func Write(w io.Writer, doc any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(doc); err != nil {
		return fmt.Errorf("views: write JSON: %w", err)
	}
	return nil
}

// WriteLine encodes doc as one JSON line (JSON lines: no indentation, HTML
// characters as they are, a newline at the end) in one Write call, so that
// appenders to the same file (O_APPEND) never interleave within a line. It is
// the encoder of every JSON-lines output: the audit log and the event stream
// of `apply --format json`.
func WriteLine(w io.Writer, doc any) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(doc); err != nil {
		return fmt.Errorf("views: write JSON line: %w", err)
	}
	if _, err := w.Write(buf.Bytes()); err != nil {
		return fmt.Errorf("views: write JSON line: %w", err)
	}
	return nil
}

// Pos is a position in a source file (1-based line and column, 0-based byte).
type Pos struct {
	Line   int `json:"line"`
	Column int `json:"column"`
	Byte   int `json:"byte"`
}

// Range is a source location. Every output names it "range" and writes null
// when there is none.
type Range struct {
	Filename string `json:"filename"`
	Start    Pos    `json:"start"`
	End      Pos    `json:"end"`
}

// NewRange is r's view, nil (null) for no source.
func NewRange(r diag.SourceRange) *Range {
	if r.IsZero() {
		return nil
	}
	return &Range{Filename: r.Filename,
		Start: Pos{r.Start.Line, r.Start.Column, r.Start.Byte},
		End:   Pos{r.End.Line, r.End.Column, r.End.Byte}}
}

// SourceRange is the inverse of NewRange (files read back: plan files).
func (r *Range) SourceRange() diag.SourceRange {
	if r == nil {
		return diag.SourceRange{}
	}
	return diag.SourceRange{Filename: r.Filename,
		Start: diag.Pos{Line: r.Start.Line, Column: r.Start.Column, Byte: r.Start.Byte},
		End:   diag.Pos{Line: r.End.Line, Column: r.End.Column, Byte: r.End.Byte}}
}

// Diagnostic is diag.Diagnostic's view.
type Diagnostic struct {
	Severity string    `json:"severity"`
	Summary  string    `json:"summary"`
	Detail   string    `json:"detail"`
	Hint     string    `json:"hint"`
	Range    *Range    `json:"range"`
	Snippet  string    `json:"snippet"`
	Related  []Related `json:"related"`
}

// Related is a secondary location of a diagnostic.
type Related struct {
	Message string `json:"message"`
	Range   *Range `json:"range"`
	Snippet string `json:"snippet"`
}

// snippet is the part of a source line a diagnostic's view holds (the text
// view's, diag.Excerpt).
func snippet(line string, r diag.SourceRange) string {
	text, _, _ := diag.Excerpt(line, r)
	return text
}

// NewDiagnostics is ds's view (an empty array for none).
func NewDiagnostics(ds diag.Diagnostics) []Diagnostic {
	out := make([]Diagnostic, 0, len(ds))
	for _, d := range ds {
		v := Diagnostic{Severity: d.Severity.String(), Summary: diag.Bounded(d.Summary), Detail: diag.Bounded(d.Detail), Hint: diag.Bounded(d.Hint),
			Range: NewRange(d.Range), Snippet: snippet(d.Snippet, d.Range), Related: []Related{}}
		for _, r := range d.Related {
			v.Related = append(v.Related, Related{Message: diag.Bounded(r.Message), Range: NewRange(r.Range), Snippet: snippet(r.Snippet, r.Range)})
		}
		out = append(out, v)
	}
	return out
}

// Finding is a guard finding's view (guard.Finding.View builds it).
type Finding struct {
	Code     string `json:"code"`
	Severity string `json:"severity"`
	// Title is the rule's title (docs/guards.md).
	Title        string `json:"title"`
	Address      string `json:"address"`
	Summary      string `json:"summary"`
	Detail       string `json:"detail"`
	Link         string `json:"link"`
	Range        *Range `json:"range"`
	Acknowledged bool   `json:"acknowledged"`
	AckReason    string `json:"ack_reason"`
}

// ClusterStatus is where one cluster stands, embedded in each cluster object
// of a document: its status (planner.Status: in_sync, changes, unreachable,
// incomplete, error) and, when tiform could not read or plan it, why.
type ClusterStatus struct {
	Status string `json:"status"`
	// Error says why the cluster could not be read or planned; null when it
	// was.
	Error *string `json:"error"`
}

// Strings is s, or an empty (non-nil) slice, so that arrays are never null.
func Strings(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// Schemas holds the JSON Schema (draft 2020-12) of every document, by file
// name under schema/ ("plan.schema.json", …); common.schema.json holds the
// shared element types the others refer to.
//
//go:embed schema/*.json
var Schemas embed.FS

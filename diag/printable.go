package diag

import (
	"fmt"
	"reflect"
	"strings"
	"sync"
	"unicode/utf8"
)

// Text from configurations, clusters and servers reaches terminals and pull
// request comments. A control character in it could rewrite what a reviewer
// sees: ESC starts terminal sequences that move the cursor or erase lines,
// CR returns to the start of the line and overwrites it, a newline in a value
// fakes another line of the plan, the C1 controls (U+0080–U+009F) are
// sequences too for some terminals, and the bidirectional controls reorder
// what is shown (CVE-2021-42574). Printable and PrintableText write them as
// escapes instead: \n, \r, \t, \x1b, \u009b, \u202e. Every view that shows
// such text (the text and Markdown plans, diagnostics, the apply report,
// validate --show, check) passes it through one of them.

// Printable returns s with every control character escaped, newline and tab
// included: for text shown on one line (a value, a statement, an address).
func Printable(s string) string { return escapeControls(s, false) }

// PrintableText is Printable keeping newlines and tabs: for prose that spans
// lines (a finding's detail, an error message).
func PrintableText(s string) string { return escapeControls(s, true) }

func escapeControls(s string, keepLines bool) string {
	if !needsEscape(s, keepLines) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case (r == '\n' || r == '\t') && keepLines:
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\r':
			b.WriteString(`\r`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\x%02x`, r)
		case isHiddenControl(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// isHiddenControl reports the C1 controls and the Unicode format characters
// that reorder or hide text.
func isHiddenControl(r rune) bool {
	switch {
	case r >= 0x80 && r <= 0x9f: // C1
		return true
	case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069, r == 0x200e, r == 0x200f, r == 0x061c: // bidi
		return true
	}
	return false
}

// needsEscape reports whether escapeControls would change s: text without
// a control character (most text, "→" and "—" included) is returned as it
// is, without being rebuilt.
func needsEscape(s string, keepLines bool) bool {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if (c < 0x20 || c == 0x7f) && !(keepLines && (c == '\n' || c == '\t')) {
				return true
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 || isHiddenControl(r) {
			return true
		}
		i += size
	}
	return false
}

// PrintableCopy returns v (a pointer to a plan, a report) with every string
// it holds passed through Printable, or PrintableText for the prose fields
// named Detail and Message, whose newlines belong to them. A view renders the
// result, so that no value it shows is missed. What needs an escape is
// copied; everything else — usually all of it — is shared with v, not copied:
// treat the result as read-only. Unexported fields are copied as they are.
func PrintableCopy[T any](v T) T {
	out, _ := escapeCopy(reflect.ValueOf(v), "")
	return out.Interface().(T)
}

// multiLine are the fields whose newlines belong to them.
var multiLine = map[string]bool{"Detail": true, "Message": true}

// escapeCopy returns v with every string escaped (field names the string's
// field, for multiLine) and whether anything needed an escape: an unchanged v
// is returned as it is, a changed one is a copy of v sharing its unchanged
// parts. Unexported fields are copied as they are.
func escapeCopy(v reflect.Value, field string) (reflect.Value, bool) {
	switch v.Kind() {
	case reflect.String:
		return escapeString(v, field)
	case reflect.Pointer:
		if v.IsNil() {
			return v, false
		}
		e, changed := escapeCopy(v.Elem(), field)
		if !changed {
			return v, false
		}
		out := reflect.New(v.Type().Elem())
		out.Elem().Set(e)
		return out, true
	case reflect.Interface:
		if v.IsNil() {
			return v, false
		}
		e, changed := escapeCopy(v.Elem(), field)
		if !changed {
			return v, false
		}
		out := reflect.New(v.Type()).Elem()
		out.Set(e)
		return out, true
	case reflect.Slice:
		return escapeSlice(v, field)
	case reflect.Map:
		return escapeMap(v, field)
	case reflect.Struct:
		return escapeStruct(v)
	}
	return v, false
}

func escapeString(v reflect.Value, field string) (reflect.Value, bool) {
	s := v.String()
	e := escapeControls(s, multiLine[field])
	if e == s {
		return v, false
	}
	out := reflect.New(v.Type()).Elem()
	out.SetString(e)
	return out, true
}

// escapeSlice copies the slice on its first element that changes.
func escapeSlice(v reflect.Value, field string) (reflect.Value, bool) {
	if v.IsNil() {
		return v, false
	}
	var out reflect.Value
	for i := 0; i < v.Len(); i++ {
		e, changed := escapeCopy(v.Index(i), field)
		if !changed {
			continue
		}
		if !out.IsValid() {
			out = reflect.MakeSlice(v.Type(), v.Len(), v.Len())
			reflect.Copy(out, v)
		}
		out.Index(i).Set(e)
	}
	if !out.IsValid() {
		return v, false
	}
	return out, true
}

// escapeMap builds a new map when a key or a value changes.
func escapeMap(v reflect.Value, field string) (reflect.Value, bool) {
	if v.IsNil() {
		return v, false
	}
	changed := false
	for it := v.MapRange(); it.Next() && !changed; {
		_, kc := escapeCopy(it.Key(), field)
		_, ec := escapeCopy(it.Value(), field)
		changed = kc || ec
	}
	if !changed {
		return v, false
	}
	out := reflect.MakeMapWithSize(v.Type(), v.Len())
	for it := v.MapRange(); it.Next(); {
		k, _ := escapeCopy(it.Key(), field)
		e, _ := escapeCopy(it.Value(), field)
		out.SetMapIndex(k, e)
	}
	return out, true
}

// structField is an exported field escapeStruct visits.
type structField struct {
	index int
	name  string
}

// structFields caches exportedFields per struct type (reflect.Type →
// []structField): a plan holds thousands of structs of a few types.
var structFields sync.Map

// exportedFields returns t's exported fields, in order.
func exportedFields(t reflect.Type) []structField {
	if fs, ok := structFields.Load(t); ok {
		return fs.([]structField)
	}
	var fs []structField
	for i := 0; i < t.NumField(); i++ {
		if f := t.Field(i); f.IsExported() {
			fs = append(fs, structField{index: i, name: f.Name})
		}
	}
	structFields.Store(t, fs)
	return fs
}

// escapeStruct copies the struct on its first exported field that changes
// (unexported fields — time.Time's, a matcher func — as they are).
func escapeStruct(v reflect.Value) (reflect.Value, bool) {
	t := v.Type()
	var out reflect.Value
	for _, f := range exportedFields(t) {
		i := f.index
		e, changed := escapeCopy(v.Field(i), f.name)
		if !changed {
			continue
		}
		if !out.IsValid() {
			out = reflect.New(t).Elem()
			out.Set(v)
		}
		out.Field(i).Set(e)
	}
	if !out.IsValid() {
		return v, false
	}
	return out, true
}

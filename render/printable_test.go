package render

import (
	"bytes"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/tiform/tiform/planner"
	"github.com/tiform/tiform/plans"
)

// hostileText holds every kind of character that can rewrite a terminal line
// or a Markdown comment.
const hostileText = "v\x1b[2J\x1b]0;x\x07\r\nfake line\t\u009b\u202egnp.\x00\u2066```"

// fill sets every string reachable from v (through pointers, slices and maps
// of one element) to hostileText, and every other field to something
// non-zero where that is easy.
func fill(v reflect.Value, depth int) { fillWith(v, depth, hostileText) }

// fillWith is fill with text.
func fillWith(v reflect.Value, depth int, text string) {
	if depth > 8 {
		return
	}
	switch v.Kind() {
	case reflect.String:
		v.SetString(text)
	case reflect.Pointer:
		if v.Type().Elem() == reflect.TypeOf(time.Time{}) {
			return
		}
		n := reflect.New(v.Type().Elem())
		fillWith(n.Elem(), depth+1, text)
		v.Set(n)
	case reflect.Slice:
		s := reflect.MakeSlice(v.Type(), 1, 1)
		fillWith(s.Index(0), depth+1, text)
		v.Set(s)
	case reflect.Map:
		m := reflect.MakeMap(v.Type())
		k, e := reflect.New(v.Type().Key()).Elem(), reflect.New(v.Type().Elem()).Elem()
		fillWith(k, depth+1, text)
		fillWith(e, depth+1, text)
		m.SetMapIndex(k, e)
		v.Set(m)
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() {
				fillWith(v.Field(i), depth+1, text)
			}
		}
	}
}

// No control character of any string of a plan reaches the text or
// Markdown view raw.
func TestViewsEscapeControlCharacters(t *testing.T) {
	cp := &planner.ClusterPlan{}
	fill(reflect.ValueOf(cp).Elem(), 0)
	cp.Failure = nil // a failed cluster shows only its message: tested below
	for _, ch := range cp.Changes {
		ch.Action = plans.Update
		ch.Sensitive = false
	}
	for _, ig := range cp.Ignored {
		ig.Change.Action = plans.Update
		ig.Change.Sensitive = false
	}
	failed := &planner.ClusterPlan{Name: "f", Failure: &planner.Failure{Status: planner.StatusError, Message: hostileText}}
	p := &planner.Plan{Clusters: []*planner.ClusterPlan{cp, failed}}
	for name, render := range map[string]func(*bytes.Buffer) error{
		"text":     func(b *bytes.Buffer) error { return Text(b, p, TextOptions{Verbose: true}) },
		"markdown": func(b *bytes.Buffer) error { return Markdown(b, p, MarkdownOptions{}) },
		"drift text": func(b *bytes.Buffer) error {
			return DriftText(b, DriftReport(p, nil, ""), false)
		},
		"drift markdown": func(b *bytes.Buffer) error { return DriftMarkdown(b, DriftReport(p, nil, "")) },
	} {
		var b bytes.Buffer
		if err := render(&b); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		out := b.String()
		for _, bad := range []string{"\x1b", "\r", "\x07", "\x00", "\u009b", "\u202e", "\u2066"} {
			if i := strings.Index(out, bad); i >= 0 {
				t.Errorf("%s view holds %q raw: …%q…", name, bad, out[max(0, i-60):min(len(out), i+40)])
			}
		}
		if !strings.Contains(out, `\x1b[2J`) || !strings.Contains(out, `\u202e`) {
			t.Errorf("%s view: the escapes are missing", name)
		}
		// A newline of a value never starts a line of the view, except in
		// the prose of a finding or a failure, which is fenced (Markdown) or
		// indented (text); and only tiform opens and closes fences.
		fence := "" // the open fence, "" outside one
		for _, line := range strings.Split(out, "\n") {
			// GFM: a backtick fence's info string holds no backtick, so
			// a line such as "```` a``` ````" is an inline code span.
			// A fence is closed by a line of at least as many backticks.
			if strings.HasPrefix(line, "```") && !strings.Contains(strings.TrimLeft(line, "`"), "`") {
				ticks := line[:len(line)-len(strings.TrimLeft(line, "`"))]
				info := line[len(ticks):]
				switch {
				case fence == "" && (info == "" || info == "sql" || info == "text" || info == "diff"):
					fence = ticks
				case fence != "" && info == "" && len(ticks) >= len(fence):
					fence = ""
				case fence != "":
					// a line of backticks inside a longer fence is content
				default:
					t.Errorf("%s view: a fence line tiform does not write: %q", name, line)
				}
				continue
			}
			if strings.HasPrefix(line, "fake line") && fence == "" {
				t.Errorf("%s view: a value's newline started a line outside a fence", name)
			}
		}
		if fence != "" {
			t.Errorf("%s view: a fence is never closed", name)
		}
	}
	if p.Clusters[0].Changes[0].After != hostileText {
		t.Error("rendering changed the plan")
	}
}

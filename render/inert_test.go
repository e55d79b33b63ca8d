package render

import (
	"bytes"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"

	"github.com/tiform/tiform/planner"
	"github.com/tiform/tiform/plans"
	"github.com/tiform/tiform/workload"
)

// forgeText is cluster-controlled text a forge would turn into
// notifications and links: mentions, issue and merge-request references,
// bare URLs, an e-mail address.
const forgeText = "ping @octocat and @org/team: see #123, owner/repo#45, !67, GH-89, https://evil.example/x?a=1, www.evil.example and mail me@evil.example."

var (
	// liveMention and the others are what a forge scans rendered text
	// for (GitHub: mentions, references; GFM: autolinks).
	liveMention   = regexp.MustCompile(`(^|[^A-Za-z0-9])@[A-Za-z0-9]`)
	liveReference = regexp.MustCompile(`[#!][0-9]|GH-[0-9]`)
	liveURL       = regexp.MustCompile(`(?i)(https?|ftp)://|www\.`)
	codeSpan      = regexp.MustCompile(`(?s)<code[^>]*>.*?</code>`)
	htmlTag       = regexp.MustCompile(`<[^>]*>`)
)

// Cluster-controlled text in every Markdown view is inert: rendered by a
// GFM renderer (autolinks on), it yields no link and no text a forge reads
// as a mention or a reference outside code spans; and it still reads the
// same once the zero-width spaces are taken out.
func TestMarkdownNeutralisesMentionsReferencesAndLinks(t *testing.T) {
	cp := &planner.ClusterPlan{}
	fillWith(reflect.ValueOf(cp).Elem(), 0, forgeText)
	for _, ch := range cp.Changes {
		ch.Action, ch.Sensitive = plans.Update, false
	}
	for _, ig := range cp.Ignored {
		ig.Change.Action, ig.Change.Sensitive = plans.Update, false
	}
	cp.Failure = nil
	p := &planner.Plan{Clusters: []*planner.ClusterPlan{cp}}
	var h CheckHeader
	var pc workload.PlanCacheReport
	var mv MVCCView
	for _, v := range []any{&h, &pc, &mv} {
		fillWith(reflect.ValueOf(v).Elem(), 0, forgeText)
	}
	for name, render := range map[string]func(*bytes.Buffer) error{
		"plan":       func(b *bytes.Buffer) error { return Markdown(b, p, MarkdownOptions{}) },
		"drift":      func(b *bytes.Buffer) error { return DriftMarkdown(b, DriftReport(p, nil, "")) },
		"plan-cache": func(b *bytes.Buffer) error { return PlanCacheMarkdown(b, h, pc) },
		"mvcc":       func(b *bytes.Buffer) error { return MVCCMarkdown(b, h, mv) },
	} {
		var md bytes.Buffer
		if err := render(&md); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		var html bytes.Buffer
		if err := goldmark.New(goldmark.WithExtensions(extension.GFM)).Convert(md.Bytes(), &html); err != nil {
			t.Fatalf("%s: goldmark: %v", name, err)
		}
		h := html.String()
		for _, a := range regexp.MustCompile(`<a href="[^"]*"`).FindAllString(h, -1) {
			if strings.Contains(a, "evil") || strings.Contains(a, "mailto") {
				t.Errorf("%s: cluster text became a link: %s", name, a)
			}
		}
		text := htmlTag.ReplaceAllString(codeSpan.ReplaceAllString(h, " "), " ")
		for what, re := range map[string]*regexp.Regexp{"mention": liveMention, "reference": liveReference, "URL": liveURL} {
			if m := re.FindStringIndex(text); m != nil {
				t.Errorf("%s: a live %s in the rendered text: …%s…", name, what, text[max(0, m[0]-40):min(len(text), m[1]+40)])
			}
		}
		// Still readable: without the zero-width spaces and the code-span
		// backticks, the Markdown holds the text as it was written.
		plain := strings.NewReplacer(zwsp, "", "`", "", `\_`, "_", `\[`, "[", `\]`, "]").Replace(md.String())
		if name != "mvcc" && !strings.Contains(plain, "ping @octocat and @org/team: see #123, owner/repo#45, !67, GH-89, https://evil.example/x?a=1, www.evil.example and mail me@evil.example.") {
			t.Errorf("%s: the text does not read as written:\n%s", name, md.String())
		}
	}
}

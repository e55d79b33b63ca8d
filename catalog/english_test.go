package catalog

import (
	"strings"
	"testing"

	"github.com/tiform/tiform/internal/upstream"
	"github.com/tiform/tiform/version"
)

// TestNoChineseInEntries: every text an entry gives a user — its
// description, unit, restart advice, versions, defaults at every observed
// version, the example and the message of a value it rejects — is free of
// CJK, for the whole catalog. The generated table's facts come from the
// Chinese docs; english.go translates what reaches a message.
func TestNoChineseInEntries(t *testing.T) {
	var versions []version.Version
	for _, v := range table.Versions[upstream.SysVar] {
		versions = append(versions, mustVersion(v))
	}
	bad := 0
	check := func(e *Entry, what, s string) {
		if hasCJK(s) {
			bad++
			if bad <= 20 {
				t.Errorf("%s %s: %q", e.Address(), what, s)
			}
		}
	}
	for _, e := range Entries() {
		check(e, "doc", e.Doc)
		check(e, "unit", e.Unit)
		check(e, "restart note", e.RestartNote)
		check(e, "versions", e.VersionsText())
		check(e, "online", e.OnlineText())
		check(e, "example", e.Example())
		check(e, "advice", e.Advice)
		check(e, "sources", strings.Join(e.Sources, " "))
		for _, d := range e.Defaults {
			check(e, "default", d.Value+" "+d.Note)
		}
		for _, v := range versions {
			if d, ok := e.DefaultRecordIn(v); ok {
				check(e, "default at "+v.Short(), d.Value+" "+d.Note)
			}
		}
		for _, bad := range []string{"not-a-value!", "-1", "99999999999999999999999", "1.5", "[]"} {
			if err := e.Check(bad); err != nil {
				check(e, "rejection", err.Error())
			}
		}
	}
	if bad > 20 {
		t.Errorf("… %d texts in all", bad)
	}
	// The example of the issue: a millisecond variable's rejection.
	e, _ := Variable("tidb_slow_log_threshold")
	if err := e.Check("soon"); err == nil || !strings.Contains(err.Error(), "(unit: milliseconds)") {
		t.Errorf("tidb_slow_log_threshold rejects \"soon\" with %v", err)
	}
}

// TestEnglishTableIsUsed: every translated text occurs in the generated
// table, so the table lists nothing a regenerated catalog dropped.
func TestEnglishTableIsUsed(t *testing.T) {
	seen := map[string]bool{}
	for _, s := range table.Settings {
		for _, sp := range s.Spans {
			seen[strings.TrimSpace(sp.Unit)] = true
			seen[sp.DefaultExpr] = true
			for _, n := range sp.Notes {
				seen[n.Text] = true
			}
		}
	}
	for k, v := range docsCNUnits {
		if !seen[k] {
			t.Errorf("unit %q (%s) is in no span of the table", k, v.text)
		}
		if hasCJK(v.text) || !strings.HasPrefix(v.source, "https://docs.pingcap.com/") {
			t.Errorf("unit %q: %+v", k, v)
		}
	}
	for k, v := range docsCNPhrases {
		if !seen[k] {
			t.Errorf("phrase %q (%s) is in no span of the table", k, v.text)
		}
		if hasCJK(v.text) || !strings.HasPrefix(v.source, "https://docs.pingcap.com/") {
			t.Errorf("phrase %q: %+v", k, v)
		}
	}
}

func TestHasCJK(t *testing.T) {
	for s, want := range map[string]bool{"毫秒": true, "（随系统）": true, "region-split-size 256MiB": false, "5–10% → ×2 “quoted”": false, "ｘ": true, "한": true} {
		if hasCJK(s) != want {
			t.Errorf("hasCJK(%q) = %v", s, !want)
		}
	}
}

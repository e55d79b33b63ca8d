package guard

import (
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"

	"github.com/tiform/tiform/catalog"
	"github.com/tiform/tiform/version"
)

// TestRangesFromTiKVTags checks the version ranges of the TiKV rules against
// the tags of a tikv/tikv clone (TIFORM_UPSTREAM_TIKV, as `make catalog`
// reads it): at every final release tag from v6.5.0 on, and the 9.0 betas,
// a rule's version method must say "affected" exactly when the tag
// contains the commit that brought the behaviour (or, for a bug of an item,
// when the item exists there) and none of the commits that fixed it. The
// ranges in the rules were read this way (the fix commit's first tag per
// release line); this keeps them honest when tags are added.
func TestRangesFromTiKVTags(t *testing.T) {
	dir := os.Getenv("TIFORM_UPSTREAM_TIKV")
	if dir == "" {
		t.Skip("TIFORM_UPSTREAM_TIKV is not set: the version ranges were not checked against tikv/tikv's tags")
	}
	git := func(args ...string) []string {
		out, err := exec.Command("git", append([]string{"-C", dir}, args...)...).Output()
		if err != nil {
			t.Fatalf("git %s: %v", strings.Join(args, " "), err)
		}
		return strings.Fields(string(out))
	}
	release := regexp.MustCompile(`^v\d+\.\d+\.\d+(-beta\.\d+)?$`)
	var tags []string
	for _, tag := range git("tag", "--list", "v*") {
		if v, err := version.Parse(tag); err == nil && release.MatchString(tag) && v.AtLeast(6, 5, 0) {
			tags = append(tags, tag)
		}
	}
	if len(tags) < 40 {
		t.Fatalf("only %d release tags in %s: not a full clone?", len(tags), dir)
	}
	contains := map[string]map[string]bool{}
	in := func(tag string, commits ...string) bool {
		for _, c := range commits {
			if contains[c] == nil {
				contains[c] = map[string]bool{}
				for _, x := range git("tag", "--contains", c) {
					contains[c][x] = true
				}
			}
			if contains[c][tag] {
				return true
			}
		}
		return false
	}
	exists := func(key string) func(version.Version) bool {
		e, ok := catalog.Config("tikv", key)
		if !ok {
			t.Fatalf("the catalog has no tikv %s", key)
		}
		return func(v version.Version) bool { return e.ExistsIn(v) }
	}
	cases := []struct {
		name     string
		affected func(version.Version) bool
		// brought: commits that bring the behaviour (master and cherry-picks);
		// nil with present: the behaviour is there wherever present says.
		brought []string
		present func(version.Version) bool
		fixed   []string
	}{
		{name: "TF112 scheduler queue switch (tikv/tikv#14582)", affected: version.Version.SchedulerQueueSwitch,
			brought: []string{"a473cb3e5a"}},
		{name: "TF112 background-only switch (tikv/tikv#19396, #19554; fixed by #19855, #19895)",
			affected: version.Version.BackgroundSwitchesSchedulerQueue,
			brought:  []string{"36ebe42b73", "6103df00ed"}, fixed: []string{"57a50ae341", "7baed78c0a"}},
		{name: "TF144 full-compaction schedule panic (tikv/tikv#17066; fixed by #17069, #17335)",
			affected: version.Version.FullCompactScheduleOnlinePanic,
			present:  exists("raftstore.periodic-full-compact-start-times"), fixed: []string{"f302b9db0c", "5204612594"}},
		{name: "TF102 region size inherited (tikv/tikv#18505, #18545)", affected: version.Version.InheritsRegionSize,
			brought: []string{"63867c3227", "84610a2717"}},
		{name: "TF110 priority limiter (tikv/tikv#15929; fixed by #18940, #18992)", affected: version.Version.PriorityLimiterBug,
			brought: []string{"91b35fb8d3", "076b79c54b"}, fixed: []string{"c00d341c50", "e23cdf9e11"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			for _, tag := range tags {
				v := version.MustParse(tag)
				want := tc.brought == nil || in(tag, tc.brought...)
				if tc.present != nil {
					want = want && tc.present(v)
				}
				want = want && !in(tag, tc.fixed...)
				if got := tc.affected(v); got != want {
					t.Errorf("%s: the rule says affected=%v, the tags say %v", tag, got, want)
				}
			}
		})
	}
}

// TestRangesFromReleaseNotes checks TF127's range against pingcap/docs-cn
// (TIFORM_UPSTREAM_DOCS_CN): a release is affected when the catalog's
// default of tidb_ignore_inlist_plan_digest there is ON while its line
// started with OFF (the default flipped within the line, pingcap/tidb#66624),
// and no release of the line up to it lists pingcap/tidb#68136 among its
// fixes (releases/release-X.Y.Z.md on master).
func TestRangesFromReleaseNotes(t *testing.T) {
	dir := os.Getenv("TIFORM_UPSTREAM_DOCS_CN")
	if dir == "" {
		t.Skip("TIFORM_UPSTREAM_DOCS_CN is not set: TF127's range was not checked against the release notes")
	}
	e, ok := catalog.Variable(varInlistDigest)
	if !ok {
		t.Fatalf("the catalog has no %s", varInlistDigest)
	}
	notes := func(v version.Version) string {
		out, err := exec.Command("git", "-C", dir, "show", "master:releases/release-"+strings.TrimPrefix(v.Short(), "v")+".md").Output()
		if err != nil {
			return "" // no notes for that version
		}
		return string(out)
	}
	checked := 0
	for minor := 0; minor <= 5; minor++ {
		first := version.Version{Major: 8, Minor: minor}
		lineDefault, ok := e.DefaultIn(first)
		if !ok {
			continue
		}
		fixed := false
		for patch := 0; patch <= 12; patch++ {
			v := version.Version{Major: 8, Minor: minor, Patch: patch}
			text := notes(v)
			if text == "" && patch > 0 {
				continue
			}
			fixed = fixed || strings.Contains(text, "pingcap/tidb/issues/68136")
			def, _ := e.DefaultIn(v)
			want := def == "ON" && lineDefault == "OFF" && !fixed
			if got := v.InlistPlanDigestFlip(); got != want {
				t.Errorf("%s: the rule says affected=%v; default %s (line began with %s), fix listed so far: %v", v.Short(), got, def, lineDefault, fixed)
			}
			checked++
		}
	}
	if checked < 10 {
		t.Errorf("only %d releases checked", checked)
	}
}

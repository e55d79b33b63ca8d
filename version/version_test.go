package version

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// Real version strings as clusters print them, each with where it was seen:
// gh-<repo>-N is pingcap/<repo>#N, docs-cn-<page> a pingcap/docs-cn page,
// idx-N a public page of the team's collection; "observed" marks strings
// seen on TiDB Cloud that no documentation states.
func TestParseRealStrings(t *testing.T) {
	type want struct {
		Major, Minor, Patch int
		Pre                 string
		Dev, Serverless     bool
	}
	tests := []struct {
		name string
		in   string
		want want
	}{
		{"VERSION() 8.5.1 (docs: system-variables#version)", "8.0.11-TiDB-v8.5.1", want{8, 5, 1, "", false, false}},
		{"VERSION() 7.5.1 (docs-cn-information-functions-v7.5.1)", "8.0.11-TiDB-v7.5.1", want{7, 5, 1, "", false, false}},
		{"VERSION() 8.5.2 (docs-cn-sample-app-cs-v8.5.2)", "8.0.11-TiDB-v8.5.2", want{8, 5, 2, "", false, false}},
		{"VERSION() 8.5.8 (idx-70838115507)", "8.0.11-TiDB-v8.5.8", want{8, 5, 8, "", false, false}},
		{"serverless 8.5.3 (idx-61780439231)", "8.0.11-TiDB-v8.5.3-serverless", want{8, 5, 3, "serverless", false, true}},
		{"serverless 7.5.2 (observed)", "8.0.11-TiDB-v7.5.2-serverless", want{7, 5, 2, "serverless", false, true}},
		{"serverless 5.7.28 prefix (observed)", "5.7.28-TiDB-v7.1.3-serverless", want{7, 1, 3, "serverless", false, true}},
		{"serverless 6.6.0 (docs-cn-sample-app-prisma-serverless)", "5.7.25-TiDB-v6.6.0-serverless", want{6, 6, 0, "serverless", false, true}},
		{"5.7.25 prefix beta (gh-tidb-15821)", "5.7.25-TiDB-v4.0.0-beta.2", want{4, 0, 0, "beta.2", true, false}},
		{"5.7.25 prefix commits after tag (gh-tidb-15871)", "5.7.25-TiDB-v4.0.0-beta.2-125-gce7e1e54c", want{4, 0, 0, "beta.2-125-gce7e1e54c", true, false}},
		{"dirty build (gh-tidb-14718)", "5.7.25-TiDB-v4.0.0-beta-100-g75bfcb6c5-dirty", want{4, 0, 0, "beta-100-g75bfcb6c5-dirty", true, false}},
		{"alpha with hash (git describe, pingcap/tidb Makefile.common)", "8.0.11-TiDB-v8.4.0-alpha-44-gdd2d54ad4", want{8, 4, 0, "alpha-44-gdd2d54ad4", true, false}},
		{"9.0 beta pre (git describe)", "8.0.11-TiDB-v9.0.0-beta.2.pre-784-gcf74287377", want{9, 0, 0, "beta.2.pre-784-gcf74287377", true, false}},
		{"CLUSTER_INFO tidb without v (tables.go FormatTiDBVersion)", "8.5.1", want{8, 5, 1, "", false, false}},
		{"CLUSTER_INFO alpha dirty (gh-tidb-51410)", "8.0.0-alpha-338-g27ce02afd2-dirty", want{8, 0, 0, "alpha-338-g27ce02afd2-dirty", true, false}},
		{"CLUSTER_INFO pd alpha (gh-tidb-51410)", "8.0.0-alpha-62-gbb65fb4ff", want{8, 0, 0, "alpha-62-gbb65fb4ff", true, false}},
		{"CLUSTER_INFO plain alpha (gh-tidb-51409)", "8.0.0-alpha", want{8, 0, 0, "alpha", true, false}},
		{"CLUSTER_INFO tiflash keeps v (gh-tiflash-891)", "v4.1.0-alpha-45-gf8780eb", want{4, 1, 0, "alpha-45-gf8780eb", true, false}},
		{"CLUSTER_INFO tiflash v5.0.1 (gh-tiflash-2034)", "v5.0.1", want{5, 0, 1, "", false, false}},
		{"CLUSTER_INFO 5.0.1 (gh-tiflash-2034)", "5.0.1", want{5, 0, 1, "", false, false}},
		{"tikv hot-fix tag (tikv/tikv tag v8.5.0-20250124-69738fc)", "v8.5.0-20250124-69738fc", want{8, 5, 0, "20250124-69738fc", false, false}},
		{"custom build tail (gh-tidb-54511)", "Release Version: v6.5.4-v15.2-abnb\nEdition: Community\nGit Commit Hash: 26e36fba0c2e890e7a3d565113cb25091c890543\nGit Branch: heads/v6.5.4-v15.2-abnb", want{6, 5, 4, "v15.2-abnb", false, false}},
		{"tidb_version() 7.5.1 (docs-cn-information-functions-v7.5.1)", "Release Version: v7.5.1\nEdition: Community\nGit Commit Hash: 7d16cc79e81bbf573124df3fd9351c26963f3e70\nGit Branch: heads/refs/tags/v7.5.1\nUTC Build Time: 2024-02-27 14:28:32\nGoVersion: go1.21.6\nRace Enabled: false\nCheck Table Before Drop: false\nStore: tikv", want{7, 5, 1, "", false, false}},
		{"tidb_version() 8.5.3 enterprise (gh-tidb-62620)", "Release Version: v8.5.3\nEdition: Enterprise\nGit Commit Hash: dcbfb10cd28823999e66aae541cdc5d904d231a6\nGit Branch: HEAD\nStore: tikv\nEnterprise Extension Commit Hash: 7d43ff65ebc145bd63fa84cb368f8775be906998", want{8, 5, 3, "", false, false}},
		{"tidb_version() dirty (docs-cn-tidb-functions-v5.1)", "Release Version: v5.1.0-alpha-13-gd5e0ed0aa-dirty\nEdition: Community\nTiKV Min Version: v3.0.0-60965b006877ca7234adaced7890d7b029ed1306", want{5, 1, 0, "alpha-13-gd5e0ed0aa-dirty", true, false}},
		{"tidb_version() rc (idx-94267366)", "Release Version: v3.0.0-rc.2\nGit Commit Hash: 06f3f63d5a87e7f0436c0618cf524fea7172eb93", want{3, 0, 0, "rc.2", true, false}},
		{"tidb-server -V leading space (gh-tidb-56046)", " Release Version: v6.5.11\nEdition: Community\nGit Commit Hash: 305cf424997144f38c268112055fc446d30b7938", want{6, 5, 11, "", false, false}},
		{"tikv-server -V padded (gh-tikv-12622)", " TiKV \nRelease Version:   6.1.0-alpha\nEdition:           Community", want{6, 1, 0, "alpha", true, false}},
		{"pd-server -V nightly (gh-tikv-12518)", "Release Version: v6.1.0-nightly\nEdition: Community", want{6, 1, 0, "nightly", true, false}},
		{"pd-server -V 9.0 beta pre, truncated (gh-pd-9448)", "Release Version: v9.0.0-beta.1.pre-201-ga9217e7\nEdition: Enterprise\nKernel Type: Ne", want{9, 0, 0, "beta.1.pre-201-ga9217e7", true, false}},
		{"client banner (docs-cn-post-installation-check-v4.0)", "Server version: 5.7.25-TiDB-v4.0.0 TiDB Server (Apache License 2.0) Community Edition, MySQL 5.7 compatible", want{4, 0, 0, "", false, false}},
		{"client banner dev (idx-43461561213)", "Server version: 5.7.25-TiDB-v4.0.0-beta-446-g5268094af TiDB Server (Apache License 2.0), MySQL 5.7 compatible", want{4, 0, 0, "beta-446-g5268094af", true, false}},
	}
	if len(tests) < 20 {
		t.Fatalf("the issue asks for at least 20 real strings, have %d", len(tests))
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v, err := Parse(tt.in)
			if err != nil {
				t.Fatalf("Parse(%q): %v", tt.in, err)
			}
			got := want{v.Major, v.Minor, v.Patch, v.Pre, v.IsDevelopment(), v.IsServerless()}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Parse(%q) (-want +got):\n%s", tt.in, diff)
			}
			if v.Raw != tt.in {
				t.Errorf("Raw = %q, want the input unchanged", v.Raw)
			}
		})
	}
}

// Strings with no numeric X.Y.Z core must fail, so callers fall back to
// another source.
func TestParseRejects(t *testing.T) {
	for _, in := range []string{
		"",
		"5a5186162e",                      // bare hash: no tag reachable (git describe --always)
		"8.0.11-TiDB-5a5186162e",          // VERSION() of such a build
		"Release Version: 5a5186162e",     // its tidb_version()
		"Release Version: CLOUD.202603.0", // next-gen cloud scheme (observed, unconfirmed)
		"8.5",
		"v8.x.1",
		"-1.0.0",
	} {
		if v, err := Parse(in); err == nil {
			t.Errorf("Parse(%q) = %v, want an error", in, v)
		} else if !strings.HasPrefix(err.Error(), "version: ") {
			t.Errorf("Parse(%q) error %q does not say where it comes from", in, err)
		}
	}
}

func TestCompareIgnoresTail(t *testing.T) {
	tests := []struct {
		a, b string
		want int
	}{
		{"8.0.11-TiDB-v8.5.1", "8.5.1", 0},
		{"v8.4.0-alpha-44-gdd2d54ad4", "8.4.0", 0},
		{"8.5.1", "8.5.3", -1},
		{"8.5.10", "8.5.9", 1},
		{"9.0.0-beta.2", "8.5.8", 1},
		{"5.7.25-TiDB-v6.5.0", "8.0.11-TiDB-v7.5.1", -1},
	}
	for _, tt := range tests {
		if got := MustParse(tt.a).Compare(MustParse(tt.b)); got != tt.want {
			t.Errorf("Compare(%s, %s) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
	}
}

func TestStringRendering(t *testing.T) {
	tests := map[string]string{
		"8.0.11-TiDB-v8.5.1":            "v8.5.1",
		"8.0.11-TiDB-v7.5.2-serverless": "v7.5.2-serverless",
		"v8.5.0-20250124-69738fc":       "v8.5.0-20250124-69738fc",
	}
	for in, want := range tests {
		if got := MustParse(in).String(); got != want {
			t.Errorf("String(%q) = %q, want %q", in, got, want)
		}
	}
	if got := (Version{}).String(); got != "unknown" {
		t.Errorf("zero String = %q", got)
	}
}

// Fuzz Parse: never panics; a parsed version round-trips through String.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"8.0.11-TiDB-v8.5.1", "v8.5.0-20250124-69738fc", "Release Version: v7.5.1\nEdition: Community", "5a5186162e", "", "TiDB-", "1.2.3.4-x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v, err := Parse(s)
		if err != nil {
			return
		}
		w, err := Parse(v.String())
		if err != nil {
			t.Fatalf("Parse(%q) = %v, but Parse(%q) fails: %v", s, v, v.String(), err)
		}
		if w.Compare(v) != 0 {
			t.Errorf("round trip %q → %v → %v", s, v, w)
		}
	})
}

// BurstModes: the v9.0 BURSTABLE modes are not in master builds cut before
// the v9.0.0-beta.2 release (the real server of 2025-11-26 refuses them).
func TestBurstModes(t *testing.T) {
	for _, tc := range []struct {
		v    string
		want bool
	}{
		{"v8.5.1", false},
		{"v9.0.0-beta.1", false},
		{"v9.0.0-beta.1.pre-201-ga9217e7", false},
		{"v9.0.0-beta.2.pre-20251126-e4e814fdc0af", false},
		{"v9.0.0-beta.2", true},
		{"v9.0.0", true},
		{"v9.1.0-beta.2.pre", true},
	} {
		if got := MustParse(tc.v).BurstModes(); got != tc.want {
			t.Errorf("%s: BurstModes = %v, want %v", tc.v, got, tc.want)
		}
	}
}

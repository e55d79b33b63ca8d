package version

import (
	"fmt"
	"strconv"
	"strings"
)

// Version is a parsed TiDB-family release version.
//
// Comparison uses only Major.Minor.Patch: a
// development build such as v8.4.0-alpha-44-gdd2d54ad4 compares equal to 8.4.0,
// and the tail is kept in Pre for display and for IsDevelopment.
type Version struct {
	Major, Minor, Patch int
	// Pre is everything after "X.Y.Z-" (alpha, beta.2.pre-784-g…, serverless,
	// a hot-fix date and hash, -dirty). Empty for a release build.
	Pre string
	// Raw is the string the version was parsed from, unchanged.
	Raw string
}

// Parse accepts every form a TiDB cluster prints (VERSION():
// https://docs.pingcap.com/tidb/stable/system-variables#version, prefix 8.0.11 since
// https://docs.pingcap.com/tidb/stable/release-7.4.0; CLUSTER_INFO.VERSION:
// pingcap/tidb@v8.5.1:pkg/infoschema/tables.go, FormatTiDBVersion; the -serverless
// suffix is observed on TiDB Cloud, not documented):
//
//	8.0.11-TiDB-v8.5.1          VERSION() since v7.4.0
//	5.7.25-TiDB-v6.5.0          VERSION() before v7.4.0
//	8.0.11-TiDB-v7.5.2-serverless
//	v8.5.1, 8.5.1               tags and CLUSTER_INFO.VERSION
//	8.4.0-alpha-44-gdd2d54ad4   development builds
//	Release Version: v8.5.3     the first line of tidb_version() or -V output
//
// It returns an error for anything without a numeric X.Y.Z core (for example
// a bare git hash), so callers can fall back to another source.
func Parse(s string) (Version, error) {
	raw := s
	s = strings.TrimSpace(s)
	// tidb_version() / -V output: take the "Release Version:" line.
	if i := strings.Index(s, "Release Version:"); i >= 0 {
		s = s[i+len("Release Version:"):]
		if j := strings.IndexByte(s, '\n'); j >= 0 {
			s = s[:j]
		}
		s = strings.TrimSpace(s)
	}
	// VERSION(): cut after the first "TiDB-" (as
	// pingcap/tidb@v8.5.1:pkg/infoschema/tables.go FormatTiDBVersion does).
	if i := strings.Index(s, "TiDB-"); i >= 0 {
		s = s[i+len("TiDB-"):]
	}
	// A banner such as "5.7.25-TiDB-v4.0.0 TiDB Server (Apache License 2.0) …"
	// or "Release Version:   6.1.0-alpha" padding: keep the first word.
	if i := strings.IndexAny(s, " \t\r\n"); i >= 0 {
		s = s[:i]
	}
	s = strings.TrimPrefix(s, "v")
	core, pre, _ := strings.Cut(s, "-")
	parts := strings.Split(core, ".")
	if len(parts) < 3 {
		return Version{}, fmt.Errorf("version: %q is not of the form X.Y.Z", raw)
	}
	var nums [3]int
	for i := 0; i < 3; i++ {
		n, err := strconv.Atoi(parts[i])
		if err != nil || n < 0 {
			return Version{}, fmt.Errorf("version: %q is not of the form X.Y.Z", raw)
		}
		nums[i] = n
	}
	if len(parts) > 3 {
		// 9.0.0-beta.2 has its dots after the dash; "9.0.0.1" style is unknown.
		extra := strings.Join(parts[3:], ".")
		if pre == "" {
			pre = extra
		} else {
			pre = extra + "-" + pre
		}
	}
	if strings.Contains(pre, "TiDB-") {
		// No release has one; it would read back as a VERSION() prefix.
		return Version{}, fmt.Errorf("version: %q has a pre-release holding \"TiDB-\"", raw)
	}
	return Version{Major: nums[0], Minor: nums[1], Patch: nums[2], Pre: pre, Raw: raw}, nil
}

// MustParse is Parse for literals in code and tests; it panics on error.
func MustParse(s string) Version {
	v, err := Parse(s)
	if err != nil {
		panic(err)
	}
	return v
}

// IsZero reports whether v is the zero Version (unknown).
func (v Version) IsZero() bool { return v.Major == 0 && v.Minor == 0 && v.Patch == 0 && v.Raw == "" }

// Compare returns -1, 0 or +1 comparing Major.Minor.Patch only.
func (v Version) Compare(o Version) int {
	switch {
	case v.Major != o.Major:
		return sign(v.Major - o.Major)
	case v.Minor != o.Minor:
		return sign(v.Minor - o.Minor)
	default:
		return sign(v.Patch - o.Patch)
	}
}

func sign(n int) int {
	switch {
	case n < 0:
		return -1
	case n > 0:
		return 1
	}
	return 0
}

// AtLeast reports whether v >= major.minor.patch.
func (v Version) AtLeast(major, minor, patch int) bool {
	return v.Compare(Version{Major: major, Minor: minor, Patch: patch}) >= 0
}

// Before reports whether v < major.minor.patch.
func (v Version) Before(major, minor, patch int) bool { return !v.AtLeast(major, minor, patch) }

// Between reports whether lo <= v <= hi (inclusive on both ends).
func (v Version) Between(lo, hi Version) bool { return v.Compare(lo) >= 0 && v.Compare(hi) <= 0 }

// IsDevelopment reports a non-release build: alpha, beta, rc, nightly, or commits
// after a tag (-N-g<hash>, from `git describe --tags --dirty --always`:
// pingcap/tidb@v8.5.1:Makefile.common).
func (v Version) IsDevelopment() bool {
	p := strings.ToLower(v.Pre)
	for _, k := range []string{"alpha", "beta", "rc", "nightly", "pre", "-g", "dirty"} {
		if strings.Contains(p, k) {
			return true
		}
	}
	return strings.HasPrefix(p, "g")
}

// IsServerless reports a TiDB Cloud Serverless/Starter build (the "-serverless"
// suffix: observed, not documented).
func (v Version) IsServerless() bool { return strings.Contains(v.Pre, "serverless") }

// String renders "v" + Major.Minor.Patch and the tail, the way tags are written.
func (v Version) String() string {
	if v.IsZero() {
		return "unknown"
	}
	s := fmt.Sprintf("v%d.%d.%d", v.Major, v.Minor, v.Patch)
	if v.Pre != "" {
		s += "-" + v.Pre
	}
	return s
}

// Short renders Major.Minor.Patch without the tail, e.g. "v8.5.1".
func (v Version) Short() string { return fmt.Sprintf("v%d.%d.%d", v.Major, v.Minor, v.Patch) }

// Capability methods: one place that knows which release introduced what.
// Each cites its public source.

// RegionSize256Default: TiKV default region-split-size is 256MiB from v8.4.0
// (https://docs.pingcap.com/tidb/stable/release-8.4.0, tikv/tikv#17311).
func (v Version) RegionSize256Default() bool { return v.AtLeast(8, 4, 0) }

// InheritsRegionSize: TiKV v8.5.3+ inherits unset region-size items from
// last_tikv.toml instead of re-deriving them (tikv/tikv#18505, released in
// https://docs.pingcap.com/tidb/stable/release-8.5.3). v9.0.0-beta.1
// does not have it; later 9.x builds do.
func (v Version) InheritsRegionSize() bool {
	if v.Major == 8 && v.Minor == 5 {
		return v.Patch >= 3
	}
	return v.AtLeast(9, 0, 0) && !strings.HasPrefix(v.Pre, "beta.1")
}

// RegionSizeReset: TiKV with the 256MiB default but without the inheritance
// fix gives every undeclared region-size key the new default at each start,
// whatever the cluster used before (tikv/tikv#18503): v8.4.0–v8.5.2, and the
// v9.0.0-beta.1 build cut before the fix.
func (v Version) RegionSizeReset() bool { return v.RegionSize256Default() && !v.InheritsRegionSize() }

// InMemoryEngine: TiKV IME exists from v8.5.0
// (https://docs.pingcap.com/tidb/stable/tikv-in-memory-engine).
func (v Version) InMemoryEngine() bool { return v.AtLeast(8, 5, 0) }

// PlanCacheUnqualified reports whether the statement summary tables record
// PLAN_CACHE_UNQUALIFIED and PLAN_CACHE_UNQUALIFIED_LAST_REASON: from v8.2.0
// (pingcap/tidb#52725, issue #50618;
// https://docs.pingcap.com/tidb/stable/statement-summary-tables).
func (v Version) PlanCacheUnqualified() bool { return v.AtLeast(8, 2, 0) }

// InstancePlanCache: tidb_enable_instance_plan_cache exists from v8.4.0
// (https://docs.pingcap.com/tidb/stable/system-variables#tidb_enable_instance_plan_cache-new-in-v840).
func (v Version) InstancePlanCache() bool { return v.AtLeast(8, 4, 0) }

// BurstModes: BURSTABLE = OFF|MODERATED|UNLIMITED and their INFORMATION_SCHEMA
// rendering from v9.0.0-beta.2; YES/NO before
// (https://docs.pingcap.com/tidb/dev/sql-statement-create-resource-group,
// docs change pingcap/docs-cn#20020 labelled v9.0-beta.2;
// https://docs.pingcap.com/tidb/v8.5/information-schema-resource-groups).
// master builds before the v9.0.0-beta.2 release (v9.0.0-beta.1*,
// v9.0.0-beta.2.pre*) do not have them: the parser of
// pingcap/tidb@e4e814fdc0af (2025-11-26, pkg/parser/parser.y) knows only
// BURSTABLE [= TRUE|FALSE], and the real server of that commit refuses
// BURSTABLE = UNLIMITED (the differential suite, internal/tidbsim).
func (v Version) BurstModes() bool {
	if v.Major == 9 && v.Minor == 0 && v.Patch == 0 &&
		(strings.HasPrefix(v.Pre, "beta.1") || strings.HasPrefix(v.Pre, "beta.2.pre")) {
		return false
	}
	return v.AtLeast(9, 0, 0)
}

// PriorityLimiterBug: TiKV v7.5.0–v8.5.3 throttle MEDIUM/LOW priority with idle
// CPU when a user-defined group exists (tikv/tikv#18939, introduced by
// tikv/tikv#15929); fixed in v8.5.4 (tikv/tikv#18992; range derived from the tags). Not
// fixed on 9.0 beta branches cut before the fix.
func (v Version) PriorityLimiterBug() bool {
	if v.Before(7, 5, 0) {
		return false
	}
	if v.Major == 8 && v.Minor == 5 {
		return v.Patch <= 3
	}
	if v.Major == 8 && v.Minor > 5 || v.Major > 8 {
		// 9.0 beta builds before the fix (derived from the tags: the fix is not
		// on the release-9.0-beta.2 branch).
		return v.Major == 9 && v.Minor == 0 && v.Patch == 0 && strings.HasPrefix(v.Pre, "beta")
	}
	return true
}

// SchedulerQueueSwitch: from TiKV v7.1.0 the transaction scheduler runs a
// FIFO queue while no resource group but `default` exists, and a priority
// queue as soon as one does (tikv/tikv#14582, first tag v7.1.0); the
// priority queue costs 5–10% on write-heavy workloads (tikv/tikv#19858).
func (v Version) SchedulerQueueSwitch() bool { return v.AtLeast(7, 1, 0) }

// BackgroundSwitchesSchedulerQueue: TiKV v8.5.7 also switches to the
// priority queue when only background task control is set
// (tikv/tikv#19396, release-8.5 cherry-pick tikv/tikv#19554, first tag
// v8.5.7). tikv/tikv#19855 undoes that (release-8.5: tikv/tikv#19895), in
// no release tag yet: every later 8.5 patch counts as affected until one
// carries it. No 9.x tag has the change (derived from the tags).
func (v Version) BackgroundSwitchesSchedulerQueue() bool {
	return v.Major == 8 && v.Minor == 5 && v.Patch >= 7
}

// FullCompactScheduleOnlinePanic: an online change of
// raftstore.periodic-full-compact-start-times panics TiKV v7.6.0–v8.1.0
// (tikv/tikv#17066; the item is new in v7.6.0). Fixed by tikv/tikv#17069
// (first tag v8.2.0) and its release-8.1 cherry-pick tikv/tikv#17335
// (v8.1.1); the 7.6 and 8.0 lines have no later patch.
func (v Version) FullCompactScheduleOnlinePanic() bool {
	if v.Before(7, 6, 0) || v.AtLeast(8, 2, 0) {
		return false
	}
	return !(v.Major == 8 && v.Minor == 1 && v.Patch >= 1)
}

// InlistPlanDigestFlip: TiDB v8.5.6 changed the default of
// tidb_ignore_inlist_plan_digest from OFF to ON (pingcap/tidb#66624), and a
// cluster upgraded from an earlier version whose mysql.global_variables has
// no row for it reads the new default (pingcap/tidb#68136); v8.5.7 writes
// the missing row during the upgrade (pingcap/tidb#68137, #68138). From the
// pingcap/docs-cn release notes of v8.5.6 and v8.5.7.
func (v Version) InlistPlanDigestFlip() bool { return v.Major == 8 && v.Minor == 5 && v.Patch == 6 }

// MySQLPrefix is the MySQL version TiDB reports in VERSION(): 8.0.11 since v7.4.0,
// 5.7.25 before (https://docs.pingcap.com/tidb/stable/release-7.4.0).
func (v Version) MySQLPrefix() string {
	if v.AtLeast(7, 4, 0) {
		return "8.0.11"
	}
	return "5.7.25"
}

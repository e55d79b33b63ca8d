package importer

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/tiform/tiform/planner"
	"github.com/tiform/tiform/state"
)

// import --update with unmanaged drift, in a fleet: a key set on one TiKV
// of three is declared for that instance, one set on all for every
// instance, a variable in the variables of the cluster's own block; an
// ignored one stays out. Loaded again, the files leave no unmanaged drift
// and the plan has no changes.
func TestUpdateUnmanaged(t *testing.T) {
	l := readSim(t,
		"SET CONFIG tikv `gc.ratio-threshold` = 1.5",
		"SET CONFIG '127.0.0.1:20161' `split.qps-threshold` = 6000",
		"SET GLOBAL tidb_mem_quota_query = 2147483648",
		"SET GLOBAL tidb_gc_life_time = '30m'",
	)
	files := map[string]string{"main.hcl": `cluster "prod" {
  dsn = "root@tcp(127.0.0.1:4000)/"

  ignore "variable.tidb_gc_life_time" {
    reason = "INC-9"
    until  = "2099-12-31"
  }
}
`}
	cp, in := planUnmanaged(t, l, files)
	if n := len(cp.UnmanagedSettings.Settings); n != 3 {
		t.Fatalf("%d unmanaged settings before, want 3: %+v", n, cp.UnmanagedSettings.Settings)
	}
	res, err := Update(in)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Refused) > 0 {
		t.Fatalf("refused: %v", res.Refused)
	}
	got := string(res.Files["main.hcl"])
	for _, want := range []string{
		"ratio-threshold = 1.5 # default 1.1 (v8.5.1)",
		`tikv "127.0.0.1:20161" {`,
		"qps-threshold = 6000 # default 3000 (v8.5.1)",
		"tidb_mem_quota_query = 2147483648 # default 1073741824 (v8.5.1)",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("updated file lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "tidb_gc_life_time =") {
		t.Errorf("an ignored unmanaged setting was declared:\n%s", got)
	}
	after, _ := planUnmanaged(t, l, map[string]string{"main.hcl": got})
	if s := after.UnmanagedSettings.Settings; len(s) != 0 || len(after.Changes) != 0 {
		t.Errorf("after the update: %d unmanaged settings, %d changes: %+v", len(s), len(after.Changes), s)
	}
	if n := len(after.UnmanagedSettings.Ignored); n != 1 {
		t.Errorf("after the update: %d ignored, want 1 (tidb_gc_life_time)", n)
	}
}

// import --update --unmanaged merges what it declares into the blocks the
// cluster already has: a new section into its tikv block, a key into an
// existing section, a variable into its variables block; a per-instance
// block, which the cluster lacks, is added whole. Comments and the rest of
// the layout stay.
func TestUpdateUnmanagedMergesBlocks(t *testing.T) {
	l := readSim(t,
		"SET CONFIG tikv `gc.ratio-threshold` = 1.5",
		"SET CONFIG tikv `gc.batch-keys` = 256",
		"SET CONFIG tikv `raftstore.apply-pool-size` = 3",
		"SET CONFIG '127.0.0.1:20161' `split.qps-threshold` = 6000",
		"SET GLOBAL tidb_mem_quota_query = 2147483648",
		"SET GLOBAL tidb_max_chunk_size = 2048",
	)
	src := `cluster "prod" {
  dsn = "root@tcp(127.0.0.1:4000)/"

  tikv {
    # tuned in INC-3
    gc {
      ratio-threshold = 1.5
    }
  }

  variables {
    tidb_mem_quota_query = 2147483648
  }
}
`
	_, in := planUnmanaged(t, l, map[string]string{"main.hcl": src})
	res, err := Update(in)
	if err != nil {
		t.Fatal(err)
	}
	want := `cluster "prod" {
  dsn = "root@tcp(127.0.0.1:4000)/"

  tikv {
    # tuned in INC-3
    gc {
      ratio-threshold = 1.5
      batch-keys      = 256 # default 512 (v8.5.1)
    }

    raftstore {
      apply-pool-size = 3 # default 2 (v8.5.1)
    }
  }

  variables {
    tidb_mem_quota_query = 2147483648
    tidb_max_chunk_size  = 2048 # default 1024 (v8.5.1)
  }

  tikv "127.0.0.1:20161" {
    split {
      qps-threshold = 6000 # default 3000 (v8.5.1)
    }
  }
}
`
	if diff := cmp.Diff(want, string(res.Files["main.hcl"])); diff != "" {
		t.Errorf("(-want +got)\n%s\naccepted %q refused %q", diff, res.Accepted, res.Refused)
	}
	after, _ := planUnmanaged(t, l, map[string]string{"main.hcl": string(res.Files["main.hcl"])})
	if s := after.UnmanagedSettings.Settings; len(s) != 0 || len(after.Changes) != 0 {
		t.Errorf("after the update: %d unmanaged settings, %d changes: %+v", len(s), len(after.Changes), s)
	}
}

// planUnmanaged plans the one cluster of files over l with unmanaged drift,
// and the input import --update takes from that plan.
func planUnmanaged(t *testing.T, l *state.Live, files map[string]string) (*planner.ClusterPlan, UpdateInput) {
	t.Helper()
	src, d := loadFiles(t, files)
	cp, err := planner.BuildCluster(d.Clusters[0], l, planner.Options{Now: time.Now(), Unmanaged: true})
	if err != nil {
		t.Fatal(err)
	}
	return cp, UpdateInput{Sources: src, Fleet: true, Everyone: true,
		Clusters: []Drifted{{Desired: d.Clusters[0], Live: l, Changes: cp.Changes, Unmanaged: cp.UnmanagedSettings.Settings}}}
}

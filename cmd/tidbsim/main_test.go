package main

import (
	"bufio"
	"context"
	"database/sql"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	_ "github.com/go-sql-driver/mysql"
	"github.com/google/go-cmp/cmp"
)

var readyLine = regexp.MustCompile(`^tidbsim listening on (127\.0\.0\.1:\d+) \((.*)\)$`)

// startCmd runs the command in-process and returns the ready line's address
// and summary.
func startCmd(t *testing.T, args ...string) (addr, summary string) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	pr, pw := io.Pipe()
	done := make(chan int, 1)
	var stderr strings.Builder
	go func() {
		code := run(ctx, append([]string{"--addr", "127.0.0.1:0"}, args...), pw, &stderr)
		pw.Close()
		done <- code
	}()
	t.Cleanup(func() {
		cancel()
		if code := <-done; code != 0 {
			t.Errorf("exit code %d, stderr %s", code, stderr.String())
		}
	})
	line, err := bufio.NewReader(pr).ReadString('\n')
	if err != nil {
		t.Fatalf("no ready line (stderr %q): %v", stderr.String(), err)
	}
	go io.Copy(io.Discard, pr)
	m := readyLine.FindStringSubmatch(strings.TrimSpace(line))
	if m == nil {
		t.Fatalf("ready line %q", line)
	}
	return m[1], m[2]
}

func query(t *testing.T, addr, q string) [][]string {
	t.Helper()
	db, err := sql.Open("mysql", "root@tcp("+addr+")/")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rows, err := db.Query(q)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	defer rows.Close()
	var out [][]string
	for rows.Next() {
		var a, b, c, d string
		if err := rows.Scan(&a, &b, &c, &d); err != nil {
			t.Fatal(err)
		}
		out = append(out, []string{c, d})
	}
	return out
}

const barQuery = "SHOW CONFIG WHERE type='tikv' AND name IN ('coprocessor.region-split-size', 'coprocessor.region-max-size', 'coprocessor.region-split-keys', 'coprocessor.region-max-keys')"

// The bar: 12 rows with the v8.4.0+ defaults on v8.5.1, the old ones on v8.1.2.
func TestBar(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ version, split, max, skeys, mkeys string }{
		{"v8.5.1", "256MiB", "384MiB", "2560000", "3840000"},
		{"v8.1.2", "96MiB", "144MiB", "960000", "1440000"},
	} {
		t.Run(tc.version, func(t *testing.T) {
			t.Parallel()
			addr, summary := startCmd(t, "--version", tc.version, "--tikv", "3")
			if summary != tc.version+": 1 tidb, 3 tikv, 1 pd" {
				t.Errorf("summary %q", summary)
			}
			got := query(t, addr, barQuery)
			var want [][]string
			for i := 0; i < 3; i++ {
				want = append(want, []string{"coprocessor.region-max-keys", tc.mkeys}, []string{"coprocessor.region-max-size", tc.max},
					[]string{"coprocessor.region-split-keys", tc.skeys}, []string{"coprocessor.region-split-size", tc.split})
			}
			if d := cmp.Diff(want, got); d != "" {
				t.Errorf("(-want +got):\n%s", d)
			}
		})
	}
}

// --seed describes a cluster upgraded from v8.1.2: PD keeps 20/200000 (derived
// from tikv/pd@v8.5.1:server/config/persist_options.go PersistOptions.Reload).
func TestSeedUpgradedCluster(t *testing.T) {
	t.Parallel()
	seed := filepath.Join(t.TempDir(), "seed.json")
	os.WriteFile(seed, []byte(`{
  "version": "v8.5.1", "bootstrapped_from": "v8.1.2", "tikv": 2,
  "config": [{"type": "tikv", "name": "coprocessor.region-split-size", "value": "96MiB"}],
  "sql": ["SELECT 1"]
}`), 0o644)
	addr, summary := startCmd(t, "--seed", seed, "--tiflash", "1", "--down", "127.0.0.1:20161")
	if summary != "v8.5.1: 1 tidb, 2 tikv, 1 pd, 1 tiflash" {
		t.Errorf("summary %q", summary)
	}
	got := query(t, addr, "SHOW CONFIG WHERE name IN ('schedule.max-merge-region-size', 'schedule.max-merge-region-keys', 'coprocessor.region-split-size', 'coprocessor.region-max-size')")
	want := [][]string{
		{"schedule.max-merge-region-keys", "200000"}, {"schedule.max-merge-region-size", "20"},
		{"coprocessor.region-max-size", "144MiB"}, {"coprocessor.region-split-size", "96MiB"},
		// 127.0.0.1:20161 is down: no rows
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
}

func TestBadFlags(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{
		{"--nosuch"}, {"--fail", "nonsense"}, {"extra"}, {"--instance-version", "x"},
		{"--addr", "127.0.0.1:0", "--tikv", "-3"}, {"--addr", "127.0.0.1:0", "--tidb", "-1"},
	} {
		var out, errb strings.Builder
		if code := run(context.Background(), args, &out, &errb); code != 2 {
			t.Errorf("%v: exit %d", args, code)
		}
		if out.Len() != 0 {
			t.Errorf("%v printed %q", args, out.String())
		}
	}
	var out, errb strings.Builder
	if code := run(context.Background(), []string{"--addr", "127.0.0.1:0", "--seed", "/nonexistent.json"}, &out, &errb); code != 1 {
		t.Errorf("missing seed: exit %d", code)
	}
	if code := run(context.Background(), []string{"--addr", "127.0.0.1:0", "--version", "banana"}, &out, &errb); code != 1 || !strings.Contains(errb.String(), "banana") {
		t.Errorf("bad version: exit %d %q", code, errb.String())
	}
}

func TestVersionFlags(t *testing.T) {
	t.Parallel()
	addr, summary := startCmd(t, "--tikv", "2", "--tikv-version", "v8.5.3", "--instance-version", "tikv-0=v8.5.1", "--pd-version", "v8.5.2")
	if summary != "mixed versions: 1 tidb, 2 tikv, 1 pd" {
		t.Errorf("summary %q", summary)
	}
	got := query(t, addr, "SELECT type, instance, version, status_address FROM information_schema.cluster_info")
	want := [][]string{{"8.5.1", "127.0.0.1:10080"}, {"8.5.2", "127.0.0.1:2379"}, {"8.5.1", "127.0.0.1:20180"}, {"8.5.3", "127.0.0.1:20181"}}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
}

// --server-version: VERSION() and CLUSTER_INFO return it verbatim
// (https://docs.pingcap.com/tidb/stable/tidb-configuration-file#server-version).
func TestServerVersionFlag(t *testing.T) {
	t.Parallel()
	addr, _ := startCmd(t, "--version", "v8.5.1", "--tikv", "1", "--server-version", "8.0.11-TiDB-custom")
	db, err := sql.Open("mysql", "root@tcp("+addr+")/")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var v, info string
	if err := db.QueryRow("SELECT VERSION()").Scan(&v); err != nil {
		t.Fatal(err)
	}
	if err := db.QueryRow("SELECT version FROM information_schema.cluster_info WHERE type = 'tidb'").Scan(&info); err != nil {
		t.Fatal(err)
	}
	if v != "8.0.11-TiDB-custom" || info != "8.0.11-TiDB-custom" {
		t.Errorf("VERSION() = %q, CLUSTER_INFO.VERSION = %q", v, info)
	}
}

// --tidb/--tikv/--pd/--tiflash set the topology; each TiDB instance listens
// on its own port and CLUSTER_INFO lists every instance.
func TestCountFlags(t *testing.T) {
	t.Parallel()
	addr, summary := startCmd(t, "--version", "v8.5.3", "--tidb", "2", "--tikv", "1", "--pd", "3", "--tiflash", "1")
	if summary != "v8.5.3: 2 tidb, 1 tikv, 3 pd, 1 tiflash" {
		t.Errorf("summary %q", summary)
	}
	db, err := sql.Open("mysql", "root@tcp("+addr+")/")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rows, err := db.Query("SELECT type, status_address FROM information_schema.cluster_info")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var got [][]string
	for rows.Next() {
		var typ, status string
		if err := rows.Scan(&typ, &status); err != nil {
			t.Fatal(err)
		}
		got = append(got, []string{typ, status})
	}
	want := [][]string{
		{"tidb", "127.0.0.1:10080"}, {"tidb", "127.0.0.1:10081"},
		{"pd", "127.0.0.1:2379"}, {"pd", "127.0.0.1:2382"}, {"pd", "127.0.0.1:2385"},
		{"tikv", "127.0.0.1:20180"}, {"tiflash", "127.0.0.1:20292"},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("cluster_info (-want +got):\n%s", d)
	}
}

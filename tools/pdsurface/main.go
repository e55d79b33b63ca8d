// Command pdsurface generates internal/upstream/pd_surface.json: what a PD
// member's GET /pd/api/v1/config returns at each release tag, as TiDB's SHOW
// CONFIG prints it.
//
//	go run ./tools/pdsurface -pd DIR [-out FILE] [-tags v8.5.1,…] [-cache DIR]
//
// Reading PD's structs misses what only running them shows (json:"-" fields,
// defaults an Adjust method sets, the JSON of every field type), so for each
// tag the tool extracts tikv/pd at that tag into a temporary directory
// (`git archive`), adds one small main package that builds PD's real
// server/config.Config the way a TiUP-deployed member starts — the flags of
// pingcap/tiup embed/templates/scripts/run_pd.sh.tpl set as Config.Parse
// sets them, then Config.Adjust(nil, false), then the one change of
// server/api/config.go GetConfig (max-merge-region-keys filled from the
// merge size) — builds it with the Go toolchain (PD's dependencies come from
// the Go module proxy) and runs it. The member's own values (name, URLs,
// paths) are placeholders the emulator fills in per member.
//
// The JSON is then flattened exactly as pingcap/tidb
// pkg/executor/memtable_reader.go fetchClusterConfig does: decoded without
// UseNumber, nested objects flattened with ".", arrays not flattened, an
// empty object giving no row, strings as they are and every other value
// through json.Marshal.
//
// Nothing of PD is written into this repository: only the flattened rows.
// The per-tag JSON is cached under -cache by commit, so a re-run builds only
// new tags. The tags default to the PD versions internal/upstream/settings.json
// lists (the versions the catalog and the emulator know).
package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/tiform/tiform/internal/upstream"
)

func main() {
	pd := flag.String("pd", os.Getenv("TIFORM_UPSTREAM_PD"), "tikv/pd git directory (env TIFORM_UPSTREAM_PD)")
	out := flag.String("out", "internal/upstream/pd_surface.json", "file to write")
	tags := flag.String("tags", "", "comma-separated refs to read (default: the PD versions of internal/upstream/settings.json)")
	cache := flag.String("cache", defaultCache(), "directory of the per-commit JSON already produced")
	check := flag.Bool("check", false, "write nothing; fail when -out differs from what the cache generates")
	flag.Parse()
	if *pd == "" {
		fmt.Fprintln(os.Stderr, "pdsurface: -pd is required (a tikv/pd git directory, see docs/catalog.md)")
		os.Exit(2)
	}
	refs := upstream.MustLoad().Versions[upstream.PD]
	if *tags != "" {
		refs = strings.Split(*tags, ",")
	}
	s, failed, err := generate(*pd, refs, *cache)
	if err != nil {
		fmt.Fprintln(os.Stderr, "pdsurface:", err)
		os.Exit(1)
	}
	for _, f := range failed {
		fmt.Fprintln(os.Stderr, "pdsurface: not generated:", f)
	}
	data, err := upstream.EncodeSurface(s)
	if err != nil {
		fmt.Fprintln(os.Stderr, "pdsurface:", err)
		os.Exit(1)
	}
	if *check {
		old, err := os.ReadFile(*out)
		if err != nil || !bytes.Equal(old, data) {
			fmt.Fprintf(os.Stderr, "pdsurface: %s is not what the cached runs generate; run go run ./tools/pdsurface and review the diff\n", *out)
			os.Exit(1)
		}
		return
	}
	if err := os.WriteFile(*out, data, 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "pdsurface:", err)
		os.Exit(1)
	}
	fmt.Fprintf(os.Stderr, "pdsurface: wrote %s (%d versions, %d keys)\n", *out, len(s.Refs), len(s.Keys))
}

func defaultCache() string {
	d, err := os.UserCacheDir()
	if err != nil {
		return filepath.Join(os.TempDir(), "tiform-pdsurface")
	}
	return filepath.Join(d, "tiform", "pdsurface")
}

// generate runs PD's config code at every ref (or reads the cached run of
// its commit) and builds the surface. A ref that does not build is listed in
// failed, with the reason, and left out.
func generate(gitDir string, refs []string, cache string) (*upstream.Surface, []string, error) {
	s := &upstream.Surface{Format: upstream.SurfaceFormat, Component: upstream.PD, Generator: "tools/pdsurface",
		Deployment: deploymentDoc}
	var failed []string
	var runs []upstream.SurfaceRun
	for _, ref := range refs {
		commit, err := git(gitDir, "rev-parse", "--verify", ref+"^{commit}")
		if err != nil {
			return nil, nil, fmt.Errorf("tikv/pd: no ref %s", ref)
		}
		commit = strings.TrimSpace(commit)
		raw, err := runAt(gitDir, ref, commit, cache)
		if err != nil {
			failed = append(failed, fmt.Sprintf("%s (%s): %v", ref, commit[:10], err))
			fmt.Fprintf(os.Stderr, "pdsurface: %s: %v\n", ref, err)
			continue
		}
		fmt.Fprintf(os.Stderr, "pdsurface: %s: ran\n", ref)
		rows, err := upstream.FlattenConfig(raw)
		if err != nil {
			failed = append(failed, fmt.Sprintf("%s: %v", ref, err))
			continue
		}
		s.Refs = append(s.Refs, upstream.Ref{Name: ref, Commit: commit})
		runs = append(runs, upstream.SurfaceRun{Version: ref, Rows: rows})
	}
	if len(runs) == 0 {
		return nil, failed, errors.New("no ref could be run")
	}
	s.Keys = upstream.SurfaceSpans(runs)
	return s, failed, nil
}

// deploymentDoc says how the placeholders in the values are filled.
const deploymentDoc = "PD started as pingcap/tiup embed/templates/scripts/run_pd.sh.tpl starts it: " +
	"--name, --client-urls, --advertise-client-urls, --peer-urls, --advertise-peer-urls, --data-dir, " +
	"--initial-cluster, --log-file; {{name}} and the other placeholders are the member's own values"

// program is the main package added to the PD checkout: it sets the fields
// Config.Parse sets from run_pd.sh.tpl's flags (server/config/config.go
// Parse: AdjustCommandLineString), adjusts, and prints what GetConfig
// returns. {{registrations}} are the blank imports of pd-server's main that
// register schedulers (Adjust checks the default schedulers exist before
// v7.1: cmd/pd-server/main.go imports server/schedulers).
const program = `package main

import (
	"encoding/json"
	"os"

	"github.com/tikv/pd/server/config"
{{registrations}})

func main() {
	cfg := config.NewConfig()
	cfg.Name = "{{name}}"
	cfg.DataDir = "/{{data-dir}}"
	cfg.ClientUrls = "{{client-urls}}"
	cfg.AdvertiseClientUrls = "{{advertise-client-urls}}"
	cfg.PeerUrls = "{{peer-urls}}"
	cfg.AdvertisePeerUrls = "{{advertise-peer-urls}}"
	cfg.InitialCluster = "{{initial-cluster}}"
	cfg.Log.File.Filename = "/{{log-file}}"
	if err := cfg.Adjust(nil, false); err != nil {
		panic(err)
	}
	cfg.Schedule.MaxMergeRegionKeys = cfg.Schedule.GetMaxMergeRegionKeys()
	if err := json.NewEncoder(os.Stdout).Encode(cfg); err != nil {
		panic(err)
	}
}
`

// runAt returns the JSON PD's config code prints at commit, from the cache
// or by building and running it.
func runAt(gitDir, ref, commit, cache string) ([]byte, error) {
	cached := filepath.Join(cache, commit+".json")
	if b, err := os.ReadFile(cached); err == nil {
		return b, nil
	}
	dir, err := os.MkdirTemp("", "pdsurface-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	if err := extract(gitDir, commit, dir); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(filepath.Join(dir, "tiformsurface"), 0o755); err != nil {
		return nil, err
	}
	src := strings.Replace(program, "{{registrations}}", registrations(dir), 1)
	if err := os.WriteFile(filepath.Join(dir, "tiformsurface", "main.go"), []byte(src), 0o644); err != nil {
		return nil, err
	}
	bin := filepath.Join(dir, "surface.bin")
	build := exec.Command("go", "build", "-mod=mod", "-o", bin, "./tiformsurface")
	build.Dir = dir
	build.Env = append(os.Environ(), "GOFLAGS=-mod=mod -buildvcs=false", "GOTOOLCHAIN=local")
	if b, err := build.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("go build: %v: %s", err, lastLines(string(b), 6))
	}
	run := exec.Command(bin)
	run.Dir = dir
	var stderr bytes.Buffer
	run.Stderr = &stderr
	b, err := run.Output()
	if err != nil {
		return nil, fmt.Errorf("run: %v: %s", err, lastLines(stderr.String(), 6))
	}
	if err := os.MkdirAll(cache, 0o755); err == nil {
		_ = os.WriteFile(cached, b, 0o644)
	}
	return b, nil
}

// blankImport matches a blank import line of a Go file.
var blankImport = regexp.MustCompile(`(?m)^\s*_ "([^"]+)"`)

// registrations returns the blank imports of the checkout's
// cmd/pd-server/main.go that register schedulers, as import lines.
func registrations(dir string) string {
	b, err := os.ReadFile(filepath.Join(dir, "cmd", "pd-server", "main.go"))
	if err != nil {
		return ""
	}
	var out strings.Builder
	for _, m := range blankImport.FindAllStringSubmatch(string(b), -1) {
		if strings.Contains(m[1], "schedulers") {
			out.WriteString("\t_ \"" + m[1] + "\"\n")
		}
	}
	return out.String()
}

// extract writes the tree of commit into dir (git archive | tar -x).
func extract(gitDir, commit, dir string) error {
	archive := exec.Command("git", "--git-dir="+gitDir, "archive", "--format=tar", commit)
	untar := exec.Command("tar", "-x", "-C", dir)
	pipe, err := archive.StdoutPipe()
	if err != nil {
		return err
	}
	untar.Stdin = pipe
	if err := untar.Start(); err != nil {
		return err
	}
	if err := archive.Run(); err != nil {
		return fmt.Errorf("git archive %s: %w", commit, err)
	}
	return untar.Wait()
}

func git(gitDir string, args ...string) (string, error) {
	b, err := exec.Command("git", append([]string{"--git-dir=" + gitDir}, args...)...).Output()
	return string(b), err
}

func lastLines(s string, n int) string {
	l := strings.Split(strings.TrimSpace(s), "\n")
	if len(l) > n {
		l = l[len(l)-n:]
	}
	return strings.Join(l, " | ")
}

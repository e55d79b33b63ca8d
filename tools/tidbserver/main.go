// Command tidbserver builds the upstream tidb-server that the real-TiDB test
// tier runs (docs/testing.md), once, into a cache outside the checkout, and
// prints the binary's path.
//
//	go -C tools/tidbserver run . [-cache DIR] [-offline]
//
// The versions are this module's requirements (go.mod), their content is
// pinned by go.sum: github.com/pingcap/tidb and its nested parser module at the
// same upstream commit. The tidb module's zip leaves out pkg/parser (a module
// of its own), so the builder copies the tidb module into a writable
// directory, puts the parser module's files at pkg/parser, and builds
// ./cmd/tidb-server there, where the module's own go.mod, go.sum and replace
// directives apply.
//
// The binary is labelled with the upstream version that commit is (see
// Release): the release version, the commit's date and its hash, in the form
// of upstream's own build tags (v8.5.4-20251130-c38c58d).
//
// The cache is $TIFORM_TIDB_CACHE, else the user cache directory's
// tiform/tidb-server; one directory per label, GOOS and GOARCH. Concurrent
// runs (test packages started together) take a file lock: one builds, the
// others wait and reuse its result.
package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"time"
)

// Release is the upstream version of the pinned commit. The commit
// (e4e814fdc0af, 2025-11-26) is on pingcap/tidb's master branch after the tag
// v9.0.0-beta.2.pre and before any v9.0.0-beta.2 release: upstream's own
// master builds of those weeks report v9.0.0-beta.2.pre-N-g<hash> (N commits
// after the tag; docs/testing.md says how this is known).
const Release = "v9.0.0-beta.2.pre"

const (
	tidbModule   = "github.com/pingcap/tidb"
	parserModule = "github.com/pingcap/tidb/pkg/parser"
	// the link-time version variables (upstream's Makefile.common LDFLAGS)
	releasePkg = "github.com/pingcap/tidb/pkg/parser/mysql"
	versionPkg = "github.com/pingcap/tidb/pkg/util/versioninfo"
	// recipe changes when the way the binary is built changes, so that a
	// cache written by an older recipe is not reused.
	recipe = 1
)

// module is what `go mod download -json` says of a module.
type module struct {
	Path, Version, Dir, Info, Sum, Error string
}

// commit is the upstream commit a pseudo-version names: its 12-hex prefix
// and its UTC time (yyyymmddhhmmss), from the version string itself.
func (m module) commit() (hash, ts string, ok bool) {
	parts := strings.Split(m.Version, "-")
	if len(parts) < 2 {
		return "", "", false
	}
	hash, ts = parts[len(parts)-1], parts[len(parts)-2]
	ts = ts[strings.LastIndexByte(ts, '.')+1:]
	return hash, ts, len(hash) == 12 && len(ts) == 14
}

// fullHash is the whole commit hash from the proxy's .info file when it
// names one (Origin.Hash), else the pseudo-version's prefix.
func (m module) fullHash() string {
	short, _, _ := m.commit()
	var info struct{ Origin struct{ Hash string } }
	if b, err := os.ReadFile(m.Info); err == nil && json.Unmarshal(b, &info) == nil &&
		strings.HasPrefix(info.Origin.Hash, short) {
		return info.Origin.Hash
	}
	return short
}

// stamp is written next to a built binary.
type stamp struct {
	Label, Commit, TiDB, Parser, Go, Built string
	Recipe                                 int
	Seconds                                float64
}

func main() {
	cache := flag.String("cache", "", "cache directory (default $TIFORM_TIDB_CACHE, else the user cache directory's tiform/tidb-server)")
	offline := flag.Bool("offline", false, "do not build: exit 3 when the binary is not cached")
	flag.Parse()
	path, err := run(*cache, *offline)
	if errors.Is(err, errNotCached) {
		fmt.Fprintln(os.Stderr, "tidbserver:", err)
		os.Exit(3)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "tidbserver:", err)
		os.Exit(1)
	}
	fmt.Println(path)
}

var errNotCached = errors.New("tidb-server is not built yet (run without -offline to build it)")

func run(cache string, offline bool) (string, error) {
	tidb, parser, err := download()
	if err != nil {
		return "", err
	}
	label, err := labelOf(tidb)
	if err != nil {
		return "", err
	}
	if cache == "" {
		cache = os.Getenv("TIFORM_TIDB_CACHE")
	}
	if cache == "" {
		dir, err := os.UserCacheDir()
		if err != nil {
			return "", fmt.Errorf("no cache directory (set TIFORM_TIDB_CACHE): %w", err)
		}
		cache = filepath.Join(dir, "tiform", "tidb-server")
	}
	key := fmt.Sprintf("%s-%s-%s-r%d", label, runtime.GOOS, runtime.GOARCH, recipe)
	dir := filepath.Join(cache, key)
	bin := filepath.Join(dir, "tidb-server")
	if built(bin, label) {
		return bin, nil
	}
	if offline {
		return "", errNotCached
	}
	if err := os.MkdirAll(cache, 0o755); err != nil {
		return "", err
	}
	unlock, err := lock(filepath.Join(cache, key+".lock"))
	if err != nil {
		return "", err
	}
	defer unlock()
	if built(bin, label) { // another run built it while this one waited
		return bin, nil
	}
	return bin, build(tidb, parser, label, filepath.Join(cache, key+".src"), dir)
}

// download fetches both modules through the module proxy; go verifies them
// against this module's go.sum.
func download() (tidb, parser module, err error) {
	cmd := exec.Command("go", "mod", "download", "-json", tidbModule, parserModule)
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=readonly")
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		return module{}, module{}, fmt.Errorf("go mod download: %v\n%s%s", err, errb.String(), out.String())
	}
	dec := json.NewDecoder(&out)
	for {
		var m module
		if err := dec.Decode(&m); err == io.EOF {
			break
		} else if err != nil {
			return module{}, module{}, fmt.Errorf("go mod download: %w", err)
		}
		if m.Error != "" {
			return module{}, module{}, fmt.Errorf("go mod download %s: %s", m.Path, m.Error)
		}
		switch m.Path {
		case tidbModule:
			tidb = m
		case parserModule:
			parser = m
		}
	}
	if tidb.Dir == "" || parser.Dir == "" {
		return module{}, module{}, fmt.Errorf("go mod download did not return both %s and %s", tidbModule, parserModule)
	}
	th, _, ok1 := tidb.commit()
	ph, _, ok2 := parser.commit()
	if !ok1 || !ok2 || th != ph {
		return module{}, module{}, fmt.Errorf("%s@%s and %s@%s are not pseudo-versions of the same upstream commit",
			tidbModule, tidb.Version, parserModule, parser.Version)
	}
	return tidb, parser, nil
}

// labelOf is the version the binary reports: Release, the commit's date and
// its hash (the form of upstream's hot-fix build tags).
func labelOf(tidb module) (string, error) {
	hash, ts, ok := tidb.commit()
	if !ok {
		return "", fmt.Errorf("%s@%s is not a pseudo-version of one commit", tidbModule, tidb.Version)
	}
	return fmt.Sprintf("%s-%s-%s", Release, ts[:8], hash), nil
}

// built reports whether bin exists and reports label.
func built(bin, label string) bool {
	out, err := exec.Command(bin, "-V").Output()
	return err == nil && bytes.Contains(out, []byte("Release Version: "+label+"\n"))
}

// build copies the tidb module to src, puts the parser module at pkg/parser,
// builds cmd/tidb-server there and moves the binary into dir.
func build(tidb, parser module, label, src, dir string) error {
	start := time.Now()
	fmt.Fprintf(os.Stderr, "tidbserver: building tidb-server %s (%s@%s) once into %s; about 8 minutes on 2 cores when nothing is cached\n",
		label, tidbModule, tidb.Version, dir)
	if err := os.RemoveAll(src); err != nil {
		return err
	}
	defer os.RemoveAll(src)
	if err := copyTree(tidb.Dir, src); err != nil {
		return fmt.Errorf("copy %s: %w", tidbModule, err)
	}
	if err := os.RemoveAll(filepath.Join(src, "pkg", "parser")); err != nil {
		return err
	}
	if err := copyTree(parser.Dir, filepath.Join(src, "pkg", "parser")); err != nil {
		return fmt.Errorf("copy %s: %w", parserModule, err)
	}
	commitTime := ""
	if _, ts, ok := tidb.commit(); ok {
		if t, err := time.Parse("20060102150405", ts); err == nil {
			commitTime = t.Format("2006-01-02 15:04:05")
		}
	}
	ldflags := strings.Join([]string{
		"-X", releasePkg + ".TiDBReleaseVersion=" + label,
		"-X", versionPkg + ".TiDBGitHash=" + tidb.fullHash(),
		"-X", versionPkg + ".TiDBGitBranch=master",
		"-X", "'" + versionPkg + ".TiDBBuildTS=" + commitTime + "'",
	}, " ")
	out := filepath.Join(src, "bin", "tidb-server")
	// -trimpath: the build does not depend on where src is, so Go's build
	// cache serves a rebuild.
	cmd := exec.Command("go", "build", "-trimpath", "-ldflags", ldflags, "-o", out, "./cmd/tidb-server")
	cmd.Dir = src
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=readonly")
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("go build ./cmd/tidb-server: %w", err)
	}
	if !built(out, label) {
		return fmt.Errorf("the built tidb-server does not report %s (tidb-server -V)", label)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	goVersion, _ := exec.Command("go", "env", "GOVERSION").Output()
	st, _ := json.MarshalIndent(stamp{Label: label, Commit: tidb.fullHash(), TiDB: tidb.Version, Parser: parser.Version,
		Go: strings.TrimSpace(string(goVersion)), Built: time.Now().UTC().Format(time.RFC3339),
		Recipe: recipe, Seconds: time.Since(start).Seconds()}, "", "  ")
	if err := os.WriteFile(filepath.Join(dir, "build.json"), append(st, '\n'), 0o644); err != nil {
		return err
	}
	if err := os.Rename(out, filepath.Join(dir, "tidb-server")); err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "tidbserver: built in %s\n", time.Since(start).Round(time.Second))
	return nil
}

// copyTree copies the regular files and directories under from to to,
// writable by the owner (the module cache is read-only).
func copyTree(from, to string) error {
	return filepath.WalkDir(from, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(from, p)
		if err != nil {
			return err
		}
		dst := filepath.Join(to, rel)
		if d.IsDir() {
			return os.MkdirAll(dst, 0o755)
		}
		if !d.Type().IsRegular() {
			return nil
		}
		in, err := os.Open(p)
		if err != nil {
			return err
		}
		defer in.Close()
		info, err := in.Stat()
		if err != nil {
			return err
		}
		outf, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, info.Mode().Perm()|0o200)
		if err != nil {
			return err
		}
		if _, err := io.Copy(outf, in); err != nil {
			outf.Close()
			return err
		}
		return outf.Close()
	})
}

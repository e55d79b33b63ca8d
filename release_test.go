package main

import (
	"archive/tar"
	"bufio"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// releaseTargets are the platforms .goreleaser.yaml builds archives for.
var releaseTargets = []string{"linux_amd64", "linux_arm64", "darwin_amd64", "darwin_arm64"}

// goreleaser returns the GoReleaser of the module tools/release (a Go tool of
// that module, kept apart so that its dependencies never change the versions
// tiform links), built by `go tool -n` into the build cache (seconds once
// cached). It skips, saying why, only where the tool cannot be had: no go
// command, or the module proxy does not answer for its modules.
func goreleaser(t *testing.T, ctx context.Context) string {
	t.Helper()
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command: GoReleaser cannot be built, so the release was not checked")
	}
	dl := exec.CommandContext(ctx, goCmd, "mod", "download")
	dl.Dir = filepath.Join("tools", "release")
	dl.Env = append(os.Environ(), "GOFLAGS=")
	if out, err := dl.CombinedOutput(); err != nil {
		t.Skipf("GoReleaser's modules cannot be downloaded (%v), so the release was not checked:\n%s", err, out)
	}
	cmd := exec.CommandContext(ctx, goCmd, "tool", "-n", "goreleaser")
	cmd.Dir = filepath.Join("tools", "release")
	cmd.Env = append(os.Environ(), "GOFLAGS=")
	out, err := cmd.Output()
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			t.Fatalf("go tool goreleaser: %v\n%s", err, ee.Stderr)
		}
		t.Fatal(err)
	}
	return strings.TrimSpace(string(out))
}

// runGoReleaser runs goreleaser args in the repository, failing on error.
func runGoReleaser(t *testing.T, ctx context.Context, bin string, args ...string) string {
	t.Helper()
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Env = append(os.Environ(), "GOFLAGS=-buildvcs=false")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("goreleaser %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// dockerBuildx reports whether a Docker engine with buildx answers (the
// image part of a release needs both), and why not.
func dockerBuildx(ctx context.Context) (bool, string) {
	docker, err := exec.LookPath("docker")
	if err != nil {
		return false, "docker is not installed"
	}
	if out, err := exec.CommandContext(ctx, docker, "info").CombinedOutput(); err != nil {
		return false, "`docker info` failed: " + lastLine(string(out))
	}
	if out, err := exec.CommandContext(ctx, docker, "buildx", "version").CombinedOutput(); err != nil {
		return false, "`docker buildx version` failed: " + lastLine(string(out))
	}
	return true, ""
}

// TestRelease checks the release configuration with GoReleaser itself:
// `goreleaser check`, then a snapshot release (no publishing) into a
// temporary directory, which must give an archive for linux and darwin on
// amd64 and arm64, each with a tiform binary that (for this machine's
// platform) runs and names the snapshot version, and a checksums file whose
// sums are the archives'. The multi-arch image needs a Docker engine with
// buildx: without one, the image part is skipped and the test says so. The
// build compiles tiform four times (-trimpath, from the shared build cache).
func TestRelease(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: a snapshot release compiles tiform for four platforms")
	}
	if _, err := os.Stat(".git"); err != nil {
		t.Skip("not a git checkout: GoReleaser versions a release from git, so the release was not checked")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Minute)
	defer cancel()
	start := time.Now()
	bin := goreleaser(t, ctx)
	t.Logf("GoReleaser ready in %s: %s", time.Since(start).Round(time.Second), bin)

	start = time.Now()
	runGoReleaser(t, ctx, bin, "check", "--config", ".goreleaser.yaml")
	t.Logf("goreleaser check: %s", time.Since(start).Round(time.Millisecond))

	dist := t.TempDir()
	cfg, err := os.ReadFile(".goreleaser.yaml")
	if err != nil {
		t.Fatal(err)
	}
	tmpCfg := filepath.Join(t.TempDir(), "goreleaser.yaml")
	if err := os.WriteFile(tmpCfg, append(cfg, []byte("\ndist: "+dist+"\n")...), 0o600); err != nil {
		t.Fatal(err)
	}
	args := []string{"release", "--snapshot", "--clean", "--config", tmpCfg}
	if ok, why := dockerBuildx(ctx); !ok {
		t.Logf("no Docker engine with buildx (%s): the image part of the release was skipped", why)
		args = append(args, "--skip=docker")
	}
	start = time.Now()
	runGoReleaser(t, ctx, bin, args...)
	t.Logf("goreleaser %s: %s", strings.Join(args[:2], " "), time.Since(start).Round(time.Second))

	sums := readChecksums(t, dist)
	for _, target := range releaseTargets {
		matches, _ := filepath.Glob(filepath.Join(dist, "tiform_*_"+target+".tar.gz"))
		if len(matches) != 1 {
			t.Errorf("%s: %d archives, want one: %v", target, len(matches), matches)
			continue
		}
		archive := matches[0]
		if got, want := fileSHA256(t, archive), sums[filepath.Base(archive)]; got != want {
			t.Errorf("%s: sha256 %s, the checksums file says %q", filepath.Base(archive), got, want)
		}
		exe := extractTiform(t, archive)
		if target == runtime.GOOS+"_"+runtime.GOARCH {
			out, err := exec.CommandContext(ctx, exe, "version").CombinedOutput()
			if err != nil || !strings.HasPrefix(string(out), "tiform ") || !strings.Contains(string(out), "snapshot") {
				t.Errorf("%s: tiform version: %v: %q (want the snapshot version)", filepath.Base(archive), err, out)
			}
		}
	}
}

// readChecksums reads the release's checksums file: archive name → sha256.
func readChecksums(t *testing.T, dist string) map[string]string {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(dist, "tiform_*_checksums.txt"))
	if len(files) != 1 {
		t.Fatalf("%d checksums files in %s, want one", len(files), dist)
	}
	fh, err := os.Open(files[0])
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	out := map[string]string{}
	sc := bufio.NewScanner(fh)
	for sc.Scan() {
		sum, name, ok := strings.Cut(sc.Text(), "  ")
		if !ok {
			t.Fatalf("%s: a line that is not 'sha256  name': %q", files[0], sc.Text())
		}
		out[name] = sum
	}
	return out
}

func fileSHA256(t *testing.T, path string) string {
	t.Helper()
	fh, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	h := sha256.New()
	if _, err := io.Copy(h, fh); err != nil {
		t.Fatal(err)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// extractTiform writes the archive's tiform binary to a temporary file and
// returns its path, failing when the archive has none.
func extractTiform(t *testing.T, archive string) string {
	t.Helper()
	fh, err := os.Open(archive)
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	gz, err := gzip.NewReader(fh)
	if err != nil {
		t.Fatalf("%s: %v", archive, err)
	}
	tr := tar.NewReader(gz)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			t.Fatalf("%s holds no tiform binary", filepath.Base(archive))
		}
		if err != nil {
			t.Fatalf("%s: %v", archive, err)
		}
		if h.Name != "tiform" {
			continue
		}
		if h.Mode&0o111 == 0 {
			t.Errorf("%s: tiform is not executable (mode %o)", filepath.Base(archive), h.Mode)
		}
		out := filepath.Join(t.TempDir(), "tiform")
		w, err := os.OpenFile(out, os.O_CREATE|os.O_WRONLY, 0o755)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := io.Copy(w, io.LimitReader(tr, 200<<20)); err != nil {
			t.Fatal(err)
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		return out
	}
}

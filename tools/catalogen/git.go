package main

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
)

// repo reads one upstream git repository: a bare git directory (such as
// `git clone --bare https://github.com/tikv/tikv`) or a checkout with its
// .git. It only reads objects (tags, trees, blobs): it never checks out or
// changes anything, so every release tag is read without a work tree.
type repo struct {
	name   string // "tikv/tikv": how sources are cited
	gitDir string

	mu    sync.Mutex
	batch *exec.Cmd
	in    io.WriteCloser
	out   *bufio.Reader
	blobs map[string][]byte // blob id → content (blobs never change)
}

// openRepo resolves dir to a git directory and checks it answers.
func openRepo(name, dir string) (*repo, error) {
	gitDir := dir
	if st, err := os.Stat(filepath.Join(dir, ".git")); err == nil && st.IsDir() {
		gitDir = filepath.Join(dir, ".git")
	}
	r := &repo{name: name, gitDir: gitDir, blobs: map[string][]byte{}}
	if _, err := r.git("rev-parse", "--git-dir"); err != nil {
		return nil, fmt.Errorf("%s: %s is not a git repository: %w", name, dir, err)
	}
	return r, nil
}

func (r *repo) git(args ...string) (string, error) {
	cmd := exec.Command("git", append([]string{"--git-dir=" + r.gitDir}, args...)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("git %s: %v: %s", strings.Join(args, " "), err, strings.TrimSpace(stderr.String()))
	}
	return string(out), nil
}

// commit returns the commit id a ref (tag or branch) points to.
func (r *repo) commit(ref string) (string, error) {
	out, err := r.git("rev-parse", "--verify", "--quiet", ref+"^{commit}")
	if err != nil {
		return "", fmt.Errorf("%s: no ref %s", r.name, ref)
	}
	return strings.TrimSpace(out), nil
}

// releaseTags lists the final release tags vX.Y.Z (no -alpha, -rc, dated
// hot-fix or -fips suffix) from from up to the line last, in version order.
func (r *repo) releaseTags(from [3]int, last [2]int) ([]string, error) {
	out, err := r.git("tag", "--list", "v*")
	if err != nil {
		return nil, err
	}
	var tags []string
	for _, t := range strings.Fields(out) {
		v, ok := parseTag(t)
		if ok && !less3(v, from) && !less3([3]int{last[0], last[1], 1 << 30}, v) {
			tags = append(tags, t)
		}
	}
	sort.Slice(tags, func(i, j int) bool {
		a, _ := parseTag(tags[i])
		b, _ := parseTag(tags[j])
		return less3(a, b)
	})
	return tags, nil
}

// parseTag parses a final release tag "v8.5.7"; anything with a suffix is not one.
func parseTag(t string) ([3]int, bool) {
	var v [3]int
	parts := strings.Split(strings.TrimPrefix(t, "v"), ".")
	if !strings.HasPrefix(t, "v") || len(parts) != 3 {
		return v, false
	}
	for i, p := range parts {
		n, err := strconv.Atoi(p)
		if err != nil || n < 0 || strconv.Itoa(n) != p {
			return v, false
		}
		v[i] = n
	}
	return v, true
}

func less3(a, b [3]int) bool {
	for i := range a {
		if a[i] != b[i] {
			return a[i] < b[i]
		}
	}
	return false
}

// treeEntry is one file of a tree.
type treeEntry struct{ path, blob string }

// files lists the blobs under dir (recursively) at ref whose path ends with
// one of exts.
func (r *repo) files(ref, dir string, exts ...string) ([]treeEntry, error) {
	args := []string{"ls-tree", "-r", ref}
	if dir != "" {
		args = append(args, "--", dir)
	}
	out, err := r.git(args...)
	if err != nil {
		return nil, err
	}
	var es []treeEntry
	for _, line := range strings.Split(out, "\n") {
		meta, path, ok := strings.Cut(line, "\t")
		if !ok {
			continue
		}
		f := strings.Fields(meta)
		if len(f) != 3 || f[1] != "blob" {
			continue
		}
		for _, e := range exts {
			if strings.HasSuffix(path, e) {
				es = append(es, treeEntry{path: path, blob: f[2]})
				break
			}
		}
	}
	return es, nil
}

// grepFiles lists the files under the pathspecs at ref that contain one of
// the patterns (fixed strings).
func (r *repo) grepFiles(ref string, patterns []string, pathspecs ...string) ([]string, error) {
	args := []string{"grep", "-l", "-F"}
	for _, p := range patterns {
		args = append(args, "-e", p)
	}
	args = append(args, ref, "--")
	args = append(args, pathspecs...)
	cmd := exec.Command("git", append([]string{"--git-dir=" + r.gitDir}, args...)...)
	out, err := cmd.Output()
	// git grep exits 1 when nothing matches; unreadable blobs of unrelated
	// files (data files a snapshot leaves out) are reported on stderr only.
	if err != nil && len(out) == 0 {
		if ee, ok := err.(*exec.ExitError); ok && ee.ExitCode() == 1 {
			return nil, nil
		}
		return nil, fmt.Errorf("%s: git grep at %s: %v", r.name, ref, err)
	}
	var paths []string
	for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if p, ok := strings.CutPrefix(l, ref+":"); ok {
			paths = append(paths, p)
		}
	}
	sort.Strings(paths)
	return paths, nil
}

// show returns the content of path at ref, or an error naming both when the
// snapshot does not have it.
func (r *repo) show(ref, path string) ([]byte, error) {
	return r.object(ref + ":" + path)
}

// blob returns the content of a blob id (cached).
func (r *repo) blob(id string) ([]byte, error) {
	r.mu.Lock()
	b, ok := r.blobs[id]
	r.mu.Unlock()
	if ok {
		return b, nil
	}
	b, err := r.object(id)
	if err != nil {
		return nil, err
	}
	r.mu.Lock()
	r.blobs[id] = b
	r.mu.Unlock()
	return b, nil
}

// object reads one object through a long-running `git cat-file --batch`.
func (r *repo) object(name string) ([]byte, error) {
	if strings.ContainsAny(name, "\n") {
		return nil, fmt.Errorf("%s: bad object name %q", r.name, name)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.batch == nil {
		cmd := exec.Command("git", "--git-dir="+r.gitDir, "cat-file", "--batch")
		in, err := cmd.StdinPipe()
		if err != nil {
			return nil, err
		}
		out, err := cmd.StdoutPipe()
		if err != nil {
			return nil, err
		}
		if err := cmd.Start(); err != nil {
			return nil, err
		}
		r.batch, r.in, r.out = cmd, in, bufio.NewReaderSize(out, 1<<20)
	}
	if _, err := io.WriteString(r.in, name+"\n"); err != nil {
		return nil, err
	}
	header, err := r.out.ReadString('\n')
	if err != nil {
		return nil, err
	}
	f := strings.Fields(header)
	if len(f) == 2 && f[1] == "missing" {
		return nil, fmt.Errorf("%s: %s is not in the snapshot", r.name, name)
	}
	if len(f) != 3 {
		return nil, fmt.Errorf("%s: cat-file %s: unexpected header %q", r.name, name, header)
	}
	size, err := strconv.Atoi(f[2])
	if err != nil {
		return nil, err
	}
	buf := make([]byte, size+1) // content and the trailing newline
	if _, err := io.ReadFull(r.out, buf); err != nil {
		return nil, err
	}
	return buf[:size], nil
}

// close stops the cat-file process.
func (r *repo) close() {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.batch != nil {
		r.in.Close()
		_ = r.batch.Wait()
		r.batch = nil
	}
}

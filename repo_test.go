package main

import (
	"bytes"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// privateCitation matches a citation of the team's private notebook, which
// users and contributors do not have: its file name, or a section sign
// followed by a number ("section 3.1" written with the sign). The pattern is
// built from parts so that this file does not match itself.
var privateCitation = regexp.MustCompile(`tidb` + `-facts|` + "\u00a7" + `\s?[0-9]`)

// TestNoPrivateCitations: the repository stands alone. Code, comments,
// messages, docs, tests and golden files cite public sources (documentation
// URLs, GitHub issues and PRs, upstream source paths at a release tag), never
// the team's notebook. Every tracked text file is checked (the tree when git
// is not available); a failure lists file:line.
func TestNoPrivateCitations(t *testing.T) {
	files := repoFiles(t)
	if len(files) < 100 {
		t.Fatalf("only %d files found: the file list is wrong", len(files))
	}
	checked := 0
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			if os.IsNotExist(err) {
				continue // tracked but deleted in the work tree
			}
			t.Fatal(err)
		}
		if bytes.IndexByte(b, 0) >= 0 {
			continue // binary
		}
		checked++
		for i, line := range strings.Split(string(b), "\n") {
			if privateCitation.MatchString(line) {
				t.Errorf("%s:%d cites the team's private notebook; cite the public source instead: %s",
					f, i+1, strings.TrimSpace(line))
			}
		}
	}
	if checked == 0 {
		t.Fatal("no text file checked")
	}
}

// repoFiles lists the repository's files relative to its root: the tracked
// ones plus new, not ignored ones when git is available, else every file
// under the root outside .git.
func repoFiles(t *testing.T) []string {
	t.Helper()
	if out, err := exec.Command("git", "ls-files", "-z", "--cached", "--others", "--exclude-standard").Output(); err == nil {
		var files []string
		for _, f := range strings.Split(string(out), "\x00") {
			if f != "" {
				files = append(files, filepath.ToSlash(f))
			}
		}
		if len(files) > 0 {
			return files
		}
	}
	var files []string
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if d.Name() == ".git" || path == "bin" {
				return filepath.SkipDir
			}
			return nil
		}
		if d.Type().IsRegular() {
			files = append(files, filepath.ToSlash(path))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

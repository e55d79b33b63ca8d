package tidbsim

import (
	"regexp"
	"strings"
	"testing"

	"github.com/tiform/tiform/version"
)

// publicSource is the form every source the emulator names must take: a
// documentation or GitHub URL, an issue or PR (owner/repo#N), or a file at a
// release tag (owner/repo@tag:path).
var publicSource = regexp.MustCompile(`^(https://\S+|[\w.-]+/[\w.-]+#\d+|[\w.-]+/[\w.-]+@[\w.-]+:\S+)$`)

// sysVarAnchor is a heading anchor of the system-variables page: the
// variable's name, then the version mark of its heading if it has one.
var sysVarAnchor = regexp.MustCompile(`^([a-z_]+)(-new-in-v\d{2,3})?$`)

// TestSysVarSources: every variable the emulator defines — hand-modelled or
// generated from the upstream table — names a public source, and a
// system-variables anchor names that variable.
func TestSysVarSources(t *testing.T) {
	defs := map[string]*SysVarDef{}
	for _, d := range sysVarDefs {
		defs[d.Name] = d
	}
	for _, v := range []string{"v7.5.4", "v8.5.1", "v9.0.0-beta.2"} {
		for name, d := range upstreamVariables(version.MustParse(v)) {
			defs[name] = d
		}
	}
	for name, d := range defs {
		if !publicSource.MatchString(d.Source) {
			t.Errorf("%s: Source %q is not a public source (https URL, owner/repo#N or owner/repo@tag:path)", name, d.Source)
			continue
		}
		anchor, ok := strings.CutPrefix(d.Source, sysVarDocs)
		if !ok {
			continue
		}
		if m := sysVarAnchor.FindStringSubmatch(anchor); m == nil || m[1] != name {
			t.Errorf("%s: Source %q is the anchor of another heading", name, d.Source)
		}
	}
}

func TestPublicSourceForm(t *testing.T) {
	for src, want := range map[string]bool{
		"https://docs.pingcap.com/tidb/stable/system-variables#version": true,
		"tikv/tikv#18503": true,
		"pingcap/tidb@v8.5.1:pkg/executor/set_config.go": true,
		"":                     false,
		"notes.md \u00a75.1":   false, // a private section reference
		"\u00a75.1":            false,
		"http://example.com/x": false,
	} {
		if got := publicSource.MatchString(src); got != want {
			t.Errorf("publicSource(%q) = %v, want %v", src, got, want)
		}
	}
}

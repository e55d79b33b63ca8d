package applier

import (
	"testing"
)

// The parsers of server output must never panic, whatever TiDB returns.

func FuzzWarningInstance(f *testing.F) {
	for _, s := range []string{`bad request to http://127.0.0.1:20181/config: x`, `Post "http://`, `https://`, ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if in := warningInstance(s, topo3); in != "" {
			found := false
			for _, x := range topo3 {
				found = found || x.Address == in
			}
			if !found {
				t.Fatalf("warningInstance(%q) = %q, not an instance", s, in)
			}
		}
	})
}

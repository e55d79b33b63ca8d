package schema

import (
	"os"
	"path/filepath"
	"testing"
)

func writeFile(t *testing.T, dir, name, content string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func readFile(t *testing.T, dir, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestDidYouMeanSwappedPair(t *testing.T) {
	for _, tc := range []struct{ name, want string }{
		{"evn", "did you mean `--var env`?"},   // swapped pair, short name
		{"enb", "did you mean `--var env`?"},   // one substitution
		{"xyz", ""},                            // nothing close
		{"tivk", "did you mean `--var tikv`?"}, // swapped pair
		{"vne", ""},                            // two swaps away
	} {
		if got := didYouMean(tc.name, []string{"env", "tikv", "region"}, "--var "); got != tc.want {
			t.Errorf("didYouMean(%q) = %q, want %q", tc.name, got, tc.want)
		}
	}
	if !swappedPair("ab", "ba") || swappedPair("abc", "abc") || swappedPair("abc", "acd") || swappedPair("ab", "abc") {
		t.Error("swappedPair")
	}
}

package cmd

import (
	"bytes"
	"os"
	"testing"

	"github.com/creack/pty"
)

// TestUseColor: colour only on a terminal, never with --no-color or NO_COLOR,
// never into a buffer or pipe (what CI and `> plan.md` see).
func TestUseColor(t *testing.T) {
	t.Setenv("NO_COLOR", "")
	if useColor(&bytes.Buffer{}, false) {
		t.Error("a buffer is not a terminal: no colour")
	}
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	if useColor(w, false) {
		t.Error("a pipe is not a terminal: no colour")
	}
	// A pseudo-terminal stands in for the operator's terminal.
	ptm, tty, err := pty.Open()
	if err != nil {
		t.Fatalf("open a pseudo-terminal: %v", err)
	}
	defer ptm.Close()
	defer tty.Close()
	if !useColor(tty, false) {
		t.Error("a terminal gets colour")
	}
	if useColor(tty, true) {
		t.Error("--no-color wins over a terminal")
	}
	t.Setenv("NO_COLOR", "1")
	if useColor(tty, false) {
		t.Error("NO_COLOR wins over a terminal")
	}
}

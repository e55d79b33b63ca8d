package cmd

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tiform/tiform/applier"
)

func TestApplyExitCode(t *testing.T) {
	interrupted := fmt.Errorf("applier: stopped: %w", applier.ErrInterrupted)
	tests := []struct {
		err  error
		want int
	}{
		{nil, ExitOK},
		{interrupted, ExitInterrupted},
		{fmt.Errorf("wrapped again: %w", interrupted), ExitInterrupted},
		{fmt.Errorf("x: %w", applier.ErrFailed), ExitError},
		{fmt.Errorf("x: %w", applier.ErrLocked), ExitError},
		{errors.New("applier: connect: refused"), ExitError},
	}
	for _, tt := range tests {
		if got := applyExitCode(tt.err); got != tt.want {
			t.Errorf("applyExitCode(%v) = %d, want %d", tt.err, got, tt.want)
		}
	}
}

func TestExitStatus(t *testing.T) {
	tests := []struct {
		err     error
		code    int
		printed string
	}{
		{nil, ExitOK, ""},
		{exitCode(ExitChanges, nil), ExitChanges, ""},
		{exitCode(ExitError, errors.New("boom")), ExitError, "boom"},
		{fmt.Errorf("cobra: %w", exitCode(ExitUnformatted, nil)), ExitUnformatted, ""},
		{errors.New("unknown flag: --x"), ExitError, "unknown flag: --x"},
	}
	for _, tt := range tests {
		code, msg := exitStatus(tt.err)
		printed := ""
		if msg != nil {
			printed = msg.Error()
		}
		if code != tt.code || printed != tt.printed {
			t.Errorf("exitStatus(%v) = %d, %q; want %d, %q", tt.err, code, printed, tt.code, tt.printed)
		}
	}
}

// TestExitCodesDoc: the table in docs/workflows.md is exitTable, and every
// exit code constant is in it.
func TestExitCodesDoc(t *testing.T) {
	b, err := os.ReadFile("../docs/workflows.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	i := strings.Index(doc, "| code | meaning |\n|---|---|\n")
	if i < 0 {
		t.Fatal("docs/workflows.md has no exit-code table")
	}
	var got []string
	for _, line := range strings.Split(doc[i:], "\n")[2:] {
		if !strings.HasPrefix(line, "|") {
			break
		}
		got = append(got, line)
	}
	var want []string
	codes := map[int]bool{}
	for _, e := range exitTable {
		want = append(want, fmt.Sprintf("| %d | %s |", e.Code, e.Meaning))
		codes[e.Code] = true
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("docs/workflows.md exit codes differ from exitTable (-code +doc):\n%s", diff)
	}
	for _, c := range []int{ExitOK, ExitError, ExitChanges, ExitUnformatted, ExitPaused, ExitInterrupted} {
		if !codes[c] {
			t.Errorf("exit code %d is not in exitTable", c)
		}
	}
}

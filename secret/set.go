package secret

import (
	"errors"
	"io"
	"slices"
	"sort"
	"strings"
	"sync"
)

// MinLen is the length below which a secret is not searched for in free text:
// masking every "ab" of an output would make it unreadable and hide nothing a
// guess would not find. A DSN's password of any length is still masked where
// the DSN itself is shown (RedactDSN).
const MinLen = 4

// Set is the secrets in use in one run. The zero value is empty and ready;
// a nil *Set masks nothing. Safe for concurrent use.
type Set struct {
	mu      sync.Mutex
	secrets []string // longest first
}

// Add records secrets (those shorter than MinLen are ignored).
func (s *Set) Add(secrets ...string) {
	if s == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, x := range secrets {
		if len(x) < MinLen || slices.Contains(s.secrets, x) {
			continue
		}
		s.secrets = append(s.secrets, x)
	}
	// Longest first, so that a secret containing another is masked whole.
	sort.SliceStable(s.secrets, func(i, j int) bool { return len(s.secrets[i]) > len(s.secrets[j]) })
}

// AddDSN records the password of dsn (see DSNPassword), as decoded and as
// written.
func (s *Set) AddDSN(dsn string) { s.Add(passwordTexts(dsn)...) }

func (s *Set) list() []string {
	if s == nil {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.secrets...)
}

// List returns the secrets (for a layer that scrubs its own output, such as
// the audit log).
func (s *Set) List() []string { return s.list() }

// Mask returns text with every secret replaced by Mask.
func (s *Set) Mask(text string) string {
	for _, x := range s.list() {
		text = strings.ReplaceAll(text, x, Mask)
	}
	return text
}

// Contains returns the first secret that text contains, and whether one does.
// It is for refusing, not for showing: never print the secret returned.
func (s *Set) Contains(text string) (string, bool) {
	for _, x := range s.list() {
		if strings.Contains(text, x) {
			return x, true
		}
	}
	return "", false
}

// ErrHoldsSecret is what Refuse returns: the text holds a secret in use.
var ErrHoldsSecret = errors.New("it would hold the password of a DSN in use (a value read from the cluster holds it); it was not written")

// Refuse returns ErrHoldsSecret when b holds a secret of s (for a file about
// to be written: a plan, a snapshot, a rollback plan).
func (s *Set) Refuse(b []byte) error {
	if _, found := s.Contains(string(b)); found {
		return ErrHoldsSecret
	}
	return nil
}

// Writer returns an io.Writer that writes to w everything written to it with
// every secret of s masked, including a secret split across two writes: the
// end of a write that could be the start of a secret is held back until the
// next write or Flush. Secrets added to s later apply from then on.
func (s *Set) Writer(w io.Writer) *Writer { return &Writer{set: s, w: w} }

// Writer is the masking writer of Set.Writer. Call Flush when done (and
// before waiting for input after a prompt).
type Writer struct {
	set     *Set
	w       io.Writer
	mu      sync.Mutex
	pending []byte
}

// Write masks and forwards p; it reports len(p) written unless w fails.
func (mw *Writer) Write(p []byte) (int, error) {
	mw.mu.Lock()
	defer mw.mu.Unlock()
	mw.pending = append(mw.pending, p...)
	secrets := mw.set.list()
	text := string(mw.pending)
	for _, x := range secrets {
		text = strings.ReplaceAll(text, x, Mask)
	}
	hold := heldBack(text, secrets)
	out := text[:len(text)-hold]
	mw.pending = append(mw.pending[:0], text[len(text)-hold:]...)
	if out == "" {
		return len(p), nil
	}
	if _, err := io.WriteString(mw.w, out); err != nil {
		return 0, err
	}
	return len(p), nil
}

// Unwrap returns the writer mw writes to (to ask whether it is a terminal).
func (mw *Writer) Unwrap() io.Writer { return mw.w }

// Flush writes what is held back (it cannot be the start of a secret any
// more: nothing follows).
func (mw *Writer) Flush() error {
	mw.mu.Lock()
	defer mw.mu.Unlock()
	if len(mw.pending) == 0 {
		return nil
	}
	text := mw.set.Mask(string(mw.pending))
	mw.pending = mw.pending[:0]
	_, err := io.WriteString(mw.w, text)
	return err
}

// heldBack is the length of the longest end of text that is a proper
// beginning of a secret.
func heldBack(text string, secrets []string) int {
	hold := 0
	for _, x := range secrets {
		for n := min(len(x)-1, len(text)); n > hold; n-- {
			if strings.HasSuffix(text, x[:n]) {
				hold = n
				break
			}
		}
	}
	return hold
}

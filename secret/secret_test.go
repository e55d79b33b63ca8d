package secret

import (
	"bytes"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

const pw = "Sup3r-S3cr3t"

// Every form of DSN a person may give, well-formed or not.
func TestDSNPasswordAndRedact(t *testing.T) {
	for _, tc := range []struct {
		name, dsn, pw, redacted string
	}{
		{"driver form", "app:" + pw + "@tcp(10.0.1.5:4000)/", pw, "app:*****@tcp(10.0.1.5:4000)/"},
		{"params and db", "app:" + pw + "@tcp(h:4000)/db?tls=true", pw, "app:*****@tcp(h:4000)/db?tls=true"},
		{"password with / and @", "app:a/b@c" + pw + "@tcp(h:4000)/", "a/b@c" + pw, "app:*****@tcp(h:4000)/"},
		{"slash in password, no trailing slash", "app:pa/ss" + pw + "@tcp(h:4000)", "pa/ss" + pw, "app:*****@tcp(h:4000)"},
		{"no slash", "app:" + pw + "@tcp(h:4000)", pw, "app:*****@tcp(h:4000)"},
		{"URL form", "mysql://app:" + pw + "@h:4000/db", pw, "mysql://app:*****@h:4000/db"},
		{"URL form with escaped character", "mysql://app:" + pw + "%2F@h:4000/", pw + "/", "mysql://app:*****@h:4000/"},
		{"password repeated in a parameter", "app:" + pw + "@tcp(h:4000)/?x=" + pw, pw, "app:*****@tcp(h:4000)/?x=*****"},
		{"no password", "root@tcp(h:4000)/", "", "root@tcp(h:4000)/"},
		{"no @, password glued to the network", "root:" + pw + "tcp(h:4000)/", pw + "tcp", "root:*****(h:4000)/"},
		{"no @, glued, unix socket", "root:" + pw + "unix(/tmp/s)/", pw + "unix", "root:*****(/tmp/s)/"},
		{"a network of its own, no password", "rootx(h:4000)/", "", "*****"},
		{"no @ at all", "app-" + pw + "-tcp(h:4000)", "", "*****"},
		{"colon but no @", "app:" + pw, "", "*****"},
		{"empty", "", "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := DSNPassword(tc.dsn)
			if got != tc.pw || ok != (tc.pw != "") {
				t.Errorf("DSNPassword(%q) = %q, %v; want %q", tc.dsn, got, ok, tc.pw)
			}
			if r := RedactDSN(tc.dsn); r != tc.redacted {
				t.Errorf("RedactDSN(%q) = %q, want %q", tc.dsn, r, tc.redacted)
			}
		})
	}
}

// The URL form's escaped password: the decoded text is the secret, and the
// escaped text as written is masked too when the set holds both.
func TestRedactNeverShowsThePassword(t *testing.T) {
	for _, dsn := range []string{
		"app:" + pw + "@tcp(h:4000)/", "app:" + pw + "@tcp(h:4000)", "mysql://app:" + pw + "@h/",
		"app:" + pw, pw, "app:x/" + pw + "@unix(/tmp/s)/", "app:" + pw + "@", "mysql://app:" + pw + "%40@h/",
	} {
		if r := RedactDSN(dsn); strings.Contains(r, pw) || strings.Contains(r, "Sup3r") {
			t.Errorf("RedactDSN(%q) = %q shows the password", dsn, r)
		}
	}
}

func TestSetMaskAndContains(t *testing.T) {
	var s Set
	s.Add(pw, "abc", "")
	s.AddDSN("app:longer-" + pw + "@tcp(h:4000)/")
	if got, want := s.Mask("x "+pw+" longer-"+pw+" abc"), "x ***** ***** abc"; got != want {
		t.Errorf("Mask = %q, want %q", got, want)
	}
	if _, ok := s.Contains("abc"); ok {
		t.Error("a secret shorter than MinLen was recorded")
	}
	if _, ok := s.Contains("..." + pw + "..."); !ok {
		t.Error("Contains missed the secret")
	}
	var nilSet *Set
	if nilSet.Mask(pw) != pw {
		t.Error("a nil set masked something")
	}
}

// A secret split across writes is still masked; text that only looks like
// the start of a secret is written once the next write shows it is not.
func TestWriterSplitAcrossWrites(t *testing.T) {
	var s Set
	s.Add(pw)
	for _, chunks := range [][]string{
		{"a Sup3r", "-S3cr3t b"},
		{"S", "u", "p", "3", "r", "-", "S", "3", "c", "r", "3", "t"},
		{"Sup3r-S3cr3", "X and Sup3r-"},
		{"Sup3r-S3cr3tSup3r-S3cr3t"},
		{"ends with Sup"},
	} {
		var out bytes.Buffer
		w := s.Writer(&out)
		for _, c := range chunks {
			if n, err := w.Write([]byte(c)); err != nil || n != len(c) {
				t.Fatalf("Write(%q) = %d, %v", c, n, err)
			}
		}
		if err := w.Flush(); err != nil {
			t.Fatal(err)
		}
		want := strings.ReplaceAll(strings.Join(chunks, ""), pw, Mask)
		if diff := cmp.Diff(want, out.String()); diff != "" {
			t.Errorf("%q (-want +got):\n%s", chunks, diff)
		}
	}
}

// A prompt is not held back unless its end could begin a secret.
func TestWriterDoesNotHoldAPrompt(t *testing.T) {
	var s Set
	s.Add(pw)
	var out bytes.Buffer
	w := s.Writer(&out)
	w.Write([]byte("  Enter a value: "))
	if out.String() != "  Enter a value: " {
		t.Errorf("prompt held back: %q", out.String())
	}
}

// FuzzWriter: whatever the chunks, the output never contains the secret and,
// unmasked, is the input.
func FuzzWriter(f *testing.F) {
	f.Add("a Sup3r", "-S3cr3t b", "Sup3r-S3cr3t", uint8(3))
	f.Add("", "", "aaaa", uint8(1))
	f.Add("aaaaa", "aaa", "aaaa", uint8(2))
	f.Fuzz(func(t *testing.T, a, b, secret string, cut uint8) {
		if len(secret) < MinLen {
			return
		}
		var s Set
		s.Add(secret)
		var out bytes.Buffer
		w := s.Writer(&out)
		in := a + b
		k := int(cut) % (len(in) + 1)
		w.Write([]byte(in[:k]))
		w.Write([]byte(in[k:]))
		w.Flush()
		if strings.Contains(out.String(), secret) {
			t.Fatalf("secret %q in output %q (input %q split at %d)", secret, out.String(), in, k)
		}
		if want := s.Mask(in); out.String() != want && !strings.Contains(want, secret) {
			t.Fatalf("output %q, want %q", out.String(), want)
		}
	})
}

// FuzzRedactDSN: whatever the text, RedactDSN never shows the password
// DSNPassword finds in it.
func FuzzRedactDSN(f *testing.F) {
	for _, s := range []string{"app:pw@tcp(h:4000)/", "mysql://u:p@h/", "u:p/q@tcp(h)", "u:p", "u@tcp(h)/", "::@@//"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, dsn string) {
		r := RedactDSN(dsn)
		// A mask is opaque: the password must not survive in the text between
		// masks. (Across a mask's edge a password such as ":*" can be read in
		// ":*****@", which shows nothing: testdata/fuzz holds that case.)
		for _, p := range passwordTexts(dsn) {
			for _, part := range strings.Split(r, Mask) {
				if strings.Contains(part, p) {
					t.Fatalf("RedactDSN(%q) = %q shows the password %q", dsn, r, p)
				}
			}
		}
	})
}

// Text tiform did not write (a driver's message) may quote a DSN: every
// DSN-shaped word has its password masked, whatever its form.
func TestRedactDSNsIn(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"dial tcp: lookup app:" + pw + "@tcp(h:4000)/: no such host", "dial tcp: lookup app:*****@tcp(h:4000)/: no such host"},
		{"cannot open 'app:" + pw + "@tcp(h:4000)/db'", "cannot open 'app:*****@tcp(h:4000)/db'"},
		{"mysql://app:" + pw + "@h/ refused", "mysql://app:*****@h/ refused"},
		{"no DSN here: a:b, time 10:30", "no DSN here: a:b, time 10:30"},
	} {
		if got := RedactDSNsIn(tc.in); got != tc.want {
			t.Errorf("RedactDSNsIn(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

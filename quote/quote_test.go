package quote

import "testing"

func TestIdent(t *testing.T) {
	for in, want := range map[string]string{
		"coprocessor.region-split-size": "`coprocessor.region-split-size`",
		"a`b":                           "`a``b`",
		"":                              "``",
		"``":                            "``````",
	} {
		if got := Ident(in); got != want {
			t.Errorf("Ident(%q) = %s, want %s", in, got, want)
		}
	}
}

func TestString(t *testing.T) {
	for in, want := range map[string]string{
		"256MiB":           `'256MiB'`,
		"it's":             `'it''s'`,
		`a\b`:              `'a\\b'`,
		"x'; DROP USER x":  `'x''; DROP USER x'`,
		"l1\nl2\r\x00\x1a": "'l1\nl2\r\x00\x1a'",
		`say "hi"`:         `'say "hi"'`,
		`\'`:               `'\\'''`,
	} {
		if got := String(in); got != want {
			t.Errorf("String(%q) = %s, want %s", in, got, want)
		}
	}
}

func TestAccount(t *testing.T) {
	if got, want := Account("app", "%"), `'app'@'%'`; got != want {
		t.Errorf("Account = %s, want %s", got, want)
	}
}

func TestIsNumber(t *testing.T) {
	yes := []string{"0", "54", "-1", "+2", "0.25", "1e-07", "1.5E+3", ".5", "5."}
	no := []string{"", "-", "1e", "0x10", "1 ", "1;", "256MiB", "NaN", "1e+", "1.2.3"}
	for _, s := range yes {
		if !IsNumber(s) {
			t.Errorf("IsNumber(%q) = false, want true", s)
		}
	}
	for _, s := range no {
		if IsNumber(s) {
			t.Errorf("IsNumber(%q) = true, want false", s)
		}
	}
}

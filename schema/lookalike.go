package schema

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Look-alike names. TiDB accepts any character in a backquoted resource
// group name and compares names in lower case (GroupNameProblem). A name a
// reviewer reads as one group can then be another:
//   - a character outside ASCII that lower-cases into ASCII: the Kelvin sign
//     U+212A becomes "k", so "\u212aeep" is the group "keep" to TiDB; U+0130
//     (dotted capital I) becomes "i";
//   - letters of two scripts mixed in one name ("\u043eltp", a Cyrillic o
//     before Latin letters, reads as "oltp"): the mixed-script check of
//     Unicode's security mechanisms (https://www.unicode.org/reports/tr39/,
//     "Mixed-Script Detection");
//   - characters that show nothing or reorder what follows: controls and
//     format characters (zero-width space U+200B, bidirectional overrides
//     U+202E), which TiDB also accepts.
// A name in one script other than Latin ("компьютер", "データ"), or Latin
// with accents ("été"), reads as what it is and is accepted.

// lookAlikeScripts are the scripts whose letters are told apart; a letter of
// none of them is counted as its own ("other").
var lookAlikeScripts = []struct {
	name  string
	table *unicode.RangeTable
}{
	{"Latin", unicode.Latin}, {"Cyrillic", unicode.Cyrillic}, {"Greek", unicode.Greek},
	{"Armenian", unicode.Armenian}, {"Han", unicode.Han}, {"Hiragana", unicode.Hiragana},
	{"Katakana", unicode.Katakana}, {"Hangul", unicode.Hangul}, {"Arabic", unicode.Arabic},
	{"Hebrew", unicode.Hebrew}, {"Cherokee", unicode.Cherokee}, {"Coptic", unicode.Coptic},
}

// japanese scripts mix in ordinary Japanese text and are one script here.
var japanese = map[string]bool{"Han": true, "Hiragana": true, "Katakana": true}

// lookAlike describes the first reason name could read as another, and
// whether there is one.
func lookAlike(name string) (string, bool) {
	var seen []string // the scripts of the letters so far, in order
	for _, r := range name {
		if unicode.IsControl(r) || unicode.Is(unicode.Cf, r) {
			return fmt.Sprintf("U+%04X, an invisible control or format character", r), true
		}
		if r >= utf8.RuneSelf {
			if low := strings.ToLower(string(r)); low != string(r) && low[0] < utf8.RuneSelf {
				return fmt.Sprintf("U+%04X, which lower-cases to %+q", r, low), true
			}
		}
		s := scriptOf(r)
		if s == "" {
			continue // not a letter, or a letter every script shares (U+30FC ー)
		}
		if len(seen) > 0 && seen[0] != s {
			return fmt.Sprintf("U+%04X, a %s letter in a name with %s letters (mixed scripts)", r, s, seen[0]), true
		}
		seen = append(seen, s)
	}
	return "", false
}

// scriptOf is the script of letter r ("" for a non-letter or a letter of
// the Common or Inherited scripts); Han, Hiragana and Katakana are one, as
// Japanese text mixes them.
func scriptOf(r rune) string {
	if !unicode.IsLetter(r) || unicode.In(r, unicode.Common, unicode.Inherited) {
		return ""
	}
	for _, s := range lookAlikeScripts {
		if unicode.Is(s.table, r) {
			if japanese[s.name] {
				return "Japanese/Chinese"
			}
			return s.name
		}
	}
	return "other"
}

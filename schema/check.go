package schema

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/agext/levenshtein"
	"github.com/hashicorp/hcl/v2"

	"github.com/tiform/tiform/catalog"
	"github.com/tiform/tiform/state"
)

// The rule for names the catalog does not know (docs/language.md
// "Unknown settings"), the same for config keys and system variables:
//
//   - A name the catalog knows is checked: kind, enum, documented range.
//   - An unknown name within typoDistance edits of a known one is an ERROR
//     with "did you mean …?": a near miss is almost always a typo, and a typo
//     would otherwise become a new setting that the cluster rejects (or,
//     for SET CONFIG, accepts with only a warning,
//     https://docs.pingcap.com/tidb/stable/dynamic-config).
//   - Any other unknown name is a WARNING here: the catalog holds every
//     setting of the versions its generated table covers, so the name is not
//     a setting of any of them; it is still managed if the cluster reports
//     it (a newer or hot-fix build, compared in the kind the cluster shows
//     it in, catalog.Setting), and refused at plan time (TF150) if not. A
//     farther catalog suggestion (a key written under the wrong section) is
//     the hint.
const typoDistance = 2

// checkConfig validates one config setting against the catalog.
func (l *loader) checkConfig(comp state.Component, key string, val state.Value, keyRange, rng hcl.Range) {
	e, ok := catalog.Config(string(comp), key)
	if !ok {
		if keys := catalog.Section(string(comp), key); len(keys) > 0 {
			leaf := keys[0][len(key)+1:]
			l.b.errorf(keyRange, fmt.Sprintf("%s is a section of the %s config, not a key", key, comp),
				fmt.Sprintf("It holds keys such as %s; a value belongs to one of them (tiform catalog --search %s lists them).",
					strings.Join(keys[:min(len(keys), 2)], " and "), key),
				fmt.Sprintf("write %s { %s = … }", key[strings.LastIndexByte(key, '.')+1:], leaf))
			return
		}
		if strings.Contains(key, "_") {
			if known, ok := catalog.Config(string(comp), strings.ReplaceAll(key, "_", "-")); ok {
				l.b.errorf(keyRange, fmt.Sprintf("unknown %s config key %q", comp, key),
					"Config keys use dashes, not underscores, as in the component's TOML file.",
					fmt.Sprintf("did you mean `%s`?", leafFor(key, known.Key)))
				return
			}
		}
		sugg := catalog.SuggestConfig(string(comp), key)
		if sugg != "" && levenshtein.Distance(key, sugg, nil) <= typoDistance {
			l.b.errorf(keyRange, fmt.Sprintf("unknown %s config key %q", comp, key),
				fmt.Sprintf("tiform knows %s.%s; this key differs from it by a typo.", comp, sugg),
				fmt.Sprintf("did you mean `%s`?", leafFor(key, sugg)))
			return
		}
		hint := ""
		if sugg != "" {
			// Farther than a typo (often the same name under another section):
			// a question, not an error.
			hint = fmt.Sprintf("did you mean `%s`?", sugg)
		}
		l.b.warnf(keyRange, strings.SplitN(catalog.UnknownSetting(catalog.TargetConfig, string(comp), key), ";", 2)[0],
			"It is managed only if the cluster reports it (a newer or hot-fix build; its value is then compared in the kind the cluster shows it in, without range checks); otherwise the plan refuses it (TF150).", hint)
		return
	}
	if !e.Class.Setting() {
		l.b.errorf(keyRange, fmt.Sprintf("%s is not a setting: %s (class %s)", e.Address(), e.Class.Why(), e.Class),
			"SHOW CONFIG prints it, but tiform does not manage it: import leaves it out, export tiup and drift reports never show it (docs/catalog.md, \"What is not a setting\").",
			e.Class.Hint())
		return
	}
	l.checkEntryValue(e, val, rng)
}

// leafFor shows the suggestion the way the user wrote the key: when only the
// last segment differs, just that segment ("region-split-size").
func leafFor(key, sugg string) string {
	ki, si := strings.LastIndexByte(key, '.'), strings.LastIndexByte(sugg, '.')
	if ki >= 0 && si >= 0 && key[:ki] == sugg[:si] {
		return sugg[si+1:]
	}
	return sugg
}

// checkVariable validates one system variable against the catalog.
func (l *loader) checkVariable(name string, val state.Value, keyRange, rng hcl.Range) {
	e, ok := catalog.Variable(name)
	if !ok {
		if strings.Contains(name, "-") {
			if known, ok := catalog.Variable(strings.ReplaceAll(name, "-", "_")); ok {
				l.b.errorf(keyRange, fmt.Sprintf("unknown system variable %q", name),
					"System variable names use underscores, not dashes.", fmt.Sprintf("did you mean `%s`?", known.Key))
				return
			}
		}
		sugg := catalog.SuggestVariable(name)
		if sugg != "" && levenshtein.Distance(name, sugg, nil) <= typoDistance {
			l.b.errorf(keyRange, fmt.Sprintf("unknown system variable %q", name),
				fmt.Sprintf("tiform knows %s; this name differs from it by a typo.", sugg),
				fmt.Sprintf("did you mean `%s`?", sugg))
			return
		}
		hint := ""
		if sugg != "" {
			hint = fmt.Sprintf("did you mean `%s`?", sugg)
		}
		l.b.warnf(keyRange, strings.SplitN(catalog.UnknownSetting(catalog.TargetVariable, "tidb", name), ";", 2)[0],
			"It is managed with SET GLOBAL only if the cluster reports it (a newer or hot-fix build; its value is then compared in the kind the cluster shows it in, without range checks); otherwise the plan refuses it (TF150).", hint)
		return
	}
	if e.Scope == catalog.ScopeSession {
		l.b.errorf(keyRange, fmt.Sprintf("system variable %s cannot be set globally", name),
			"It has SESSION scope only (or is read-only), so SET GLOBAL cannot manage it.", "remove it from variables { … }")
		return
	}
	l.checkEntryValue(e, val, rng)
}

// checkEntryValue runs the catalog's Check and turns its error into a
// diagnostic that says what is expected, with an example.
func (l *loader) checkEntryValue(e *catalog.Entry, val state.Value, rng hcl.Range) {
	err := e.Check(val.Text)
	if err == nil {
		l.checkBareSize(e, val, rng)
		return
	}
	if val.Sensitive {
		// The catalog's message may quote the value.
		l.b.errorf(rng, fmt.Sprintf("invalid value for %s (a sensitive value, not shown)", e.Address()),
			fmt.Sprintf("The value comes from a variable marked sensitive and is not what %s takes.", e.Address()), exampleHint(e))
		return
	}
	var ve *catalog.ValueError
	if errors.As(err, &ve) {
		if ve.Problem != "" {
			l.b.errorf(rng, fmt.Sprintf("invalid value for %s: %s", ve.Address, ve.Problem),
				fmt.Sprintf("Expected %s.", ve.Expected), exampleHint(e))
			return
		}
		l.b.errorf(rng, fmt.Sprintf("invalid value %q for %s", ve.Value, ve.Address),
			fmt.Sprintf("Expected %s.", ve.Expected), exampleHint(e))
		return
	}
	l.b.errorf(rng, fmt.Sprintf("invalid value for %s", e.Address()), trimPkg(err.Error()), exampleHint(e))
}

// checkBareSize warns about a size written as a small bare number: it is a
// number of bytes (tikv/tikv@v8.5.1:components/tikv_util/src/config.rs, FromStr for
// ReadableSize), and no TiKV, PD or TiDB size
// setting is meant to be a few hundred bytes, so region-split-size = 256
// almost certainly meant "256MiB" (PD's max-merge-region-size = 54, a plain
// number of MiB, invites the mistake).
func (l *loader) checkBareSize(e *catalog.Entry, val state.Value, rng hcl.Range) {
	if e.Kind != catalog.KindSize || val.Type != state.LiteralNumber || val.Sensitive {
		return
	}
	n, err := strconv.ParseFloat(val.Text, 64)
	if err != nil || n <= 0 || n >= 1024 {
		return
	}
	leaf := e.Key
	if e.Target == catalog.TargetConfig {
		leaf = e.Key[strings.LastIndexByte(e.Key, '.')+1:]
	}
	l.b.warnf(rng, fmt.Sprintf("%s = %s is %s bytes", leaf, val.Text, val.Text),
		fmt.Sprintf("%s is a size: a bare number is a number of bytes.", e.Address()),
		fmt.Sprintf("if you meant MiB or GiB, write %s = \"%sMiB\" or \"%sGiB\"", leaf, val.Text, val.Text))
}

func exampleHint(e *catalog.Entry) string {
	if e.ReadOnly {
		return "remove it from the configuration"
	}
	ex := e.Example()
	leaf := e.Key
	if e.Target == catalog.TargetConfig {
		leaf = e.Key[strings.LastIndexByte(e.Key, '.')+1:]
	}
	switch e.Kind {
	case catalog.KindBool, catalog.KindInt, catalog.KindFloat:
		return fmt.Sprintf("for example: %s = %s", leaf, ex)
	}
	return fmt.Sprintf("for example: %s = %q", leaf, ex)
}

func catalogSetConfigSupported(component, key string) error {
	return catalog.SetConfigSupported(component, key)
}

// trimPkg drops the "catalog: " prefix of an error from another package,
// which reads oddly inside a diagnostic.
func trimPkg(s string) string {
	return strings.TrimPrefix(s, "catalog: ")
}

// DidYouMean is the suggestion diagnostics make for name among cands ("did
// you mean `osaka`?"), or "" when none is close; for messages outside the
// language, such as a --cluster flag.
func DidYouMean(name string, cands []string) string { return didYouMean(name, cands, "") }

// didYouMean returns `did you mean "PREFIXcand"?` for the closest candidate,
// or "" when none is close: about a quarter of the name's length, at least
// 1, and at least 2 for names of 4 characters or more.
// swappedPair reports whether a and b differ only by two adjacent characters
// swapped.
func swappedPair(a, b string) bool {
	if len(a) != len(b) || a == b {
		return false
	}
	i := 0
	for i < len(a) && a[i] == b[i] {
		i++
	}
	return i+1 < len(a) && a[i] == b[i+1] && a[i+1] == b[i] && a[i+2:] == b[i+2:]
}

func didYouMean(name string, cands []string, prefix string) string {
	best, bestD := "", 0
	for _, c := range cands {
		if c == name {
			continue
		}
		d := levenshtein.Distance(name, c, nil)
		if swappedPair(name, c) {
			d = 1 // "evn" for "env": one slip of the fingers, not two edits
		}
		if best == "" || d < bestD || d == bestD && c < best {
			best, bestD = c, d
		}
	}
	if best == "" {
		return ""
	}
	limit := len(name) / 4
	if limit < 1 {
		limit = 1
	}
	if len(name) >= 4 && limit < 2 {
		limit = 2 // a swapped pair of letters ("tivk") is two edits
	}
	if bestD > limit {
		return ""
	}
	return fmt.Sprintf("did you mean `%s%s`?", prefix, best)
}

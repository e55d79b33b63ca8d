package importer

import (
	"errors"
	"fmt"
	"math/big"
	"strings"

	"github.com/zclconf/go-cty/cty"

	"github.com/tiform/tiform/catalog"
)

// maxValueBytes bounds a value import writes: no TiDB setting holds more,
// and a value this long is hostile or broken. It is left out and reported.
const maxValueBytes = 64 << 10

// errUnset: SHOW CONFIG prints an unset TiKV Option as null; it holds no
// value to declare (it is at its default by definition).
var errUnset = errors.New("unset")

// literal returns the HCL value to declare for text, a value the component
// rendered, and the text it is compared by (the catalog's canonical form). It
// follows the catalog kind, the way an author writes the setting
// (docs/language.md "Values"): booleans and numbers unquoted, sizes and
// durations as the component shows them ("256MiB", "10m"), byte counts of
// system variables and of config items stored in bytes as numbers, lists as
// lists. The error says why the value cannot be declared.
func literal(e *catalog.Entry, text string) (cty.Value, string, error) {
	t := strings.TrimSpace(text)
	if len(t) > maxValueBytes {
		return cty.NilVal, "", fmt.Errorf("the value is %d bytes long", len(t))
	}
	if t == "null" && e.Kind != catalog.KindString {
		return cty.NilVal, "", errUnset
	}
	c, err := e.Canonical(t)
	if err != nil {
		return cty.NilVal, "", fmt.Errorf("the cluster shows %q, which is not %s", clip(t), e.Kind)
	}
	switch e.Kind {
	case catalog.KindBool:
		return cty.BoolVal(c == "true"), c, nil
	case catalog.KindInt, catalog.KindFloat:
		return numberAs(t, c)
	case catalog.KindSize:
		if e.Target == catalog.TargetVariable || e.Unit == "B" {
			return numberAs(c, c)
		}
		return cty.StringVal(t), c, nil
	case catalog.KindEnum:
		return cty.StringVal(c), c, nil
	case catalog.KindList:
		if c == "" {
			return cty.ListValEmpty(cty.String), c, nil
		}
		var items []cty.Value
		for _, it := range strings.Split(c, ",") {
			items = append(items, cty.StringVal(it))
		}
		return cty.ListVal(items), c, nil
	}
	return cty.StringVal(t), c, nil
}

// numberAs is the HCL number text shows, compared as canon: the digits the
// cluster printed are kept (the canonical form of a config number is what
// float64 makes of it).
func numberAs(text, canon string) (cty.Value, string, error) {
	v, _, err := number(text)
	if err != nil {
		v, _, err = number(canon)
	}
	return v, canon, err
}

// number is the HCL number of a canonical numeric text.
func number(c string) (cty.Value, string, error) {
	f, _, err := big.ParseFloat(c, 10, 512, big.ToNearestEven)
	if err != nil {
		return cty.NilVal, "", fmt.Errorf("%q is not a number", clip(c))
	}
	return cty.NumberVal(f), c, nil
}

// clip shortens text for a message.
func clip(s string) string {
	const n = 60
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}

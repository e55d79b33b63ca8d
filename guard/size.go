package guard

import "github.com/tiform/tiform/catalog"

const (
	kib = 1 << 10
	mib = 1 << 20
	gib = 1 << 30
)

// Rules read values through the catalog, the one owner of value meaning
// (catalog.Setting): these adapters only turn its errors into the ok flag a
// rule stays silent on.

// parseBytes reads a size ("256MiB", "268435456", "2.68435456e+08").
func parseBytes(text string) (uint64, bool) {
	n, err := catalog.ParseSize(text)
	return n, err == nil
}

// parseCount reads a count ("2560000", or "1.44e+06" as SHOW CONFIG prints
// large numbers).
func parseCount(text string) (uint64, bool) {
	n, err := catalog.ParseCount(text)
	return n, err == nil
}

// truth reads a boolean (true/false, ON/OFF, 1/0); ok is false for anything else.
func truth(text string) (value, ok bool) {
	v, err := catalog.ParseBool(text)
	return v, err == nil
}

// isOn reports whether text is a true boolean.
func isOn(text string) bool {
	v, ok := truth(text)
	return ok && v
}

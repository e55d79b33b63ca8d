package importer

import (
	"fmt"

	"github.com/tiform/tiform/catalog"
	"github.com/tiform/tiform/state"
)

// Pin is one value to declare as the cluster shows it today (tiform plan
// --target-version offers them: the settings whose default an upgrade
// changes).
type Pin struct {
	// Addr is a type-wide config key or a variable.
	Addr state.Address
	// Text is the value as the cluster shows it.
	Text string
}

// Pins writes the HCL that declares pins as tiform import writes values:
// each the literal of its catalog kind, config keys nested as the
// component's TOML tables, in the canonical layout, after the header
// comment lines. It lists the pins it could not write, with the reason.
func Pins(pins []Pin, header ...string) ([]byte, []string, error) {
	ly := newLayer()
	var skipped []string
	for _, p := range pins {
		var e *catalog.Entry
		var ok bool
		if p.Addr.Kind == state.KindVariable {
			e, ok = catalog.Variable(p.Addr.Key)
		} else {
			e, ok = catalog.Config(string(p.Addr.Component), p.Addr.Key)
		}
		if !ok || p.Addr.Instance != "" || (p.Addr.Kind != state.KindVariable && p.Addr.Kind != state.KindConfig) {
			skipped = append(skipped, fmt.Sprintf("%s: not a setting tiform declares here", p.Addr))
			continue
		}
		lit, canon, err := literal(e, p.Text)
		if err != nil {
			skipped = append(skipped, fmt.Sprintf("%s: %v", p.Addr, err))
			continue
		}
		it := item{lit: value{lit: lit, canon: canon, bare: true}}
		if p.Addr.Kind == state.KindVariable {
			ly.vars[e.Key] = it
		} else {
			ly.config[configKey{comp: p.Addr.Component, key: e.Key}] = it
		}
	}
	f := newFile(header...)
	writeLayer(f.Body(), ly)
	out, err := format(f)
	return out, skipped, err
}

package live

import (
	"sort"

	"github.com/google/go-cmp/cmp"
)

var cmpSortStrings = cmp.Transformer("sort", func(in []string) []string {
	out := append([]string(nil), in...)
	sort.Strings(out)
	return out
})

package main

import (
	"sort"
	"strconv"
	"strings"

	"github.com/tiform/tiform/internal/upstream"
)

// numericEnum makes a field serialised by a numeric_enum_serializing_mod!
// module an enum with codes: the module's serialize prints the variant's
// number (`serializer.serialize_i64($value as i64)`), its deserialize takes
// that number or the variant's kebab-case name (`kebab_case!($variant)`)
// (tikv/tikv components/tikv_util/src/config.rs). So the config JSON shows
// "3" for compaction-pri = "min-overlapping-ratio", and both spellings mean
// one value: Values are the names, Codes the numbers, in code order.
func (w *tikvWalker) numericEnum(kf *keyFacts, attrs []rustAttr) {
	with, ok := attrValue(attrs, "serde", "with")
	if !ok {
		return
	}
	m, ok := w.numericModule(lastSeg(with))
	if !ok || len(m) == 0 {
		return
	}
	type variant struct {
		name string
		code int
	}
	var vs []variant
	for name, code := range m {
		n, err := strconv.Atoi(strings.TrimSpace(code))
		if err != nil {
			return
		}
		vs = append(vs, variant{kebab(name), n})
	}
	sort.Slice(vs, func(i, j int) bool { return vs[i].code < vs[j].code })
	kf.kind, kf.values, kf.codes = upstream.KindEnum, nil, nil
	for _, v := range vs {
		kf.values = append(kf.values, v.name)
		kf.codes = append(kf.codes, strconv.Itoa(v.code))
	}
}

// kebab is the case_macros kebab_case! of a variant: MinOverlappingRatio →
// min-overlapping-ratio.
func kebab(s string) string {
	parts := splitCamel(s)
	for i, p := range parts {
		parts[i] = strings.ToLower(p)
	}
	return strings.Join(parts, "-")
}

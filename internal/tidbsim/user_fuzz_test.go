package tidbsim

import "testing"

// FuzzJSONExtract: JSON_EXTRACT never panics and its result is valid JSON
// that JSON_UNQUOTE accepts.
func FuzzJSONExtract(f *testing.F) {
	f.Add(`{"resource_group": "rg1"}`, "$.resource_group")
	f.Add(`{"a": [1, {"b": "c"}]}`, "$.a[1].b")
	f.Add(`[]`, "$[0]")
	f.Add(`{"x y": 1}`, `$."x y"`)
	f.Fuzz(func(t *testing.T, doc, path string) {
		v, err := JSONExtract(Str(doc), Str(path))
		if err != nil {
			if _, ok := err.(*SQLError); !ok {
				t.Fatalf("non-SQL error %T: %v", err, err)
			}
			return
		}
		if v.IsNull() {
			return
		}
		if _, err := parseJSONDoc(v.String()); err != nil {
			t.Fatalf("result %q is not JSON: %v", v.String(), err)
		}
		if _, err := JSONUnquote(v); err != nil {
			t.Fatalf("JSON_UNQUOTE(%q): %v", v.String(), err)
		}
	})
}

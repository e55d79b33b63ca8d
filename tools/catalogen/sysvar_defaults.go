package main

import "strings"

// unquoteDefaults corrects variable defaults the docs write as a quoted
// string literal (默认值：`"1s"` for tidb_load_based_replica_read_threshold,
// `"standard"` for tidb_dml_type): the variable's value is the text between
// the quotes, which is what SHOW VARIABLES prints. A default of `""` is
// the empty string.
func unquoteDefaults(facts []versionFacts) {
	for _, vf := range facts {
		for _, kf := range vf.keys {
			if kf.def == nil {
				continue
			}
			d := *kf.def
			if len(d) >= 2 && d[0] == '"' && d[len(d)-1] == '"' && !strings.Contains(d[1:len(d)-1], `"`) {
				u := d[1 : len(d)-1]
				kf.def = &u
			}
		}
	}
}

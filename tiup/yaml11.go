package tiup

import "regexp"

// TiUP reads topologies with gopkg.in/yaml.v2 (pingcap/tiup@v1.16.5 go.mod),
// which resolves plain scalars as YAML 1.1 does: `on`, `no`, `yes`, `y` are
// booleans, `1:20` is a sexagesimal integer (80), `0755` an octal one, and
// `2025-01-02` a timestamp. tiform's encoder follows YAML 1.2, where all of
// those are strings and are written plain. So every string tiform writes
// that a YAML 1.1 reader would take for something else is quoted
// (yaml11Typed); the test reads the output back with yaml.v2.

// yaml11Plain are the plain scalars YAML 1.1 resolves to a type other than
// string, after the type definitions of the YAML 1.1 type repository
// (https://yaml.org/type/): bool, null, int, float, timestamp, merge, value.
var yaml11Plain = []*regexp.Regexp{
	// bool: https://yaml.org/type/bool.html
	regexp.MustCompile(`^(?:y|Y|yes|Yes|YES|n|N|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF)$`),
	// null: https://yaml.org/type/null.html
	regexp.MustCompile(`^(?:~|null|Null|NULL|)$`),
	// int: https://yaml.org/type/int.html (binary, octal, decimal, hex,
	// sexagesimal), and Go's 0o octal, which yaml.v2 reads with
	// strconv.ParseInt(s, 0, 64)
	regexp.MustCompile(`^[-+]?(?:0b[0-1_]+|0o?[0-7_]+|0|[1-9][0-9_]*|0x[0-9a-fA-F_]+|[1-9][0-9_]*(?::[0-5]?[0-9])+)$`),
	// float: https://yaml.org/type/float.html as PyYAML, the reference
	// implementation, reads it (one '.'), and what yaml.v2 also reads
	// with strconv ("1e3", ".5", "1.")
	regexp.MustCompile(`^[-+]?(?:[0-9][0-9_]*)?\.[0-9_]*(?:[eE][-+]?[0-9]+)?$`),
	regexp.MustCompile(`^[-+]?[0-9][0-9_]*(?:\.[0-9_]*)?[eE][-+]?[0-9]+$`),
	regexp.MustCompile(`^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*$`),
	regexp.MustCompile(`^[-+]?\.(?:inf|Inf|INF)$|^\.(?:nan|NaN|NAN)$`),
	// timestamp: https://yaml.org/type/timestamp.html
	regexp.MustCompile(`^[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}(?:(?:[Tt]|[ \t]+)[0-9]{1,2}:[0-9]{2}:[0-9]{2}(?:\.[0-9]*)?(?:[ \t]*(?:Z|[-+][0-9]{1,2}(?::[0-9]{2})?))?)?$`),
	// merge and value keys: https://yaml.org/type/merge.html, value.html
	regexp.MustCompile(`^(?:<<|=)$`),
}

// yaml11Typed reports whether s, written as a plain scalar, would be read
// by a YAML 1.1 reader as anything but the string s.
func yaml11Typed(s string) bool {
	for _, re := range yaml11Plain {
		if re.MatchString(s) {
			return true
		}
	}
	return false
}

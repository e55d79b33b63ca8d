package schema

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/hashicorp/hcl/v2"
)

// lookAlike returns a description of the first character of a name that is
// not ASCII, and whether there is one. Names TiDB compares case-insensitively
// (resource groups) are lower-cased before they are checked, and some
// characters outside ASCII lower-case into it: the Kelvin sign U+212A
// becomes "k", so "\u212aeep" would pass as the group "keep" while a
// reviewer reads another name, and U+0130 (dotted capital I) becomes "i".
// Such a name is refused as written, before any case mapping.
func lookAlike(name string) (string, bool) {
	for _, r := range name {
		if r < utf8.RuneSelf {
			continue
		}
		if low := strings.ToLower(string(r)); low != string(r) && isASCII(low[:1]) {
			return fmt.Sprintf("U+%04X, which lower-cases to %+q", r, low), true
		}
		return fmt.Sprintf("U+%04X, not ASCII", r), true
	}
	return "", false
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// checkGroupNameASCII refuses a resource group label with a character
// outside ASCII (lookAlike), naming it; ok is false after the error.
func (l *loader) checkGroupNameASCII(label string, at hcl.Range) bool {
	what, found := lookAlike(label)
	if !found {
		return true
	}
	l.b.errorf(at, fmt.Sprintf("invalid resource group name %q: it holds %s", label, what),
		"A resource group name holds ASCII letters, digits and underscores only: a character from another script can look like an ASCII one, so that the name a reviewer reads is not the group TiDB changes.",
		"write the name in ASCII")
	return false
}

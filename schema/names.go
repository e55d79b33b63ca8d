package schema

import "github.com/tiform/tiform/state"

// The language's rules for names, for code that writes configuration
// (`tiform import`) and must write only what Load accepts.

// ValidConfigKey reports whether key is a config key the language accepts:
// dot-separated lower-case names, as SHOW CONFIG prints them.
func ValidConfigKey(key string) bool { return validKey(key) }

// ValidGroupName reports whether name can label a resource_group block.
func ValidGroupName(name string) bool {
	return groupNameRe.MatchString(name) && len(name) <= maxGroupName
}

// ParseAccount reads "user@host" as a resource group's users list does; the
// problem is "" when the account is valid.
func ParseAccount(s string) (state.UserRef, string) { return parseUser(s) }

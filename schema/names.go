package schema

import (
	"fmt"
	"strings"

	"github.com/tiform/tiform/state"
)

// The language's rules for names, for code that writes configuration
// (`tiform import`) and must write only what Load accepts.

// ValidConfigKey reports whether key is a config key the language accepts:
// dot-separated lower-case names, as SHOW CONFIG prints them.
func ValidConfigKey(key string) bool { return validKey(key) }

// MaxGroupName is the longest resource group name TiDB accepts, in bytes of
// the lower-cased name (pingcap/tidb@e4e814fdc0af:pkg/ddl/resourcegroup/group.go,
// MaxGroupNameLength, checked on the name's lower-case form by
// pkg/ddl/resource_group.go, checkResourceGroupValidation).
const MaxGroupName = 32

// GroupNameProblem is the one rule for resource group names: the label of a
// resource_group block, a query_limit's switch_group, a group `tiform
// import` writes. It returns "" for a name TiDB accepts and tiform can
// manage, else what is wrong and a hint.
//
// TiDB's rule, as the server applies it (pingcap/tidb@e4e814fdc0af): a
// backquoted identifier may hold any character (dashes, dots, spaces,
// reserved words, non-ASCII, leading and trailing spaces, which make a
// different group); names are compared in lower case (Go's strings.ToLower:
// `RG1` and `rg1` are one group, so are `ÉTÉ` and `été`, pkg/parser/ast
// model.NewCIStr); the lower-cased name is at most 32 bytes ("resource group
// name too long"). tiform quotes every name it sends (quote.Ident), so it
// accepts the same names, except the empty one and names that read as
// another (lookalike.go: a character lower-casing into ASCII, mixed
// scripts, invisible characters).
func GroupNameProblem(name string) (problem, hint string) {
	lower := strings.ToLower(name)
	switch {
	case name == "":
		return "the name is empty", "TiDB creates a group named `` but no session can use it (an account bound to it " +
			"runs in `default`) and it cannot be dropped while any account is bound to no group; name the group, for example resource_group \"oltp\""
	case lookAlikeName(name) != "":
		return lookAlikeName(name), "rename it so that it reads as what it is: one script, no invisible characters"
	case len(lower) > MaxGroupName:
		return fmt.Sprintf("%q is %d bytes long once lower-cased (UTF-8); TiDB allows %d", name, len(lower), MaxGroupName),
			fmt.Sprintf("shorten it to %d bytes or fewer: a non-ASCII letter takes 2 to 4 bytes (TiDB refuses longer names: \"resource group name too long\")", MaxGroupName)
	}
	return "", ""
}

// ValidGroupName reports whether name can label a resource_group block.
func ValidGroupName(name string) bool {
	p, _ := GroupNameProblem(name)
	return p == ""
}

// ParseAccount reads "user@host" as a resource group's users list does; the
// problem is "" when the account is valid.
func ParseAccount(s string) (state.UserRef, string) { return parseUser(s) }

// lookAlikeName is why name could read as another group, "" when it cannot.
func lookAlikeName(name string) string {
	if what, found := lookAlike(name); found {
		return fmt.Sprintf("%q holds %s: the name a reviewer reads would not be the group TiDB changes", name, what)
	}
	return ""
}

// Package quote builds SQL text safely: the one place identifiers and literals are
// quoted. Every statement tiform sends is built from these functions or bound
// parameters; user text is never concatenated into SQL unchecked.
package quote

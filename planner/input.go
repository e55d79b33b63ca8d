package planner

import (
	"strings"

	"github.com/tiform/tiform/diag"
)

// inputError is an error the configuration causes, at r: a diagnostic
// (file:line:col, the source line, a hint) that the caller turns back into
// diagnostics with diag.Diagnostics.Append, so that it is shown like every
// other problem in the configuration. related points at other places
// involved (the first of two declarations).
func inputError(r diag.SourceRange, summary, hint string, related ...diag.Related) error {
	return diag.Diagnostic{Severity: diag.Error, Summary: summary, Hint: hint, Range: r, Related: related}.Err()
}

// refusedAt is err (a value or a setting refused by the catalog) as a
// diagnostic at r, the declaration that gave it; an error that already
// carries diagnostics is returned as it is.
func refusedAt(r diag.SourceRange, err error) error {
	if _, ok := diag.As(err); ok {
		return err
	}
	return inputError(r, strings.TrimPrefix(err.Error(), "catalog: "), "")
}

// declaredHere is the related location of an earlier declaration.
func declaredHere(r diag.SourceRange) diag.Related {
	return diag.Related{Message: "first declared here", Range: r}
}

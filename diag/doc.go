// Package diag is tiform's one diagnostics model, used by every layer (in the
// spirit of Terraform's tfdiags): a Diagnostic has a Severity, a one-line
// Summary, a Detail, a Hint (the fix in one line), a SourceRange and the
// source line it points at (Snippet). The same Severity ranks guard findings.
//
// It owns:
//   - Severity (info < warning < error) and its text form;
//   - Pos and SourceRange, our copy of hcl.Range, so that state, planner and
//     render never import hcl;
//   - Diagnostics.Append, which takes plain errors, diagnostics and errors
//     that carry diagnostics (Diagnostics.Err), so that an error caused by
//     user input keeps its range, snippet and hint through every layer;
//   - Sources, the configuration's text with secrets masked, from which
//     snippets are filled;
//   - Write, the one compiler-style text rendering (file:line:col, snippet
//     with carets, detail, hint). The JSON rendering is views.Diagnostic.
//
// Contracts: it imports no other tiform package and no HCL; it does no I/O
// beyond the writer it is given; a Snippet only ever comes from Sources,
// which masks every secret it was given before storing any text.
package diag

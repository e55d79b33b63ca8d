// Package catalog is tiform's knowledge of TiDB settings: for every setting it
// knows, the component, key, value kind and how each component renders and
// parses it, whether it can change online (and what to do when it cannot), its
// scope, the versions it exists in, its default per version, the family it is
// managed with, related settings, and the tidb-facts.md section each fact
// comes from (Entry.Source).
//
// Every later stage reads it: schema (validation with Check, suggestions with
// SuggestConfig/SuggestVariable), live and planner (normalisation with
// Canonical: compare meaning, not spelling), guard (versions, families,
// restart-only items), applier (literal forms with SQLValue), render (Render
// shows values the way the component prints them).
//
// Setting (setting.go) is the one owner of value meaning for every setting,
// catalogued or not: for a key the catalog does not know it reads the kind
// from how the cluster printed the live value.
//
// It holds data and pure functions only, never does I/O, and imports nothing
// of tiform's except the leaf packages version and quote.
package catalog

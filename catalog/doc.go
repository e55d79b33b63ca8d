// Package catalog is tiform's knowledge of TiDB settings: for every setting it
// knows, the component, key, value kind and how each component renders and
// parses it, whether it can change online, its scope, the versions it exists
// in, its default per version, related settings, and the tidb-facts.md section
// each fact comes from.
//
// Every later stage reads it: schema (validation, suggestions), live and
// planner (normalisation: compare meaning, not spelling), guard (versions,
// families), applier (SQL literal forms).
//
// It holds data and pure functions only, and imports nothing of tiform's
// except version.
package catalog

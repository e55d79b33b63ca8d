// Package catalog is tiform's knowledge of TiDB settings: for every setting it
// knows, the component, key, value kind and how each component renders and
// parses it, whether it can change online (and what to do when it cannot), its
// scope, the versions it exists in, its default per version, the family it is
// managed with, related settings, and the public sources of each fact
// (Entry.Sources).
//
// Its base is the generated upstream table (internal/upstream: every TiKV and
// PD key and every system variable of v6.5.0 to v8.5.x and master, per
// version range); the overlay (overlay_*.go) adds what upstream does not
// state and must never contradict it; TiFlash entries are hand-modelled.
//
// Every later stage reads it: schema (validation with Check, suggestions with
// SuggestConfig/SuggestVariable, UnknownSetting), live and planner
// (normalisation: compare meaning, not spelling), guard (versions, families,
// restart-only items), applier (literal forms), render (Render shows values
// the way the component prints them), `tiform catalog` (Entries, Stats).
//
// Setting (setting.go) is the one owner of value meaning for every setting,
// catalogued or not: for a key the catalog does not know it reads the kind
// from how the cluster printed the live value.
//
// It holds data and pure functions only, never does I/O (the table is
// embedded), and imports nothing of tiform's except the leaf packages
// version and quote and the data package internal/upstream.
package catalog

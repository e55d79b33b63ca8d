// Package upstream holds the settable surface of TiDB as generated from the
// sources TiDB is built from, and nothing else: every TiKV config key (the
// OnlineConfig walk of tikv/tikv), every PD config key (the json tags of
// tikv/pd's config structs and the keys its config update API accepts) and
// every system variable (pingcap/docs-cn system-variables.md per release
// branch, with the release notes' patch-release changes), per version range,
// each fact with the repository, path and tag it comes from.
//
// The data is settings.json, written by tools/catalogen (`make catalog`) and
// embedded here; docs/catalog.md says how to regenerate it. This package
// only decodes it and answers "what does upstream say about key K at version
// V". It must not hold hand-written knowledge (that is the catalog's
// overlay), must not do I/O beyond reading the embedded file, and imports
// nothing of tiform's except version. Both the catalog and the emulator
// (internal/tidbsim) read it, so they agree on what exists without the
// emulator importing the catalog's logic.
package upstream

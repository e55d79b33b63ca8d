// Package importer turns what inspection read from live clusters
// (state.Live) into tiform configuration: the HCL a DBRE adopts a running
// fleet with (`tiform import`), and the in-place edits that accept drift into
// existing files (`tiform import --update`).
//
// It owns three decisions:
//   - what was tuned: a value is imported when it differs from the default of
//     the version the cluster runs, as the catalog records it (per version;
//     Options.All imports values at their default too). A value equal to an
//     older default is tuned all the same, and its comment says which
//     default it matches (a cluster upgraded from before the default changed
//     keeps the old value: region size, PD merge thresholds);
//   - where a value goes: type-wide when every instance agrees, a
//     per-instance block for each instance that does not; for a fleet, the
//     baseline holds what every selected cluster has in common and each
//     cluster block only its differences (docs/decisions/0013-import-baseline.md);
//   - how a value is written: the HCL literal of its catalog kind, with a
//     comment giving the version's default.
//
// Every byte of HCL it produces comes from hclwrite, and the output is in
// the canonical layout (`tiform fmt --check` passes on it).
//
// Contracts:
//   - It never writes a secret: a cluster's DSN becomes env("TIFORM_DSN_<NAME>").
//   - It does no I/O and never touches a cluster: callers read the clusters
//     (live) and write the files.
//   - It writes nothing the language would refuse: values the catalog rejects,
//     names HCL or TiDB cannot hold, settings that cannot be managed online
//     are left out and listed in the report, with the reason.
package importer

// Package planner computes a Plan: desired × live × version → ordered changes,
// each with its exact statements, the HCL source that caused it, how it is
// applied and persisted, and the guards' findings. It also computes the
// fingerprint of every live value a plan depends on, so apply can refuse a
// stale plan.
//
// It is pure: no I/O, no SQL connections, no clock (callers pass times in).
package planner

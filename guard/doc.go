// Package guard holds tiform's version-aware rules: what an expert TiDB operator
// would tell a reviewer about a plan. Each rule has a stable code (TF1xx), a
// severity, a message that says what to do, a link, and the source range it is
// about. Findings of severity error block apply.
//
// Rules are pure functions of the desired state, the live state (with
// per-component versions) and the planned changes. No I/O.
package guard

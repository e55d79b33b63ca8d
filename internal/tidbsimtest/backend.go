package tidbsimtest

import (
	"testing"

	"github.com/tiform/tiform/internal/tidbsim"
)

// Backend is a cluster a scenario runs against: the emulator (Cluster) or
// an upstream tidb-server (Real). Scenarios that only need the SQL layer
// (variables, resource groups, users, locks, statement summary) run against
// both through Each; scenarios that need TiKV or PD configuration run on the
// emulator only, because the real server's storage is unistore.
type Backend interface {
	// Name is "tidbsim" or "tidb-server".
	Name() string
	// IsReal reports whether the backend is an upstream tidb-server.
	IsReal() bool
	// HasStorageConfig reports whether TiKV and PD answer SHOW CONFIG and SET
	// CONFIG (the emulator's do; unistore has none).
	HasStorageConfig() bool
	DSN(user, password string) string
	RootDSN() string
	// Exec runs statements as root behind tiform's back; an error fails tb.
	Exec(tb TB, stmts ...string)
	// AddUser creates user@'%' with every privilege and returns its DSN.
	AddUser(tb TB, user, password string) string
	// Mark, Since and Count read the query log of what clients sent.
	Mark() int
	Since(mark int) []string
	Count(sub string) int
}

// Name is "tidbsim".
func (c *Cluster) Name() string { return "tidbsim" }

// IsReal is false: the emulator.
func (c *Cluster) IsReal() bool { return false }

// HasStorageConfig is true: the emulator models TiKV, PD and TiFlash config.
func (c *Cluster) HasStorageConfig() bool { return true }

// Name is "tidb-server".
func (r *Real) Name() string { return "tidb-server" }

// IsReal is true.
func (r *Real) IsReal() bool { return true }

// HasStorageConfig is false: unistore has no TiKV or PD to configure.
func (r *Real) HasStorageConfig() bool { return false }

// Needs says what a scenario needs of a backend.
type Needs struct {
	// StorageConfig: TiKV/PD SHOW CONFIG and SET CONFIG (the emulator only).
	StorageConfig bool
}

// Each runs fn as a subtest against every backend that has what needs asks
// for: "tidbsim" (an emulated cluster of opts) and "tidb-server" (a real
// server). The real subtest fails when the server cannot be built, and
// skips with a message under TIFORM_REAL_TIDB=off.
func Each(t *testing.T, needs Needs, opts tidbsim.Options, fn func(t *testing.T, b Backend)) {
	t.Helper()
	t.Run("tidbsim", func(t *testing.T) { fn(t, Start(t, opts)) })
	if needs.StorageConfig {
		return
	}
	t.Run("tidb-server", func(t *testing.T) { fn(t, StartReal(t, RealOptions{})) })
}

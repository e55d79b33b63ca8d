package cmd

import (
	"path/filepath"
	"testing"
)

// TestAuditLogPath: --audit-log, then $TIFORM_AUDIT_LOG, then the XDG state
// directory (an absolute $XDG_STATE_HOME, else ~/.local/state); never the
// configuration directory.
func TestAuditLogPath(t *testing.T) {
	home := t.TempDir()
	tests := []struct {
		name, flag, env, xdg, want string
	}{
		{"flag wins", "/x/flag.log", "/x/env.log", "/x/state", "/x/flag.log"},
		{"environment", "", "/x/env.log", "/x/state", "/x/env.log"},
		{"XDG_STATE_HOME", "", "", "/x/state", "/x/state/tiform/audit.log"},
		{"relative XDG_STATE_HOME is ignored", "", "", "state", filepath.Join(home, ".local/state/tiform/audit.log")},
		{"home", "", "", "", filepath.Join(home, ".local/state/tiform/audit.log")},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("HOME", home)
			t.Setenv(auditLogEnv, tc.env)
			t.Setenv("XDG_STATE_HOME", tc.xdg)
			got, err := auditLogPath(tc.flag)
			if err != nil || got != tc.want {
				t.Errorf("auditLogPath(%q) = %q, %v; want %q", tc.flag, got, err, tc.want)
			}
		})
	}
}

package render

import "testing"

func TestInlineDiff(t *testing.T) {
	tests := []struct{ a, b, want string }{
		{"PRIORITY=MEDIUM, RU_PER_SEC=1000", "PRIORITY=HIGH, RU_PER_SEC=1000", "PRIORITY=[-MEDIUM-]{+HIGH+}, RU_PER_SEC=1000"},
		{"EXEC_ELAPSED='1m0s', ACTION=KILL", "EXEC_ELAPSED='30s', ACTION=KILL", "EXEC_ELAPSED=[-'1m0s'-]{+'30s'+}, ACTION=KILL"},
		{"same", "same", "same"},
		{"", "new", "{+new+}"},
	}
	for _, tt := range tests {
		if got := inlineDiff(tt.a, tt.b, false); got != tt.want {
			t.Errorf("inlineDiff(%q, %q) = %q, want %q", tt.a, tt.b, got, tt.want)
		}
	}
	if got := inlineDiff("a", "b", true); got != ansiRed+"a"+ansiReset+ansiGreen+"b"+ansiReset {
		t.Errorf("colour diff = %q", got)
	}
}

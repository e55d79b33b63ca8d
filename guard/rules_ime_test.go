package guard

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tiform/tiform/state"
)

func TestIMEVersionTF130(t *testing.T) {
	addr := "tikv.in-memory-engine.enable"
	tests := []struct {
		name string
		tikv string
		want []brief
	}{
		{"8.4.9: before the IME", "8.4.9", []brief{{"TF130", "error", addr, 10}}},
		{"8.5.0: exists", "8.5.0", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fs := Evaluate(Input{Desired: desired(tikv(keyIMEEnable, "false")), Live: live("tikv=" + tt.tikv), Now: now})
			if diff := cmp.Diff(tt.want, only(fs, "TF13", "TF150")); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
}

func TestIMEEnableTF131TF132(t *testing.T) {
	addr := "tikv.in-memory-engine.enable"
	tests := []struct {
		name     string
		settings []any
		liveVal  string
		want     []brief
	}{
		{"false→true needs a restart", []any{tikv(keyIMEEnable, "true")}, "false",
			[]brief{{"TF131", "warning", addr, 10}}},
		{"absent live → true needs a restart", []any{tikv(keyIMEEnable, "true")}, "",
			[]brief{{"TF131", "warning", addr, 10}}},
		{"already on", []any{tikv(keyIMEEnable, "true")}, "true", nil},
		{"capacity by hand", []any{tikv(keyIMECap, "5GiB")}, "true",
			[]brief{{"TF132", "warning", "tikv.in-memory-engine.capacity", 10}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := live("tikv=8.5.7,8.5.7")
			if tt.liveVal != "" {
				l = withConfig(l, state.TiKV, keyIMEEnable, tt.liveVal)
			}
			fs := Evaluate(Input{Desired: desired(tt.settings...), Live: l, Now: now})
			if diff := cmp.Diff(tt.want, only(fs, "TF13")); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
}

func TestIMEBugsTF133(t *testing.T) {
	addr := "tikv.in-memory-engine.enable"
	tests := []struct {
		name      string
		tikv      string
		want      []brief
		has, lack string
	}{
		{"8.5.0: panic fixed in 8.5.1", "8.5.0", []brief{{"TF133", "warning", addr, 10}}, "tikv#18046", ""},
		{"8.5.1: jitter fixed in 8.5.2", "8.5.1", []brief{{"TF133", "warning", addr, 10}}, "tikv#17782", "tikv#18046"},
		{"8.5.2: stuck evictions fixed in 8.5.7", "8.5.2", []brief{{"TF133", "warning", addr, 10}}, "tikv#19584", "tikv#17782"},
		{"8.5.6: last affected patch", "8.5.6", []brief{{"TF133", "warning", addr, 10}}, "v8.5.7", ""},
		{"8.5.7: fixed", "8.5.7", nil, "", ""},
		{"9.0.0: not an 8.5 patch", "9.0.0", nil, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := withConfig(live("tikv="+tt.tikv), state.TiKV, keyIMEEnable, "true")
			fs := Evaluate(Input{Desired: desired(tikv(keyIMEEnable, "true")), Live: l, Now: now})
			if diff := cmp.Diff(tt.want, only(fs, "TF133")); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
			if tt.has != "" && !strings.Contains(find(t, fs, "TF133").Detail, tt.has) {
				t.Errorf("detail lacks %s", tt.has)
			}
			if tt.lack != "" && strings.Contains(find(t, fs, "TF133").Detail, tt.lack) {
				t.Errorf("detail still lists %s", tt.lack)
			}
		})
	}
	// Not enabled: nothing, declared false or live false.
	l := withConfig(live("tikv=8.5.1"), state.TiKV, keyIMEEnable, "false")
	if got := only(CheckCluster(l, now), "TF133"); got != nil {
		t.Errorf("IME off: %v", got)
	}
	l = withConfig(live("tikv=8.5.1"), state.TiKV, keyIMEEnable, "true")
	if diff := cmp.Diff([]brief{{"TF133", "warning", addr, 0}}, only(CheckCluster(l, now), "TF133")); diff != "" {
		t.Errorf("CheckCluster (-want +got)\n%s", diff)
	}
	if got := only(Evaluate(Input{Desired: desired(tikv(keyIMEEnable, "false")), Live: l, Now: now}), "TF133"); got != nil {
		t.Errorf("declared off: %v", got)
	}
}

package guard

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/tiform/tiform/diag"
)

func TestFormatText(t *testing.T) {
	f := Finding{
		Code: "TF140", Severity: diag.Error, Address: "tikv.resource-control.enabled", Range: at(18),
		Summary: "restart-only", Detail: "First paragraph.\n\n  SELECT 1;\n- item", Link: "https://example.invalid/x",
		Acknowledged: true, AckReason: "restart on Friday",
	}
	want := `error[TF140, acknowledged]: restart-only
  --> main.hcl:18:5 (tikv.resource-control.enabled)
  acknowledged: restart on Friday
  First paragraph.

    SELECT 1;
  - item
  see https://example.invalid/x
`
	if diff := cmp.Diff(want, FormatText(f)); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
	long := FormatText(Finding{Code: "TF101", Severity: diag.Warning, Detail: strings.Repeat("word ", 60)})
	for _, line := range strings.Split(long, "\n") {
		if len(line) > textWidth {
			t.Errorf("line longer than %d: %q", textWidth, line)
		}
	}
}

func TestSummary(t *testing.T) {
	fs := []Finding{{Severity: diag.Error}, {Severity: diag.Warning}, {Severity: diag.Warning}, {Severity: diag.Info}, {Severity: diag.Error, Acknowledged: true}}
	if got := Summary(fs); got != "1 error, 2 warnings, 1 info, 1 acknowledged" {
		t.Errorf("Summary = %q", got)
	}
	if got := Summary(nil); got != "no findings" {
		t.Errorf("Summary(nil) = %q", got)
	}
}

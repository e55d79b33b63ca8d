package schema

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/tiform/tiform/internal/cpumeter"
)

// BenchmarkLoad1000Files loads a configuration directory of 1,000 files:
// one with component config and variables, 999 with a resource group each
// (its rate from a variable, two users bound).
func BenchmarkLoad1000Files(b *testing.B) {
	dir := b.TempDir()
	write := func(name, text string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	write("main.hcl", `variable "rate" {
  default = 1000
}

tikv {
  gc {
    ratio-threshold = 1.3
  }
  coprocessor {
    region-split-size = "256MiB"
    region-max-size   = "384MiB"
  }
}

pd {
  schedule {
    leader-schedule-limit = 8
  }
}

variables {
  tidb_session_plan_cache_size = 200
}
`)
	for i := 1; i < 1000; i++ {
		write(fmt.Sprintf("group_%04d.hcl", i), fmt.Sprintf(`resource_group "g%04d" {
  ru_per_sec = var.rate + %d
  priority   = "medium"
  users      = ["app%04d@%%", "report%04d@10.0.%%"]
}
`, i, i, i, i))
	}
	b.ReportAllocs()
	b.ResetTimer()
	stop := cpumeter.Start(b)
	for i := 0; i < b.N; i++ {
		d, diags := Load(dir, Options{})
		if diags.HasErrors() {
			b.Fatal(diags.Err())
		}
		if n := len(d.Clusters[0].ResourceGroups); n != 999 {
			b.Fatalf("%d groups, want 999", n)
		}
	}
	stop()
}

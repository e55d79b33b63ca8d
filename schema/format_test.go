package schema

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestFormat(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{
			name: "indent and align",
			in: `tikv {
coprocessor {
region-split-size="256MiB"
region-max-size   =    "384MiB"
}
}
`,
			want: `tikv {
  coprocessor {
    region-split-size = "256MiB"
    region-max-size   = "384MiB"
  }
}
`,
		},
		{
			name: "already formatted is unchanged",
			in:   "variables {\n  tidb_enable_prepared_plan_cache = true\n}\n",
			want: "variables {\n  tidb_enable_prepared_plan_cache = true\n}\n",
		},
		{
			name: "comments are kept",
			in:   "# baseline\nresource_group \"oltp\" {\n    ru_per_sec = 2000 # budget\n  priority=\"HIGH\"\n}\n",
			want: "# baseline\nresource_group \"oltp\" {\n  ru_per_sec = 2000 # budget\n  priority   = \"HIGH\"\n}\n",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Format([]byte(tc.in))
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, string(got)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
			again, err := Format(got)
			if err != nil || string(again) != string(got) {
				t.Errorf("not idempotent: %v\n%s", err, again)
			}
		})
	}
}

func TestFormatSyntaxError(t *testing.T) {
	_, err := FormatFile("main.hcl", []byte("tikv {\n  x = \n"))
	if err == nil || !strings.HasPrefix(err.Error(), "schema: format main.hcl:") {
		t.Errorf("err = %v, want a positioned syntax error", err)
	}
}

// TestFormatFixturesIdempotent: every valid fixture formats to a fixed point.
func TestFormatFixturesIdempotent(t *testing.T) {
	files, _ := filepath.Glob("testdata/valid/*/*.hcl")
	if len(files) == 0 {
		t.Fatal("no fixtures")
	}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		once, err := Format(src)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		twice, _ := Format(once)
		if string(once) != string(twice) {
			t.Errorf("%s: not idempotent", f)
		}
		if string(once) != string(src) {
			t.Errorf("%s: fixture is not formatted (run tiform fmt)", f)
		}
	}
}

// TestSyntaxDiagnostics: what fmt prints for a file it refuses: position,
// snippet (passwords masked) and hint; nothing for a file that parses.
func TestSyntaxDiagnostics(t *testing.T) {
	if ds := SyntaxDiagnostics("ok.hcl", []byte("tikv {\n}\n")); ds != nil {
		t.Errorf("valid file: %v", ds)
	}
	ds := SyntaxDiagnostics("bad.hcl", []byte("cluster \"a\" {\n  dsn = \"app:hunter2@tcp(h:4000)/\" x\n}\n"))
	if len(ds) == 0 {
		t.Fatal("no diagnostics for a syntax error")
	}
	d := ds[0]
	if d.Range.Filename != "bad.hcl" || d.Range.Start.Line != 2 || d.Hint == "" || d.Snippet == "" {
		t.Errorf("diagnostic = %+v", d)
	}
	if strings.Contains(d.Snippet, "hunter2") {
		t.Errorf("snippet shows the password: %q", d.Snippet)
	}
}

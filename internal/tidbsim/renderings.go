package tidbsim

import (
	"fmt"
	"strings"
	"time"
)

// Renderings: the forms in which a cluster prints a value, by the same rules
// SHOW CONFIG, SHOW VARIABLES and SELECT @@ use in this emulator. A client's
// property tests draw from them, so that its comparison is checked against
// every form a cluster may print without starting a cluster per case.

// RenderTiKVSize is how SHOW CONFIG prints a TiKV (or TiFlash proxy) size:
// TiKV's ReadableSize ("256MiB", "1000B", "0KiB";
// tikv/tikv@v8.5.1:components/tikv_util/src/config.rs).
func RenderTiKVSize(b uint64) string { return formatReadableSize(b) }

// RenderTiKVDuration is how SHOW CONFIG prints a TiKV duration: TiKV's
// ReadableDuration ("10m", "1h30m", "1d", "0s"; same file).
func RenderTiKVDuration(d time.Duration) string { return formatReadableDuration(d) }

// RenderPDSize is how SHOW CONFIG prints a PD size: typeutil.ByteSize through
// go-units BytesSize, "%.4g" in the largest binary unit ("1.001GiB";
// tikv/pd@v8.5.1:pkg/utils/typeutil/size.go).
func RenderPDSize(b uint64) string { return formatPDByteSize(b) }

// RenderGoDuration is how PD (typeutil.Duration) and TiDB duration variables
// print a duration: Go's time.Duration.String ("1h0m0s").
func RenderGoDuration(d time.Duration) string { return formatPDDuration(d) }

// RenderConfigNumber is how SHOW CONFIG prints a number of any component:
// through a float64 and encoding/json ("1440000", "1.8446744073709552e+19",
// "1e-7"; pingcap/tidb@v8.5.1:pkg/executor/memtable_reader.go).
func RenderConfigNumber(text string) string { return renderJSONNumber(text) }

// RenderVariable returns how TiDB shows a GLOBAL value of a variable of type
// typ (bool, int, unsigned, float, enum, duration, string; possible lists an
// enum's values) set to value: show as SHOW VARIABLES prints it after TiDB's
// validation, sel as SELECT @@ returns it (booleans as 1/0). An error is
// TiDB's refusal of the value.
func RenderVariable(typ string, possible []string, value string) (show, sel string, err error) {
	t, ok := newerVarTypes[strings.ToLower(typ)]
	if !ok {
		return "", "", fmt.Errorf("tidbsim: RenderVariable: unknown type %q", typ)
	}
	d := &SysVarDef{Name: "rendered", Scope: ScopeGlobal, Type: t, Possible: possible}
	d.Min, d.Max = typeRange(t)
	show, err = d.validateType(&varCtx{}, value)
	if err != nil {
		return "", "", err
	}
	v := d.nativeValue(show)
	if v.Kind == KindInt {
		return show, fmt.Sprint(v.I), nil
	}
	return show, v.S, nil
}

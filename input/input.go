package input

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"strconv"
	"strings"
)

// Kind is a class of input file with its size limit.
type Kind struct {
	// What names the files in messages ("configuration file").
	What string
	// Default is the limit in bytes; Env the variable that overrides it.
	Default int64
	Env     string
}

// The kinds of input and their default limits.
var (
	Config   = Kind{What: "configuration file", Default: 16 << 20, Env: "TIFORM_MAX_CONFIG_SIZE"}
	Plan     = Kind{What: "plan or snapshot file", Default: 64 << 20, Env: "TIFORM_MAX_PLAN_SIZE"}
	Report   = Kind{What: "drift report", Default: 64 << 20, Env: "TIFORM_MAX_REPORT_SIZE"}
	State    = Kind{What: "rollout state file", Default: 64 << 20, Env: "TIFORM_MAX_REPORT_SIZE"}
	Included = Kind{What: "file read by file()", Default: 1 << 20} // not overridable: a setting's value
	// Topology is a TiUP topology (export tiup --check); tiup.Parse holds
	// the same bound for bytes given in memory.
	Topology = Kind{What: "topology file", Default: 16 << 20}
	// Manifest is a TiDB Operator manifest (operator_manifests);
	// operator.Parse holds the same bound.
	Manifest = Kind{What: "operator manifest", Default: 16 << 20, Env: "TIFORM_MAX_CONFIG_SIZE"}
)

// Limit is k's limit: its environment variable when set to a valid size
// (bytes, or a number with KiB, MiB or GiB), else its default.
func (k Kind) Limit() int64 {
	if k.Env == "" {
		return k.Default
	}
	if n, err := ParseSize(os.Getenv(k.Env)); err == nil && n > 0 {
		return n
	}
	return k.Default
}

// ParseSize reads "1048576", "512KiB", "16MiB" or "1GiB".
func ParseSize(s string) (int64, error) {
	s = strings.TrimSpace(s)
	mult := int64(1)
	for _, u := range []struct {
		suffix string
		mult   int64
	}{{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30}} {
		if strings.HasSuffix(s, u.suffix) {
			s, mult = strings.TrimSpace(strings.TrimSuffix(s, u.suffix)), u.mult
			break
		}
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n < 0 || n > (1<<62)/mult {
		return 0, fmt.Errorf("not a size: %q (write bytes, or a number with KiB, MiB or GiB)", s)
	}
	return n * mult, nil
}

// Size renders n bytes for messages: "16 MiB", "1.5 KiB", "300 bytes".
func Size(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d bytes", n)
}

// readOpened checks that f is a regular file within the limit and reads it.
func readOpened(f *os.File, path string, k Kind) ([]byte, error) {
	name := ""
	if path != "" {
		name = path + ": "
	}
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%snot a regular file (%s): a %s must be a plain file", name, modeName(st.Mode()), k.What)
	}
	limit := k.Limit()
	if st.Size() > limit {
		return nil, tooLarge(name, st.Size(), k, limit)
	}
	b, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(b)) > limit {
		return nil, tooLarge(name, int64(len(b)), k, limit)
	}
	return b, nil
}

func tooLarge(name string, size int64, k Kind, limit int64) error {
	raise := ""
	if k.Env != "" {
		raise = fmt.Sprintf("; if it is meant to be this large, raise the limit with %s=%dMiB", k.Env, (size+(1<<20)-1)>>20*2)
	}
	return fmt.Errorf("%sthe %s is %s, more than the limit of %s%s", name, k.What, Size(size), Size(limit), raise)
}

// modeName says what kind of file a non-regular mode is.
func modeName(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m&fs.ModeSocket != 0:
		return "a socket"
	}
	return "not a plain file"
}

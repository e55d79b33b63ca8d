package tidbsim

import (
	"strconv"
	"strings"

	"github.com/tiform/tiform/internal/upstream"
)

// INFORMATION_SCHEMA.CLUSTER_HARDWARE and CLUSTER_SYSTEMINFO: what each
// instance's diagnostics service reports about its host
// (https://docs.pingcap.com/tidb/stable/information-schema-cluster-hardware,
// https://docs.pingcap.com/tidb/stable/information-schema-cluster-systeminfo).
// TiDB fetches every instance that passes the TYPE/INSTANCE predicates
// (pingcap/tidb pkg/executor/memtable_reader.go clusterServerInfoRetriever:
// CONFIG for the hardware table, PROCESS for the system one) and lists its
// items in the order the instance reports them. The host of each instance
// is its Machine (Options.Machine, Options.InstanceMachines): the same the
// TiKV defaults computed from the machine assume (configmodel.go), as real
// TiKV reports exactly SysQuota::cpu_cores_quota() and
// SysQuota::memory_limit_in_bytes(), which its defaults use
// (tikv/tikv@v8.5.1:src/server/service/diagnostics/sys.rs
// cpu_hardware_info, mem_hardware_info).

// DefaultMachine is the host of every instance unless Options say
// otherwise: 8 CPUs, 64 GiB.
var DefaultMachine = upstream.Machine{CPU: 8, Memory: 64 << 30}

func init() {
	RegisterTable(&Table{
		Schema: "information_schema", Name: "cluster_hardware",
		Columns: []Column{{Name: "TYPE"}, {Name: "INSTANCE"}, {Name: "DEVICE_TYPE"}, {Name: "DEVICE_NAME"}, {Name: "NAME"}, {Name: "VALUE"}},
		Rows: func(s *Session, f *Filter) ([][]Value, error) {
			if !s.HasPrivilege("CONFIG") {
				return nil, ErrSpecificAccessDenied("CONFIG")
			}
			return serverInfoRows(s, f, hardwareItems), nil
		},
	})
	RegisterTable(&Table{
		Schema: "information_schema", Name: "cluster_systeminfo",
		Columns: []Column{{Name: "TYPE"}, {Name: "INSTANCE"}, {Name: "SYSTEM_TYPE"}, {Name: "SYSTEM_NAME"}, {Name: "NAME"}, {Name: "VALUE"}},
		Rows: func(s *Session, f *Filter) ([][]Value, error) {
			if !s.HasPrivilege("PROCESS") {
				return nil, ErrSpecificAccessDenied("PROCESS")
			}
			return serverInfoRows(s, f, systemItems), nil
		},
	})
}

// serverItem is one (type, name, key, value) of an instance's diagnostics
// answer (diagnosticspb ServerInfoItem, one row per pair).
type serverItem struct{ tp, name, key, value string }

// serverInfoRows fetches the instances the TYPE/INSTANCE predicates keep,
// one contact each; a down instance adds a warning and no rows, as for the
// config tables.
func serverInfoRows(s *Session, f *Filter, items func(*Instance) []serverItem) [][]Value {
	keep := func(col, v string) bool {
		vals, ok := f.Values(col)
		if !ok {
			return true
		}
		for _, x := range vals {
			if strings.EqualFold(x, v) {
				return true
			}
		}
		return false
	}
	c := s.Cluster
	var rows [][]Value
	var warns []string
	c.Mu.Lock()
	for _, in := range c.Instances {
		if !keep("TYPE", in.Type) || !keep("INSTANCE", in.Address) {
			continue
		}
		c.contacts++
		c.contactsByAddr[in.Address]++
		s.stmtContacts++
		if c.fault.Down[in.Address] {
			warns = append(warns, "rpc error: code = Unavailable desc = connection error: dial tcp "+in.StatusAddress+": connect: connection refused")
			continue
		}
		for _, it := range items(in) {
			rows = append(rows, []Value{Str(in.Type), Str(in.Address), Str(it.tp), Str(it.name), Str(it.key), Str(it.value)})
		}
	}
	c.Mu.Unlock()
	for _, w := range warns {
		s.AppendWarning(1105, "%s", w)
	}
	return rows
}

// hardwareItems is an instance's hardware answer: cpu, memory, one disk and
// one network card, with the names TiKV's sys.rs uses (TiDB and PD report
// the same names through pingcap/sysutil).
func hardwareItems(in *Instance) []serverItem {
	m := in.Machine
	cpu := func(k, v string) serverItem { return serverItem{"cpu", "cpu", k, v} }
	disk := func(k, v string) serverItem { return serverItem{"disk", "nvme0n1", k, v} }
	const diskTotal = 2 << 40
	used := uint64(diskTotal / 10)
	return []serverItem{
		cpu("cpu-logical-cores", formatCores(m.CPU)),
		cpu("cpu-physical-cores", strconv.Itoa(max(1, int(m.CPU)/2))),
		cpu("cpu-frequency", "2400MHz"),
		cpu("cpu-vendor-id", "GenuineIntel"),
		cpu("cpu-arch", "amd64"),
		cpu("l1-cache-size", "32768"),
		cpu("l1-cache-line-size", "64"),
		cpu("l2-cache-size", "1048576"),
		cpu("l2-cache-line-size", "64"),
		cpu("l3-cache-size", "37486592"),
		cpu("l3-cache-line-size", "64"),
		{"memory", "memory", "capacity", strconv.FormatUint(m.Memory, 10)},
		disk("type", "SSD"),
		disk("fstype", "ext4"),
		disk("path", "/"),
		disk("total", strconv.FormatUint(diskTotal, 10)),
		disk("free", strconv.FormatUint(diskTotal-used, 10)),
		disk("used", strconv.FormatUint(used, 10)),
		disk("free-percent", "0.90"),
		disk("used-percent", "0.10"),
		{"net", "eth0", "mac", "02:42:ac:11:00:02"},
		{"net", "eth0", "is-up", "true"},
	}
}

// formatCores prints a CPU quota as Rust prints an f64 (8.0 → "8", 2.5 →
// "2.5"): TiKV's cpu-logical-cores is SysQuota::cpu_cores_quota().to_string().
func formatCores(c float64) string { return strconv.FormatFloat(c, 'f', -1, 64) }

// systemItems is an instance's system answer: the sysctl values TiKV's
// system_info collects (tikv/tikv@v8.5.1:src/server/service/diagnostics/sys.rs
// get_sysctl_list), as a host tuned per
// https://docs.pingcap.com/tidb/stable/check-before-deployment has them.
func systemItems(in *Instance) []serverItem {
	sys := func(k, v string) serverItem { return serverItem{"system", "sysctl", k, v} }
	return []serverItem{
		sys("fs.file-max", "1000000"),
		sys("net.core.somaxconn", "32768"),
		sys("net.ipv4.tcp_syncookies", "0"),
		sys("vm.overcommit_memory", "1"),
		sys("vm.swappiness", "0"),
		{"system", "kernel", "transparent_hugepage_enabled", "always madvise [never]"},
	}
}

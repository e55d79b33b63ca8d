package live

import (
	"context"
	"errors"
	"strconv"
	"strings"

	"github.com/go-sql-driver/mysql"

	"github.com/tiform/tiform/state"
)

// stmtHardware reads what TiKV computes its machine-dependent defaults from:
// each TiKV instance's CPU quota and memory limit, which TiKV reports in
// CLUSTER_HARDWARE as cpu-logical-cores and memory capacity
// (tikv/tikv@v8.5.1:src/server/service/diagnostics/sys.rs cpu_hardware_info,
// mem_hardware_info: SysQuota::cpu_cores_quota, memory_limit_in_bytes). The
// TYPE predicate is pushed down, so only TiKV instances are contacted
// (https://docs.pingcap.com/tidb/stable/information-schema-cluster-hardware).
const stmtHardware = "SELECT INSTANCE, NAME, VALUE FROM INFORMATION_SCHEMA.CLUSTER_HARDWARE WHERE TYPE = 'tikv' AND DEVICE_TYPE IN ('cpu', 'memory') AND NAME IN ('cpu-logical-cores', 'capacity')"

// readHardware fills Live.Machines. It never fails the read: a cluster that
// hides the table (Security Enhanced Mode), or an account without CONFIG,
// gives a note, and the defaults TiKV computes from the machine are then
// not known (import says so by name).
func (in *inspector) readHardware(ctx context.Context) error {
	t, err := in.query(ctx, OpReadConfig, stmtHardware)
	if err != nil {
		if hidden(err) || denied(err) {
			in.l.Notes = append(in.l.Notes, "INFORMATION_SCHEMA.CLUSTER_HARDWARE could not be read ("+err.Error()+"): the TiKV defaults computed from each host's CPUs and memory are not known")
			return nil
		}
		return err
	}
	in.l.MachinesRead = true
	in.l.Machines = map[string]state.Machine{}
	for _, r := range t.rows {
		addr := strings.ToLower(str(r, 0))
		m := in.l.Machines[addr]
		switch str(r, 1) {
		case "cpu-logical-cores":
			if f, err := strconv.ParseFloat(str(r, 2), 64); err == nil && f > 0 {
				m.CPU = f
			}
		case "capacity":
			if n, err := strconv.ParseUint(str(r, 2), 10, 64); err == nil {
				m.Memory = n
			}
		}
		in.l.Machines[addr] = m
	}
	ws, err := in.warnings(ctx, "CLUSTER_HARDWARE")
	if err != nil {
		return err
	}
	for _, w := range ws {
		if serious(w) {
			in.l.Notes = append(in.l.Notes, "CLUSTER_HARDWARE reported "+w.String()+": the machine of an instance may be unknown")
		}
	}
	return nil
}

// denied reports a missing privilege (1227: CLUSTER_HARDWARE needs CONFIG).
func denied(err error) bool {
	var me *mysql.MySQLError
	if errors.As(err, &me) {
		return me.Number == 1227
	}
	var le *Error
	return errors.As(err, &le) && le.Code == 1227
}

package applier

// A scripted in-memory cluster behind database/sql, for testing Apply's
// control flow (stop / continue, retries after a statement took effect and
// the connection was lost, cancellation, lock contention) independently of
// the emulator. It understands exactly the statements the applier sends;
// anything else is an error, so a new statement cannot slip in unnoticed.
// Cluster behaviour follows TiDB: per-instance SET CONFIG failures are
// warnings (pingcap/tidb@v8.5.1:pkg/executor/set_config.go, SetConfigExec.Next)
// and a down instance has no CLUSTER_CONFIG rows
// (pingcap/tidb@v8.5.1:pkg/executor/memtable_reader.go, fetchClusterConfig).

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"fmt"
	"io"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/go-sql-driver/mysql"
)

type fakeCluster struct {
	mu     sync.Mutex
	cond   *sync.Cond
	topo   []instanceInfo
	config map[string]map[string]string // instance → key → value
	vars   map[string]string
	clamp  map[string][2]int // variable → [min, max]
	groups map[string]string // name → RU_PER_SEC
	down   map[string]bool
	nextID int64
	lock   map[string]int64 // lock name → holder conn id
	alive  map[int64]bool
	// hideClusterInfo makes CLUSTER_INFO invisible (SEM, TiDB Cloud).
	hideClusterInfo bool
	// marked are the other sessions marked as a tiform apply's lock
	// connection (lockholder.go), as PROCESSLIST shows them.
	marked []lockHolder
	log    []string // "conn-id: sql"
	// hook runs before every statement with the connection id and the
	// statement's index on that connection (1-based). It may return an error
	// to fail the statement; with dropAfter the statement runs first and
	// the connection is then lost (the client sees "invalid connection").
	hook func(id int64, n int, sql string) (err error, dropAfter bool)
}

func newFakeCluster() *fakeCluster {
	c := &fakeCluster{
		config: map[string]map[string]string{},
		vars:   map[string]string{"tidb_enable_instance_plan_cache": "OFF", "tidb_session_plan_cache_size": "100"},
		clamp:  map[string][2]int{"tidb_session_plan_cache_size": {1, 100000}},
		groups: map[string]string{"default": "UNLIMITED"},
		down:   map[string]bool{},
		lock:   map[string]int64{},
		alive:  map[int64]bool{},
		// Connection ids start high, as TiDB's do: IS_USED_LOCK answers 1 to
		// other sessions, which must not look like connection 1.
		nextID: 1000,
	}
	c.cond = sync.NewCond(&c.mu)
	c.topo = topo3
	for _, in := range topo3 {
		if in.Component == "tikv" {
			c.config[in.Address] = map[string]string{"coprocessor.region-split-size": "96MiB", "coprocessor.region-max-size": "144MiB"}
		}
		if in.Component == "pd" {
			c.config[in.Address] = map[string]string{"schedule.max-merge-region-size": "54"}
		}
	}
	return c
}

func (c *fakeCluster) db() *sql.DB { return sql.OpenDB(fakeConnector{c}) }

func (c *fakeCluster) statements() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]string(nil), c.log...)
}

type fakeConnector struct{ c *fakeCluster }

func (f fakeConnector) Connect(context.Context) (driver.Conn, error) {
	f.c.mu.Lock()
	defer f.c.mu.Unlock()
	f.c.nextID++
	f.c.alive[f.c.nextID] = true
	return &fakeConn{c: f.c, id: f.c.nextID}, nil
}
func (f fakeConnector) Driver() driver.Driver { return fakeDriver{} }

type fakeDriver struct{}

func (fakeDriver) Open(string) (driver.Conn, error) { return nil, fmt.Errorf("use the connector") }

type fakeConn struct {
	c        *fakeCluster
	id       int64
	n        int
	dead     bool
	warnings [][]any
	alias    string // tidb_session_alias
}

// IsValid lets database/sql discard a connection that was lost, as the MySQL
// driver's does.
func (x *fakeConn) IsValid() bool {
	x.c.mu.Lock()
	defer x.c.mu.Unlock()
	return !x.dead
}

func (x *fakeConn) Prepare(string) (driver.Stmt, error) { return nil, fmt.Errorf("fake: no prepare") }
func (x *fakeConn) Begin() (driver.Tx, error)           { return nil, fmt.Errorf("fake: no tx") }
func (x *fakeConn) Close() error {
	x.c.mu.Lock()
	defer x.c.mu.Unlock()
	x.die()
	return nil
}

// die releases the connection's locks (GET_LOCK locks are session-bound).
// Caller holds c.mu.
func (x *fakeConn) die() {
	x.dead = true
	delete(x.c.alive, x.id)
	for k, v := range x.c.lock {
		if v == x.id {
			delete(x.c.lock, k)
		}
	}
	x.c.cond.Broadcast()
}

func (x *fakeConn) ExecContext(ctx context.Context, q string, _ []driver.NamedValue) (driver.Result, error) {
	_, err := x.run(ctx, q)
	if err != nil {
		return nil, err
	}
	return driver.RowsAffected(0), nil
}

func (x *fakeConn) QueryContext(ctx context.Context, q string, _ []driver.NamedValue) (driver.Rows, error) {
	return x.run(ctx, q)
}

var (
	reClusterInfo = regexp.MustCompile(`^SELECT TYPE, INSTANCE, STATUS_ADDRESS, VERSION FROM INFORMATION_SCHEMA.CLUSTER_INFO$`)
	reConfig      = regexp.MustCompile("^SELECT TYPE, INSTANCE, `KEY`, VALUE FROM INFORMATION_SCHEMA.CLUSTER_CONFIG WHERE TYPE IN \\(([^)]+)\\) AND LOWER\\(`KEY`\\) IN \\(([^)]+)\\)$")
	reVars        = regexp.MustCompile(`^SHOW GLOBAL VARIABLES WHERE Variable_name IN \(([^)]+)\)$`)
	reSetConfig   = regexp.MustCompile("^SET CONFIG (tikv|pd|'[^']+') `([^`]+)` = '?([^']*)'?$")
	reSetGlobal   = regexp.MustCompile(`^SET GLOBAL ([a-z_]+) = '?([^']*)'?$`)
	reGetLock     = regexp.MustCompile(`^SELECT GET_LOCK\('([^']+)', (\d+)\)$`)
	reIsUsed      = regexp.MustCompile(`^SELECT IS_USED_LOCK\('([^']+)'\)(, CONNECTION_ID\(\))?$`)
	reRelease     = regexp.MustCompile(`^SELECT RELEASE_LOCK\('([^']+)'\)$`)
	reCreateGroup = regexp.MustCompile("^CREATE RESOURCE GROUP `([a-z_]+)` RU_PER_SEC = (\\d+)$")
	reDropGroup   = regexp.MustCompile("^DROP RESOURCE GROUP `([a-z_]+)`$")
)

func (x *fakeConn) run(ctx context.Context, q string) (driver.Rows, error) {
	c := x.c
	c.mu.Lock()
	defer c.mu.Unlock()
	if x.dead {
		return nil, driver.ErrBadConn
	}
	x.n++
	c.log = append(c.log, fmt.Sprintf("%d: %s", x.id, q))
	var drop bool
	if c.hook != nil {
		var err error
		if err, drop = c.hook(x.id, x.n, q); err != nil {
			return nil, err
		}
	}
	isShowWarnings := q == "SHOW WARNINGS"
	if !isShowWarnings {
		x.warnings = nil
	}
	rows, err := x.exec(ctx, q)
	if drop {
		x.die()
		return nil, mysql.ErrInvalidConn
	}
	return rows, err
}

func (x *fakeConn) warn(code int, msg string) {
	x.warnings = append(x.warnings, []any{"Warning", int64(code), msg})
}

// exec runs q; the caller holds c.mu.
func (x *fakeConn) exec(ctx context.Context, q string) (driver.Rows, error) {
	c := x.c
	switch {
	case q == "SHOW WARNINGS":
		return rowsOf([]string{"Level", "Code", "Message"}, x.warnings...), nil
	case q == "SELECT VERSION()":
		return rowsOf([]string{"VERSION()"}, []any{"8.0.11-TiDB-v8.5.1"}), nil
	case q == markStatement:
		x.alias = LockAlias
		return rowsOf(nil), nil
	case strings.Contains(q, "PROCESSLIST WHERE SESSION_ALIAS"):
		var rs [][]any
		for _, h := range c.marked {
			rs = append(rs, []any{h.Instance, h.ID, h.User, h.Host, h.Seconds})
		}
		return rowsOf([]string{"INSTANCE", "ID", "USER", "HOST", "TIME"}, rs...), nil
	case q == "SHOW GRANTS":
		return rowsOf([]string{"Grants for tiform@%"}, []any{"GRANT CONFIG ON *.* TO 'tiform'@'%'"}), nil
	case q == "SELECT CONNECTION_ID()":
		return rowsOf([]string{"CONNECTION_ID()"}, []any{x.id}), nil
	case reClusterInfo.MatchString(q) && c.hideClusterInfo:
		return nil, &mysql.MySQLError{Number: 1142, Message: "SELECT command denied to user 'u'@'%' for table 'cluster_info'"}
	case reClusterInfo.MatchString(q):
		var rs [][]any
		for _, in := range c.topo {
			rs = append(rs, []any{string(in.Component), in.Address, in.Status, "8.5.1"})
		}
		return rowsOf([]string{"TYPE", "INSTANCE", "STATUS_ADDRESS", "VERSION"}, rs...), nil
	}
	if m := reConfig.FindStringSubmatch(q); m != nil {
		types, keys := literals(m[1]), literals(m[2])
		var rs [][]any
		for _, in := range c.topo {
			if !types[string(in.Component)] {
				continue
			}
			if c.down[in.Address] {
				x.warn(1105, fmt.Sprintf("request http://%s/config failed: connection refused", in.Status))
				continue
			}
			var ks []string
			for k := range c.config[in.Address] {
				if keys[strings.ToLower(k)] {
					ks = append(ks, k)
				}
			}
			sort.Strings(ks)
			for _, k := range ks {
				rs = append(rs, []any{string(in.Component), in.Address, k, c.config[in.Address][k]})
			}
		}
		return rowsOf([]string{"TYPE", "INSTANCE", "KEY", "VALUE"}, rs...), nil
	}
	if m := reVars.FindStringSubmatch(q); m != nil {
		names := literals(m[1])
		var rs [][]any
		for n, v := range c.vars {
			if names[n] {
				rs = append(rs, []any{n, v})
			}
		}
		sort.Slice(rs, func(i, j int) bool { return rs[i][0].(string) < rs[j][0].(string) })
		return rowsOf([]string{"Variable_name", "Value"}, rs...), nil
	}
	if m := reSetConfig.FindStringSubmatch(q); m != nil {
		for _, in := range c.topo {
			if "'"+in.Address+"'" != m[1] && string(in.Component) != m[1] {
				continue
			}
			if c.down[in.Address] {
				x.warn(1105, fmt.Sprintf(`Post "http://%s/config": dial tcp %s: connect: connection refused`, in.Status, in.Status))
				continue
			}
			c.config[in.Address][m[2]] = m[3]
		}
		return rowsOf(nil), nil
	}
	if m := reSetGlobal.FindStringSubmatch(q); m != nil {
		v := m[2]
		if r, ok := c.clamp[m[1]]; ok {
			n, err := strconv.Atoi(v)
			if err != nil {
				return nil, &mysql.MySQLError{Number: 1232, Message: "Incorrect argument type to variable '" + m[1] + "'"}
			}
			if n < r[0] || n > r[1] {
				x.warn(1292, fmt.Sprintf("Truncated incorrect %s value: '%s'", m[1], v))
				n = max(r[0], min(n, r[1]))
				v = strconv.Itoa(n)
			}
		}
		if _, ok := c.vars[m[1]]; !ok {
			return nil, &mysql.MySQLError{Number: 1193, Message: "Unknown system variable '" + m[1] + "'"}
		}
		c.vars[m[1]] = v
		return rowsOf(nil), nil
	}
	if q == "SELECT * FROM INFORMATION_SCHEMA.RESOURCE_GROUPS" {
		names := make([]string, 0, len(c.groups))
		for n := range c.groups {
			names = append(names, n)
		}
		sort.Strings(names)
		var rs [][]any
		for _, n := range names {
			var bg any
			if n == "default" {
				bg = "NULL"
			}
			rs = append(rs, []any{n, c.groups[n], "MEDIUM", "NO", nil, bg})
		}
		return rowsOf([]string{"NAME", "RU_PER_SEC", "PRIORITY", "BURSTABLE", "QUERY_LIMIT", "BACKGROUND"}, rs...), nil
	}
	if m := reCreateGroup.FindStringSubmatch(q); m != nil {
		if _, ok := c.groups[m[1]]; ok {
			return nil, &mysql.MySQLError{Number: 8248, Message: "Resource group '" + m[1] + "' already exists"}
		}
		c.groups[m[1]] = m[2]
		return rowsOf(nil), nil
	}
	if m := reDropGroup.FindStringSubmatch(q); m != nil {
		delete(c.groups, m[1])
		return rowsOf(nil), nil
	}
	if m := reGetLock.FindStringSubmatch(q); m != nil {
		secs, _ := strconv.Atoi(m[2])
		deadline := time.Now().Add(time.Duration(secs) * time.Second)
		for {
			if h, ok := c.lock[m[1]]; !ok || h == x.id {
				c.lock[m[1]] = x.id
				return rowsOf([]string{"GET_LOCK"}, []any{int64(1)}), nil
			}
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			if !time.Now().Before(deadline) {
				return rowsOf([]string{"GET_LOCK"}, []any{int64(0)}), nil
			}
			// wake up periodically to notice the deadline and cancellation
			t := time.AfterFunc(20*time.Millisecond, func() { c.mu.Lock(); c.cond.Broadcast(); c.mu.Unlock() })
			c.cond.Wait()
			t.Stop()
		}
	}
	if m := reIsUsed.FindStringSubmatch(q); m != nil {
		// TiDB, not MySQL: the holder's own session gets its connection id,
		// any other session gets 1 whoever holds it (session.go
		// IsUsedAdvisoryLock: "TODO: Return actual owner pid").
		if h, ok := c.lock[m[1]]; ok {
			if h != x.id {
				h = 1
			}
			if m[2] != "" {
				return rowsOf([]string{"IS_USED_LOCK", "CONNECTION_ID()"}, []any{h, x.id}), nil
			}
			return rowsOf([]string{"IS_USED_LOCK"}, []any{h}), nil
		}
		if m[2] != "" {
			return rowsOf([]string{"IS_USED_LOCK", "CONNECTION_ID()"}, []any{nil, x.id}), nil
		}
		return rowsOf([]string{"IS_USED_LOCK"}, []any{nil}), nil
	}
	if m := reRelease.FindStringSubmatch(q); m != nil {
		if c.lock[m[1]] == x.id {
			delete(c.lock, m[1])
			c.cond.Broadcast()
			return rowsOf([]string{"RELEASE_LOCK"}, []any{int64(1)}), nil
		}
		return rowsOf([]string{"RELEASE_LOCK"}, []any{int64(0)}), nil
	}
	return nil, &mysql.MySQLError{Number: 1064, Message: "fake: unexpected statement: " + q}
}

type fakeRows struct {
	cols []string
	rows [][]any
	i    int
}

func rowsOf(cols []string, rows ...[]any) *fakeRows { return &fakeRows{cols: cols, rows: rows} }

func (r *fakeRows) Columns() []string { return r.cols }
func (r *fakeRows) Close() error      { return nil }
func (r *fakeRows) Next(dest []driver.Value) error {
	if r.i >= len(r.rows) {
		return io.EOF
	}
	for i, v := range r.rows[r.i] {
		dest[i] = v
	}
	r.i++
	return nil
}

// values returns key's value on every instance that has it, sorted.
func (c *fakeCluster) values(key string) []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []string
	for in, kv := range c.config {
		if v, ok := kv[key]; ok {
			out = append(out, in+"="+v)
		}
	}
	sort.Strings(out)
	return out
}

func (c *fakeCluster) set(f func(c *fakeCluster)) {
	c.mu.Lock()
	defer c.mu.Unlock()
	f(c)
}

// literals parses a list of quoted string literals ('a', 'b') into a set.
func literals(list string) map[string]bool {
	out := map[string]bool{}
	for _, p := range strings.Split(list, ",") {
		out[strings.Trim(strings.TrimSpace(p), "'")] = true
	}
	return out
}

// isSet reports whether statement q (or a log line) changes something: a
// SET other than the lock connection's mark.
func isSet(q string) bool { return strings.Contains(q, "SET ") && !strings.Contains(q, markStatement) }

package tidbsim

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// SHOW CONFIG, INFORMATION_SCHEMA.CLUSTER_CONFIG and CLUSTER_INFO
// (https://docs.pingcap.com/tidb/stable/sql-statement-show-config,
// https://docs.pingcap.com/tidb/stable/information-schema-cluster-config,
// https://docs.pingcap.com/tidb/stable/information-schema-cluster-info; the rows come from
// pingcap/tidb@v8.5.1:pkg/executor/memtable_reader.go fetchClusterConfig).

func init() {
	RegisterStatement("SHOW CONFIG", execShowConfig)
	RegisterTable(&Table{
		Schema: "information_schema", Name: "cluster_config",
		// TYPE, INSTANCE, KEY, VALUE (information-schema-cluster-config).
		Columns: []Column{{Name: "TYPE"}, {Name: "INSTANCE"}, {Name: "KEY"}, {Name: "VALUE"}},
		Rows:    clusterConfigRows,
	})
	RegisterTable(&Table{
		Schema: "information_schema", Name: "cluster_info",
		// information-schema-cluster-info: TYPE, INSTANCE, STATUS_ADDRESS, VERSION, GIT_HASH, START_TIME,
		// UPTIME, SERVER_ID.
		Columns: []Column{{Name: "TYPE"}, {Name: "INSTANCE"}, {Name: "STATUS_ADDRESS"}, {Name: "VERSION"}, {Name: "GIT_HASH"}, {Name: "START_TIME"}, {Name: "UPTIME"}, {Name: "SERVER_ID", Type: ColBigInt}},
		Rows:    clusterInfoRows,
	})
}

// configURL is the URL TiDB fetches an instance's config from (fetchClusterConfig).
func configURL(in *Instance) string {
	if in.Type == TypePD {
		return "http://" + in.StatusAddress + "/pd/api/v1/config"
	}
	return "http://" + in.StatusAddress + "/config"
}

// connectionRefused is the Go HTTP client error for a down instance, which
// fetchClusterConfig and SetConfigExec.Next pass on as a warning.
func connectionRefused(method string, in *Instance) string {
	return fmt.Sprintf(`%s "%s": dial tcp %s: connect: connection refused`, method, configURL(in), in.StatusAddress)
}

// fetchClusterConfig mirrors TiDB's fetchClusterConfig: for every instance in
// server-list order whose type/instance passes the filters (nil = all) it
// fetches the config (one contact each, in parallel: one latency for the whole
// fetch) and returns rows sorted by key per instance. A down instance adds a
// warning and no rows (pingcap/tidb@v8.5.1:pkg/executor/memtable_reader.go fetchClusterConfig).
// keep (nil: every key) leaves out the keys an exact filter rules out
// (Filter.Keep); it never changes what is contacted.
func fetchClusterConfig(s *Session, types, instances map[string]bool, keep *Match) ([][]Value, error) {
	if !s.HasPrivilege("CONFIG") {
		return nil, ErrSpecificAccessDenied("CONFIG")
	}
	c := s.Cluster
	var targets []*Instance
	for _, in := range c.Instances {
		if types != nil && !types[in.Type] {
			continue
		}
		if instances != nil && !instances[in.Address] {
			continue
		}
		targets = append(targets, in)
	}
	s.stmtContacts += len(targets)
	c.Mu.Lock()
	c.contacts += len(targets)
	for _, in := range targets {
		c.contactsByAddr[in.Address]++
	}
	latency, sleep := c.fault.Latency, c.sleep
	var rows [][]Value
	var warns []string
	for _, in := range targets {
		if c.fault.Down[in.Address] {
			warns = append(warns, connectionRefused("Get", in))
			continue
		}
		kvs := in.cfg.rows(in.Address, keep)
		// the instance's rows share one backing array, each a full-capacity
		// window on it
		vals := make([]Value, 0, 4*len(kvs))
		for _, kv := range kvs {
			vals = append(vals, Str(in.Type), Str(in.Address), Str(kv[0]), Str(kv[1]))
			rows = append(rows, vals[len(vals)-4:len(vals):len(vals)])
		}
	}
	c.Mu.Unlock()
	// TiDB's fetchClusterConfig fetches the instances concurrently (one
	// goroutine per server, pingcap/tidb@v8.5.1:pkg/executor/memtable_reader.go), so a read waits one latency however many instances it
	// contacts; SET CONFIG requests them one after another (contact).
	if latency > 0 && len(targets) > 0 {
		sleep(latency)
	}
	for _, w := range warns {
		s.AppendWarning(1105, "%s", w)
	}
	return rows, nil
}

// SHOW CONFIG [LIKE 'pat' | WHERE expr]: always fetches every instance and
// filters afterwards (pingcap/tidb@v8.5.1:pkg/executor/show.go
// fetchShowClusterConfigs); LIKE matches the first column, Type
// (https://docs.pingcap.com/tidb/stable/sql-statement-show-config).
func execShowConfig(s *Session, p *Parser) (*Result, error) {
	var like Expr
	var where Expr
	if p.AcceptKeyword("LIKE") {
		pat, err := p.StringLit()
		if err != nil {
			return nil, err
		}
		like = &LikeExpr{X: &ColumnRef{Parts: []string{"Type"}}, Pattern: &Literal{V: Str(pat)}}
	} else if p.AcceptKeyword("WHERE") {
		w, err := p.Expr()
		if err != nil {
			return nil, err
		}
		where = w
	}
	if err := p.End(); err != nil {
		return nil, err
	}
	rows, err := fetchClusterConfig(s, nil, nil, nil)
	if err != nil {
		return nil, err
	}
	cols := []string{"TYPE", "INSTANCE", "NAME", "VALUE"}
	res := &Result{Columns: []Column{{Name: "Type"}, {Name: "Instance"}, {Name: "Name"}, {Name: "Value"}}, Rows: [][]Value{}}
	for _, r := range rows {
		for _, cond := range []Expr{like, where} {
			if cond == nil {
				continue
			}
			v, err := cond.Eval(&EvalContext{Session: s, Columns: cols, Row: r, Clause: "where clause"})
			if err != nil {
				return nil, err
			}
			if b, ok := v.Truthy(); !ok || !b {
				r = nil
				break
			}
		}
		if r != nil {
			res.Rows = append(res.Rows, r)
		}
	}
	return res, nil
}

// clusterConfigRows serves INFORMATION_SCHEMA.CLUSTER_CONFIG: TYPE and INSTANCE
// equality/IN predicates are pushed down (lower-cased, as TiDB's
// ClusterTableExtractor does) and only matching instances are contacted
// (pingcap/tidb@v8.5.1:pkg/executor/memtable_reader.go clusterConfigRetriever).
func clusterConfigRows(s *Session, f *Filter) ([][]Value, error) {
	toSet := func(col string) map[string]bool {
		vals, ok := f.Values(col)
		if !ok {
			return nil
		}
		m := map[string]bool{}
		for _, v := range vals {
			m[strings.ToLower(v)] = true
		}
		return m
	}
	return fetchClusterConfig(s, toSet("TYPE"), toSet("INSTANCE"), f.Keep("KEY"))
}

// clusterInfoRows serves INFORMATION_SCHEMA.CLUSTER_INFO
// (https://docs.pingcap.com/tidb/stable/information-schema-cluster-info). Every
// instance is listed, down or not (the list comes from PD/etcd, not from the
// instances). START_TIME is rendered by the connected TiDB (see
// clusterInfoStartTime); UPTIME is a Go duration.
func clusterInfoRows(s *Session, _ *Filter) ([][]Value, error) {
	now := time.Now()
	var rows [][]Value
	for _, in := range s.Cluster.Instances {
		row := []Value{
			Str(in.Type), Str(in.Address), Str(in.StatusAddress), Str(in.infoVersion), Str(in.GitHash),
			Str(clusterInfoStartTime(s.Instance, in.StartTime)), Str(now.Sub(in.StartTime).String()), Int(in.ServerID),
		}
		if s.Cluster.SEM {
			// Under SEM, without RESTRICTED_TABLES_ADMIN (which no tidbsim
			// account holds, as for the tables SEM hides,
			// pingcap/tidb@v8.5.1:pkg/util/sem/sem.go IsInvisibleTable), TiDB
			// replaces INSTANCE with the SERVER_ID and blanks STATUS_ADDRESS,
			// START_TIME and UPTIME: pingcap/tidb master
			// pkg/executor/infoschema_reader.go dataForTiDBClusterInfo
			// (`if sem.IsEnabled() { … row[1].SetString(ServerID) … SetNull }`).
			row[1] = Str(strconv.FormatInt(in.ServerID, 10))
			row[2], row[5], row[6] = Null, Null, Null
		}
		rows = append(rows, row)
	}
	return rows, nil
}

// clusterInfoStartTime renders CLUSTER_INFO.START_TIME as the TiDB instance
// tidb renders it. pingcap/tidb master builds the column as a
// DATETIME datum (`types.NewTime(…, mysql.TypeDatetime, 0)` in
// pkg/executor/infoschema_reader.go dataForTiDBClusterInfo), printed
// "2024-02-29 11:59:21" — real pastes of v8.0.0-alpha (corpus versions.tsv
// gh-tidb-51410, gh-tidb-51409) and v7.6.0-alpha (tidb PR #48887) — while
// older code used time.RFC3339 ("2021-05-31T17:44:13+08:00", corpus rows of
// v4.0/v5.0). The release that changed it is UNCONFIRMED; tidbsim uses the
// DATETIME form from v7.6.0 and RFC3339 before (so v7.5.x is a guess).
func clusterInfoStartTime(tidb *Instance, t time.Time) string {
	if tidb != nil && tidb.Version.AtLeast(7, 6, 0) {
		return t.Format(time.DateTime)
	}
	return t.Format(time.RFC3339)
}

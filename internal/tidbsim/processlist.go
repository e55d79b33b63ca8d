package tidbsim

import (
	"sort"
	"sync"
)

// INFORMATION_SCHEMA.PROCESSLIST and CLUSTER_PROCESSLIST: the connected
// sessions (https://docs.pingcap.com/tidb/stable/information-schema-processlist).
// Columns as pingcap/tidb@e4e814fdc0af:pkg/infoschema/tables.go
// tableProcesslistCols defines them; CLUSTER_PROCESSLIST adds INSTANCE first
// and gathers every TiDB instance. An account without PROCESS sees only its
// own sessions (pkg/executor/infoschema_reader.go setDataForProcessList:
// "you can see only your own threads"). SESSION_ALIAS is the session's
// tidb_session_alias (v7.4.0+), which tiform's apply sets on its lock
// connection. What the emulator does not model reads as TiDB's defaults for
// an idle session: COMMAND "Sleep" (the querying session's "Query"), TIME 0,
// no statement, no memory or CPU figures.

type processListKey struct{}

// processList is the connection-bound sessions of a cluster, by id.
type processList struct {
	mu       sync.Mutex
	sessions map[uint32]*Session
}

func processListOf(c *Cluster) *processList {
	c.Mu.Lock()
	defer c.Mu.Unlock()
	pl, _ := c.ext[processListKey{}].(*processList)
	return pl
}

var processListColumns = []Column{
	{Name: "ID", Type: ColUnsignedBigInt, NotNull: true}, {Name: "USER", NotNull: true}, {Name: "HOST", NotNull: true},
	{Name: "DB"}, {Name: "COMMAND", NotNull: true}, {Name: "TIME", Type: ColBigInt, NotNull: true}, {Name: "STATE"},
	{Name: "INFO", Type: ColText}, {Name: "DIGEST"}, {Name: "MEM", Type: ColUnsignedBigInt}, {Name: "DISK", Type: ColUnsignedBigInt},
	{Name: "TxnStart", NotNull: true}, {Name: "RESOURCE_GROUP", NotNull: true}, {Name: "SESSION_ALIAS", NotNull: true},
	{Name: "ROWS_AFFECTED", Type: ColUnsignedBigInt}, {Name: "TIDB_CPU", Type: ColBigInt, NotNull: true},
	{Name: "TIKV_CPU", Type: ColBigInt, NotNull: true},
}

func init() {
	RegisterClusterInit(func(c *Cluster) { c.SetExt(processListKey{}, &processList{sessions: map[uint32]*Session{}}) })
	RegisterSessionInit(func(s *Session) {
		if s.closeConn == nil {
			return // a Go-level session (NewSession) is no connection
		}
		pl := processListOf(s.Cluster)
		pl.mu.Lock()
		pl.sessions[s.ID] = s
		pl.mu.Unlock()
	})
	RegisterSessionClose(func(s *Session) {
		pl := processListOf(s.Cluster)
		pl.mu.Lock()
		delete(pl.sessions, s.ID)
		pl.mu.Unlock()
	})
	RegisterTable(&Table{
		Schema: "information_schema", Name: "processlist", Columns: processListColumns,
		Rows: func(s *Session, _ *Filter) ([][]Value, error) { return processRows(s, false), nil },
	})
	RegisterTable(&Table{
		Schema: "information_schema", Name: "cluster_processlist",
		Columns: append([]Column{{Name: "INSTANCE"}}, processListColumns...),
		Rows:    func(s *Session, _ *Filter) ([][]Value, error) { return processRows(s, true), nil },
	})
}

// processRows lists the sessions s may see: its own account's, or every
// one with PROCESS; of its own TiDB instance, or of all with cluster.
func processRows(s *Session, cluster bool) [][]Value {
	pl := processListOf(s.Cluster)
	pl.mu.Lock()
	list := make([]*Session, 0, len(pl.sessions))
	for _, x := range pl.sessions {
		list = append(list, x)
	}
	pl.mu.Unlock()
	sort.Slice(list, func(i, j int) bool { return list[i].ID < list[j].ID })
	all := s.HasPrivilege("PROCESS")
	var rows [][]Value
	for _, x := range list {
		if !all && x.User != s.User || !cluster && x.Instance != s.Instance {
			continue
		}
		command := "Sleep"
		if x == s {
			command = "Query"
		}
		db := Null
		if x.CurrentDB != "" {
			db = Str(x.CurrentDB)
		}
		alias, _ := clusterVars(x.Cluster).Value(sessionVars(x), varTarget(x), "tidb_session_alias")
		row := []Value{Int(int64(x.ID)), Str(x.User), Str(x.Host), db, Str(command), Int(0), Null, Null, Str(""),
			Int(0), Int(0), Str(""), Str("default"), Str(alias), Int(0), Int(0), Int(0)}
		if cluster {
			row = append([]Value{Str(x.Instance.Address)}, row...)
		}
		rows = append(rows, row)
	}
	return rows
}

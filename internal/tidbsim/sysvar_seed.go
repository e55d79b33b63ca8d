package tidbsim

import (
	"fmt"
	"strings"

	"github.com/tiform/tiform/quote"
)

// Seeding helpers for tests and for bin/tidbsim --seed (whose "sql" list runs
// as root on the first TiDB instance at start). Every state the SQL domains
// model is reachable with SQL:
//
//	GLOBAL variables          SeedSetGlobal            SET GLOBAL `name` = 'value'
//	upgraded-cluster defaults Options.BootstrappedFrom (or SeedSetGlobal)
//	resource groups           SeedCreateResourceGroup  CREATE RESOURCE GROUP `name` <options>
//	users and bindings        SeedCreateUser           CREATE USER ... [RESOURCE GROUP `rg`]
//	privileges                SeedGrant                GRANT ... ON *.* TO ...
//	INSTANCE variables        SeedSetGlobal on the first instance; other
//	                          instances: SetInstanceVariable (Go only).

// SeedSetGlobal returns `SET GLOBAL name = 'value'`. The value goes as a string
// literal: TiDB validates and normalises it like any SET (ON/OFF, sizes,
// durations), so "ON", "2GiB", "72h" and "100" all work.
func SeedSetGlobal(name, value string) string {
	return "SET GLOBAL " + quote.Ident(name) + " = " + quote.String(value)
}

// SeedCreateResourceGroup returns `CREATE RESOURCE GROUP name options`;
// options is the option list as SQL (e.g. "RU_PER_SEC = 1000, PRIORITY = HIGH"),
// trusted test input.
func SeedCreateResourceGroup(name, options string) string {
	return "CREATE RESOURCE GROUP " + quote.Ident(name) + " " + options
}

// seedAccount renders a user for the statements above. Host '%' is the
// default and is left out ('u'); other hosts use 'u'@'h'.
func seedAccount(user, host string) string {
	if host == "" || host == "%" {
		return quote.String(user)
	}
	return quote.Account(user, host)
}

// SeedCreateUser returns CREATE USER for user@host with an optional password
// and resource group ("" for none).
func SeedCreateUser(user, host, password, group string) string {
	var b strings.Builder
	b.WriteString("CREATE USER " + seedAccount(user, host))
	if password != "" {
		b.WriteString(" IDENTIFIED BY " + quote.String(password))
	}
	if group != "" {
		b.WriteString(" RESOURCE GROUP " + quote.Ident(group))
	}
	return b.String()
}

// SeedGrant returns GRANT privs ON *.* TO user@host (privs such as "CONFIG",
// "SUPER", "RESOURCE_GROUP_ADMIN", "ALL PRIVILEGES").
func SeedGrant(user, host string, privs ...string) string {
	return "GRANT " + strings.Join(privs, ", ") + " ON *.* TO " + seedAccount(user, host)
}

// SetInstanceVariable sets an INSTANCE-scope variable (max_connections,
// tidb_slow_log_threshold; https://docs.pingcap.com/tidb/stable/system-variables) on TiDB instance i of srv, as `SET GLOBAL`
// on a connection to that instance would. It validates like SET GLOBAL and
// returns its warnings.
func SetInstanceVariable(srv *Server, i int, name, value string) ([]Warning, error) {
	tidbs := srv.Cluster.InstancesOf(TypeTiDB)
	if i < 0 || i >= len(tidbs) {
		return nil, fmt.Errorf("tidbsim: SetInstanceVariable: no TiDB instance %d (have %d)", i, len(tidbs))
	}
	in := tidbs[i]
	t := VarTarget{Instance: in.Address, Version: in.Version, VersionText: tidbVersionString(in), Newer: srv.Cluster.newerVars}
	d, err := lookupSysVar(t, name)
	if err != nil {
		return nil, err
	}
	if !d.Scope.has(ScopeInstance) {
		return nil, fmt.Errorf("tidbsim: SetInstanceVariable: %s is not an INSTANCE variable (scope %s)", d.Name, d.Scope)
	}
	return clusterVars(srv.Cluster).SetGlobal(t, name, Str(value))
}

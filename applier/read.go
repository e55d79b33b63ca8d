package applier

import (
	"context"
	"database/sql"
	"fmt"
	"regexp"
	"strings"

	"github.com/tiform/tiform/plans"
	"github.com/tiform/tiform/quote"
	"github.com/tiform/tiform/state"
	"github.com/tiform/tiform/version"
)

// Absent is the value recorded for a setting that does not exist (a resource
// group not created, a config row missing). It matches planner.Dependency's
// "<absent>" convention.
const Absent = plans.Absent

// session is what apply needs from a connection; *sql.Conn implements it.
type session interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

// instanceInfo is one instance of the topology the inspection read
// (INFORMATION_SCHEMA.CLUSTER_INFO:
// https://docs.pingcap.com/tidb/stable/information-schema-cluster-info): its
// status address attributes SET CONFIG warnings (which name the status URL)
// to it, and a read-back must cover every instance of a component.
type instanceInfo struct {
	Component state.Component
	Address   string
	Status    string
	Version   string
}

// topologyOf is the topology l read, each instance's version as
// CLUSTER_INFO printed it (as the plan's fingerprint pins it).
func topologyOf(l *state.Live) []instanceInfo {
	out := make([]instanceInfo, 0, len(l.Instances))
	for _, in := range l.Instances {
		v := in.VersionText
		if v == "" {
			v = in.Version.String()
		}
		out = append(out, instanceInfo{Component: in.Component, Address: in.Address, Status: in.StatusAddress, Version: v})
	}
	return out
}

func instancesOf(topo []instanceInfo, c state.Component) []string {
	var out []string
	for _, in := range topo {
		if in.Component == c {
			out = append(out, in.Address)
		}
	}
	return out
}

// reading is what one read of an address found.
type reading struct {
	// addr is the address read.
	addr state.Address
	// values holds the value per instance as the cluster printed it ("" for
	// values that are cluster-wide: variables, resource groups, users). A
	// config item missing on an instance is absent from the map; a missing
	// cluster-wide value reads as Absent.
	values map[string]string
	// group is a resource group as read (nil: it does not exist), and tidb
	// the TiDB version whose vocabulary its options are compared in.
	group *state.ResourceGroup
	tidb  version.Version
}

func sqlString(s string) string { return quote.String(s) }

func queryRow(ctx context.Context, s session, q string, dest ...any) error {
	rows, err := s.QueryContext(ctx, q)
	if err != nil {
		return err
	}
	defer rows.Close()
	if !rows.Next() {
		if err := rows.Err(); err != nil {
			return err
		}
		return sql.ErrNoRows
	}
	if err := rows.Scan(dest...); err != nil {
		return err
	}
	return rows.Close()
}

// readWarnings reads SHOW WARNINGS and attributes each to an instance when
// its message names the instance's status or service address (SET CONFIG
// per-instance failures: `bad request to http://<status>/config: …`,
// https://docs.pingcap.com/tidb/stable/dynamic-config#modify-tikv-configuration-dynamically;
// pingcap/tidb@v8.5.1:pkg/executor/set_config.go, SetConfigExec.Next).
func readWarnings(ctx context.Context, s session, topo []instanceInfo) ([]Warning, error) {
	rows, err := s.QueryContext(ctx, "SHOW WARNINGS")
	if err != nil {
		return nil, fmt.Errorf("applier: SHOW WARNINGS: %w", err)
	}
	defer rows.Close()
	var out []Warning
	for rows.Next() {
		var w Warning
		if err := rows.Scan(&w.Level, &w.Code, &w.Message); err != nil {
			return nil, fmt.Errorf("applier: SHOW WARNINGS: %w", err)
		}
		w.Instance = warningInstance(w.Message, topo)
		out = append(out, w)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("applier: SHOW WARNINGS: %w", err)
	}
	return out, nil
}

var urlHost = regexp.MustCompile(`https?://([^/\s"]+)`)

func warningInstance(msg string, topo []instanceInfo) string {
	if m := urlHost.FindStringSubmatch(msg); m != nil {
		for _, in := range topo {
			if in.Status == m[1] || in.Address == m[1] {
				return in.Address
			}
		}
	}
	for _, in := range topo {
		if in.Status != "" && strings.Contains(msg, in.Status) {
			return in.Address
		}
	}
	for _, in := range topo {
		if strings.Contains(msg, in.Address) {
			return in.Address
		}
	}
	return ""
}

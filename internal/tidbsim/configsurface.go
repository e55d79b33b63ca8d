package tidbsim

import (
	"fmt"
	"strings"
	"sync"

	"github.com/tiform/tiform/internal/upstream"
	"github.com/tiform/tiform/version"
)

// The whole surface a config endpoint returns, per instance, as a TiUP
// deployment has it: what each member and instance prints about itself
// (name, URLs, addresses, paths), not only the settings.
//
// PD: the keys and default renderings of GET /pd/api/v1/config come from
// running PD's own config code at each tag (internal/upstream/pd_surface.json,
// tools/pdsurface), for the run that stands for the member's version
// (Surface.RunFor). A member's own values are placeholders there, filled as
// TiUP's run_pd.sh.tpl starts it (pingcap/tiup embed/templates/scripts):
// --name pd-<host>-<port>, --client-urls http://0.0.0.0:<port>,
// --advertise-client-urls http://<host>:<port>, the peer URLs on the next
// port, --data-dir /tidb-data/pd-<port>, --log-file
// /tidb-deploy/pd-<port>/log/pd.log, --initial-cluster naming every member.
//
// TiKV: the serde dump of its running config (tikv/tikv@v8.5.1:
// src/server/status_server/mod.rs get_config, hidden items filtered by
// get_encoder): every key of the generated table that is not
// #[online_config(hidden)], with defaults computed from the instance's
// machine where TiKV computes them (upstream.MachineRule) and the
// instance's own values as TiUP's run_tikv.sh.tpl passes them: --addr
// 0.0.0.0:<port>, --advertise-addr <host>:<port>, --status-addr
// 0.0.0.0:<status>, --advertise-status-addr <host>:<status>, --pd <every
// PD>, --data-dir /tidb-data/tikv-<port>, --log-file
// /tidb-deploy/tikv-<port>/log/tikv.log; paths TiKV derives from the data
// directory in TikvConfig::validate (raftstore.raftdb-path <data>/raft,
// raft-engine.dir <data>/raft-engine, log-backup.temp-path
// <data>/log-backup-temp).

// deployHost is the host an instance's address names.
func deployHost(in *Instance) string {
	h, _ := splitHostPort(in.Address)
	return h
}

func deployPort(addr string) string {
	_, p := splitHostPort(addr)
	return p
}

// pdMemberName is TiUP's name of a PD member: pd-<host>-<client port>
// (pingcap/tiup pkg/cluster/spec/pd.go, PDSpec Name default).
func pdMemberName(in *Instance) string {
	return "pd-" + deployHost(in) + "-" + deployPort(in.Address)
}

// pdPeerPort is the member's peer port: the client port + 1 (TiUP's
// defaults 2379/2380).
func pdPeerPort(in *Instance) string {
	var p int
	fmt.Sscanf(deployPort(in.Address), "%d", &p)
	return fmt.Sprint(p + 1)
}

// pdPlaceholders are a member's values for the placeholders of its surface.
func (c *Cluster) pdPlaceholders(in *Instance) *strings.Replacer {
	host, port := deployHost(in), deployPort(in.Address)
	var initial []string
	for _, m := range c.InstancesOf(TypePD) {
		initial = append(initial, pdMemberName(m)+"=http://"+deployHost(m)+":"+pdPeerPort(m))
	}
	return strings.NewReplacer(
		"{{name}}", pdMemberName(in),
		"/{{data-dir}}", "/tidb-data/pd-"+port,
		"/{{log-file}}", "/tidb-deploy/pd-"+port+"/log/pd.log",
		"{{client-urls}}", "http://0.0.0.0:"+port,
		"{{advertise-client-urls}}", "http://"+host+":"+port,
		"{{peer-urls}}", "http://0.0.0.0:"+pdPeerPort(in),
		"{{advertise-peer-urls}}", "http://"+host+":"+pdPeerPort(in),
		"{{initial-cluster}}", strings.Join(initial, ","),
	)
}

// pdSurfaceItems are the keys PD prints at v that the generated table does
// not have (or has under another case: v6.5 prints ElectionInterval), as
// display items with the printed default, and the table keys it prints,
// with that default. A placeholder default is a member's own value
// (configItem.member).
func pdSurfaceItems(v version.Version) (extra []configItem, printed map[string]upstream.SurfaceRow, run version.Version) {
	key := v.Short()
	if c, ok := pdSurfaceCache.Load(key); ok {
		e := c.(pdSurfaceEntry)
		return e.extra, e.printed, e.run
	}
	s := upstream.MustPDSurface()
	up := upstreamConfig(TypePD, v)
	printed = map[string]upstream.SurfaceRow{}
	ref := s.RunFor(v)
	run = version.MustParse(ref)
	for _, row := range s.Rows(ref) {
		lower := strings.ToLower(row.Key)
		if _, ok := up[lower]; ok && lower == row.Key {
			printed[lower] = row
			continue
		}
		it := configItem{name: row.Key, kind: displayKind(row.JSON), def: row.Value, static: true,
			member: strings.Contains(row.Value, "{{")}
		extra = append(extra, it)
	}
	pdSurfaceCache.Store(key, pdSurfaceEntry{extra, printed, run})
	return extra, printed, run
}

type pdSurfaceEntry struct {
	extra   []configItem
	printed map[string]upstream.SurfaceRow
	run     version.Version
}

var pdSurfaceCache sync.Map

// displayKind is how a display item renders: numbers through float64,
// the rest as printed.
func displayKind(json string) valueKind {
	switch json {
	case "number":
		return dNumber
	case "bool":
		return dBool
	}
	return dString
}

// tikvIdentity is what one TiKV instance prints about itself, as stored
// values of its config.
func (c *Cluster) tikvIdentity(in *Instance) map[string]string {
	host, port := deployHost(in), deployPort(in.Address)
	status := deployPort(in.StatusAddress)
	var pds []string
	for _, pd := range c.InstancesOf(TypePD) {
		pds = append(pds, `"`+pd.Address+`"`)
	}
	data := "/tidb-data/tikv-" + port
	return map[string]string{
		"server.addr":                  "0.0.0.0:" + port,
		"server.advertise-addr":        host + ":" + port,
		"server.status-addr":           "0.0.0.0:" + status,
		"server.advertise-status-addr": host + ":" + status,
		"pd.endpoints":                 "[" + strings.Join(pds, ",") + "]",
		"storage.data-dir":             data,
		"log.file.filename":            "/tidb-deploy/tikv-" + port + "/log/tikv.log",
		"raftstore.raftdb-path":        data + "/raft",
		"raft-engine.dir":              data + "/raft-engine",
		"log-backup.temp-path":         data + "/log-backup-temp",
	}
}

// machineDefaults computes, for the TiKV items whose default TiKV derives
// from the machine at v and that the config file does not set, the value
// on the instance's machine (upstream.MachineRule, each citing its source).
func machineDefaults(in *Instance, ic *instanceConfig, set map[string]bool) {
	live := func(k string) (string, bool) {
		it, ok := ic.items[k]
		if !ok {
			return "", false
		}
		v, ok := ic.vals[k]
		if !ok {
			return "", false
		}
		return renderValue(it, v), true
	}
	for _, name := range ic.names {
		if set[name] {
			continue
		}
		r := table.MachineRuleFor(upstream.TiKV, name, in.Version)
		if r == nil {
			continue
		}
		if v, why := r.Compute(in.Machine, live); why == "" {
			ic.vals[name] = v
		}
	}
}

package tiup

import (
	"net"
	"strconv"
	"strings"

	"github.com/tiform/tiform/catalog"
	"github.com/tiform/tiform/state"
)

// place says where one component's config lives in a topology
// (pingcap/tiup@v1.16.5:pkg/cluster/spec).
type place struct {
	section   string // key under server_configs
	servers   string // the list of hosts
	hostField string // the host entry's config map
	portField string // the host entry's field that, with host, is the instance address
	port      int    // that field's default
}

var (
	tikvPlace    = place{"tikv", "tikv_servers", "config", "port", 20160}
	pdPlace      = place{"pd", "pd_servers", "config", "client_port", 2379}
	learnerPlace = place{"tiflash-learner", "tiflash_servers", "learner_config", "flash_service_port", 3930}
)

// proxyPrefix is how SHOW CONFIG names TiFlash proxy items, and what SET
// CONFIG tiflash strips before sending the rest to the proxy
// (https://docs.pingcap.com/tidb/stable/create-tiflash-replicas): the
// proxy's file is tiflash-learner.toml, server_configs.tiflash-learner in
// TiUP.
const proxyPrefix = "raftstore-proxy."

// locate returns where tiform's config key of comp (as SHOW CONFIG names
// it) lives in a topology, and the key there. ok is false for keys TiUP
// cannot hold for tiform (TiDB config, TiFlash items outside the proxy).
func locate(comp state.Component, key string) (p place, topoKey string, ok bool) {
	key = strings.ToLower(key)
	switch comp {
	case state.TiKV:
		return tikvPlace, key, true
	case state.PD:
		return pdPlace, key, true
	case state.TiFlash:
		if strings.HasPrefix(key, proxyPrefix) && len(key) > len(proxyPrefix) {
			return learnerPlace, strings.TrimPrefix(key, proxyPrefix), true
		}
	}
	return place{}, "", false
}

// splitInstance splits a service address into host and port; ok is false
// when it is not host:port.
func splitInstance(addr string) (string, int, bool) {
	h, p, err := net.SplitHostPort(addr)
	if err != nil || h == "" {
		return "", 0, false
	}
	n, err := strconv.Atoi(p)
	if err != nil {
		return "", 0, false
	}
	return h, n, true
}

// Reverted reports whether a reload or upgrade would put back the topology's
// value (or the built-in default) over an online change of key: TiKV and the
// TiFlash proxy regenerate their config files; PD only for items it does not
// keep in etcd (catalog.PDKeepsInEtcd).
func Reverted(comp state.Component, key string) bool {
	return comp != state.PD || !catalog.PDKeepsInEtcd(key)
}

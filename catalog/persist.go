package catalog

import "strings"

// pdEtcdSections are the sections of PD's configuration PD stores in etcd
// when it is bootstrapped and loads from there on every start, over its
// config file (tikv/pd@v8.5.1:server/config/persist_options.go,
// PersistOptions.Reload: schedule, replication, pd-server,
// replication-mode, label-property, keyspace, micro-service; the cluster
// version too). An online change of these survives a restart, a `tiup
// cluster reload` and an upgrade whatever the topology or the PD config file
// says (pingcap/tiup#442).
var pdEtcdSections = []string{"schedule.", "replication.", "pd-server.", "replication-mode.", "label-property.", "keyspace.", "micro-service.", "cluster-version"}

// PDKeepsInEtcd reports whether PD keeps its config item key (as SHOW
// CONFIG names it) in etcd, ahead of its config file: the one owner of
// that fact (tiup, the planner's persisted layer and upgrade impact ask it).
func PDKeepsInEtcd(key string) bool {
	k := strings.ToLower(key)
	for _, p := range pdEtcdSections {
		if strings.HasPrefix(k, p) {
			return true
		}
	}
	return false
}

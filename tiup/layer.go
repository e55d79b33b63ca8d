package tiup

import (
	"fmt"
	"sort"

	"github.com/tiform/tiform/state"
)

// Places is the topology as the persisted layer of a cluster
// (state.Persisted): per component it holds, the server_configs section
// every instance takes, then each host entry with its own config (a host's
// value wins over server_configs: pingcap/tiup@v1.16.5
// pkg/cluster/spec/server_config.go, merged per instance). Keys are named as
// SHOW CONFIG names them: TiFlash proxy items (learner_config,
// server_configs.tiflash-learner) get their raftstore-proxy. prefix back.
// file names the topology in each place's Where.
func (t *Topology) Places(file string) []state.PersistedPlace {
	var out []state.PersistedPlace
	for _, c := range []struct {
		comp   state.Component
		p      place
		prefix string
	}{{state.PD, pdPlace, ""}, {state.TiKV, tikvPlace, ""}, {state.TiFlash, learnerPlace, proxyPrefix}} {
		global, inGlobal := t.Global[c.p.section]
		hosts, inHosts := t.Hosts[c.p.servers]
		if !inGlobal && !inHosts {
			continue
		}
		out = append(out, state.PersistedPlace{Component: c.comp, Where: "server_configs." + c.p.section + " (" + file + ")",
			File: file, Values: prefixed(global, c.prefix)})
		addrs := make([]string, 0, len(hosts))
		for a := range hosts {
			addrs = append(addrs, a)
		}
		sort.Strings(addrs)
		for _, a := range addrs {
			if len(hosts[a]) == 0 {
				continue
			}
			out = append(out, state.PersistedPlace{Component: c.comp, Instance: a,
				Where: c.p.servers + " " + a + " " + c.p.hostField + " (" + file + ")", File: file, Values: prefixed(hosts[a], c.prefix)})
		}
	}
	return out
}

func prefixed(kv map[string]string, prefix string) map[string]string {
	out := make(map[string]string, len(kv))
	for k, v := range kv {
		out[prefix+k] = v
	}
	return out
}

// ReloadCommand is the TiUP command that rewrites comp's config files from
// the topology after it was edited: with restart false (the values already
// run, applied online) `--skip-restart` only refreshes the files; a
// restart-only value needs the rolling restart of the role
// (https://docs.pingcap.com/tidb/stable/tiup-component-cluster-reload).
func ReloadCommand(cluster string, comp state.Component, restart bool) (cmd, effect string) {
	role := string(comp)
	cmd = fmt.Sprintf("tiup cluster reload %s -R %s", clusterOrPlaceholder(cluster), role)
	if !restart {
		return cmd + " --skip-restart", "refreshes the config files, restarts nothing"
	}
	return cmd, "a rolling restart of every " + role + " instance"
}

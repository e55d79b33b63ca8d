// Package tiup owns what tiform knows about TiUP cluster topologies
// (https://docs.pingcap.com/tidb/stable/tiup-cluster-topology-reference):
// where a TiKV, PD or TiFlash config key lives in a topology (server_configs
// for every instance, a host's config for one), rendering the declared
// settings as the YAML `tiup cluster edit-config` takes, reading a topology
// (`tiup cluster show-config` output, or the cluster's meta.yaml), and
// comparing it with the declared settings.
//
// Why it matters: TiKV writes an online change into its config file, but
// `tiup cluster reload` and `upgrade` regenerate that file from the topology
// and overwrite it (https://docs.pingcap.com/tidb/stable/dynamic-config,
// pingcap/tiup#1918); on TiKV v8.4.0–v8.5.2 an undeclared Region size even
// silently becomes the new default at the restart (tikv/tikv#18503). PD keeps
// online changes in etcd, which prevails over its config file after
// bootstrap (pingcap/tiup#442), so a PD value missing from the topology is
// not reverted.
//
// The topology schema followed is pingcap/tiup@v1.16.5
// pkg/cluster/spec/spec.go (Specification, ServerConfigs), tikv.go
// (TiKVSpec), pd.go (PDSpec) and tiflash.go (TiFlashSpec).
//
// Contracts: it does no I/O (callers read and print); every string it writes
// reads back as that string in YAML 1.1, which TiUP's reader follows (on, no,
// 1:20 are quoted: yaml11.go); values are compared
// through the catalog (Canonical), never as raw text when the catalog knows
// the setting; reading a topology is bounded (MaxTopologyBytes) and never
// panics on hostile YAML.
package tiup

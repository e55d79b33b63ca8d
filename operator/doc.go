// Package operator owns what tiform knows about TiDB Operator resources as
// the persisted layer of a cluster: reading the config a TidbCluster (TiDB
// Operator v1) or a PDGroup, TiKVGroup, TiDBGroup or TiFlashGroup (v2) keeps
// for its pods, and writing the patch that makes them hold the declared
// values.
//
// The formats followed:
//   - v1, apiVersion pingcap.com/v1alpha1, kind TidbCluster:
//     spec.pd.config, spec.tikv.config, and the TiFlash proxy's
//     spec.tiflash.config.proxy (pingcap/tidb-operator@v1.6.1
//     pkg/apis/pingcap/v1alpha1/types.go: TidbClusterSpec, PDSpec.Config,
//     TiKVSpec.Config, TiFlashSpec.Config with its TiFlashConfigWraper
//     fields config and proxy). Each config is a GenericConfig, which takes
//     either a TOML string or a YAML map (pkg/apis/util/config/config.go,
//     GenericConfig.UnmarshalJSON); both are read.
//   - v2, apiVersion core.pingcap.com/v1alpha1, kinds PDGroup, TiKVGroup,
//     TiDBGroup, TiFlashGroup: spec.template.spec.config, a TOML string
//     (api/core/v1alpha1/tikv_types.go TiKVTemplateSpec.Config of type
//     ConfigFile, common_types.go), and for TiFlash spec.template.spec.proxyConfig
//     (tiflash_types.go TiFlashTemplateSpec.ProxyConfig).
//
// A file may hold several YAML documents (as `kubectl get -o yaml` of a
// list, or a kustomize output); documents of other kinds (Cluster, Service,
// …) are skipped.
//
// Why it matters: the Operator renders each pod's config file from these
// fields, so an online change (SET CONFIG) that they do not hold is gone at
// the next rolling update or pod restart (pingcap/tidb-operator#3558); and
// a change to them rolls the group's pods.
//
// Contracts: no I/O (package input reads the files, cmd and schema print);
// a file is bounded (MaxManifestBytes), YAML aliases and nesting are
// bounded, a hostile file ends in an *Error with its line and column, never
// a panic; values are compared through the catalog (state and planner), and
// written with the type the component's TOML file takes (tiup.Scalar, the
// one owner of that).
package operator

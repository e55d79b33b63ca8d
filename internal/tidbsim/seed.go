package tidbsim

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
)

// Seed describes a cluster's initial state in a JSON file (bin/tidbsim
// --seed). Every field is optional; command-line flags override the topology
// fields. Example — a cluster bootstrapped on v8.1.2 and upgraded to v8.5.1,
// PD merge thresholds still at the old defaults (derived from
// tikv/pd@v8.5.1:server/config/persist_options.go PersistOptions.Reload):
//
//	{
//	  "version": "v8.5.1",
//	  "bootstrapped_from": "v8.1.2",
//	  "tikv": 3,
//	  "config": [
//	    {"type": "tikv", "name": "coprocessor.region-split-size", "value": "96MiB"},
//	    {"type": "tikv", "instance": "127.0.0.1:20161", "name": "log.level", "value": "warn"}
//	  ],
//	  "sql": [
//	    "SET GLOBAL tidb_enable_instance_plan_cache = ON",
//	    "CREATE RESOURCE GROUP rg1 RU_PER_SEC = 1000"
//	  ]
//	}
type Seed struct {
	Version          string            `json:"version"`
	BootstrappedFrom string            `json:"bootstrapped_from"`
	TiDB             int               `json:"tidb"`
	TiKV             int               `json:"tikv"`
	PD               int               `json:"pd"`
	TiFlash          int               `json:"tiflash"`
	Versions         map[string]string `json:"versions"`          // per component type: "tikv": "v8.5.3"
	InstanceVersions map[string]string `json:"instance_versions"` // "tikv-2": "v8.5.3"
	Config           []ConfigOverride  `json:"config"`            // config-file values at start
	SQL              []string          `json:"sql"`               // run as root after start
	ServerVersion    string            `json:"server_version"`    // TiDB server-version config (tidb-configuration-file#server-version)
	// Settings of a newer release than the emulator models (newer.go).
	NewerVariables []NewerVariable   `json:"newer_variables"`
	NewerConfig    []NewerConfigItem `json:"newer_config"`
	// StatementsSummary seeds INFORMATION_SCHEMA.STATEMENTS_SUMMARY and
	// _HISTORY (see StatementStat and docs/tidbsim.md).
	StatementsSummary []StatementStat `json:"statements_summary"`
}

// LoadSeed reads a seed file. Unknown fields are errors so that typos do not
// silently seed nothing.
func LoadSeed(path string) (*Seed, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("tidbsim: seed: %w", err)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	dec.UseNumber() // statement statistics keep their integers exact
	var s Seed
	if err := dec.Decode(&s); err != nil {
		return nil, fmt.Errorf("tidbsim: seed %s: %w", path, err)
	}
	for typ := range s.Versions {
		switch typ {
		case TypeTiDB, TypeTiKV, TypePD, TypeTiFlash:
		default:
			return nil, fmt.Errorf("tidbsim: seed %s: versions: unknown component %q", path, typ)
		}
	}
	return &s, nil
}

// Options converts the seed into Start options.
func (s *Seed) Options() Options {
	return Options{
		Version: s.Version, BootstrappedFrom: s.BootstrappedFrom,
		TiDB: s.TiDB, TiKV: s.TiKV, PD: s.PD, TiFlash: s.TiFlash,
		TiDBVersion: s.Versions[TypeTiDB], TiKVVersion: s.Versions[TypeTiKV],
		PDVersion: s.Versions[TypePD], TiFlashVersion: s.Versions[TypeTiFlash],
		InstanceVersions: s.InstanceVersions, Config: s.Config, SQL: s.SQL,
		ServerVersion: s.ServerVersion, NewerVariables: s.NewerVariables, NewerConfig: s.NewerConfig,
		StatementsSummary: s.StatementsSummary,
	}
}

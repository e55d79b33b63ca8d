package upstream

import "strings"

// Classes of Span.Class: what a key a config endpoint prints is when it is
// not a setting. Empty means a setting.
const (
	// ClassIdentity: where and as what one instance runs, set per instance by
	// the deployment (command-line flags, TiUP's host entries): addresses,
	// URLs, names, cluster membership, placement labels.
	ClassIdentity = "identity"
	// ClassPath: a path on the instance's host (data, log and WAL
	// directories, log files, certificate files).
	ClassPath = "path"
)

// PathKey reports whether a key names a path on the host by the naming
// convention TiKV and PD follow for them (data-dir, wal-dir, info-log-dir,
// raftdb-path, ca-path, log.file.filename, log-file, titan dirname,
// raft-engine.dir, hadoop home, coprocessor-plugin-directory): its last
// segment is "dir", "dirname", "filename", "home", or ends in "-dir",
// "-directory", "-path" or "-file". The generator
// applies it to every key it walks; the catalog applies it to keys under a
// prefix whose keys are not listed (TiKV raft-engine.*, PD log.*).
func PathKey(key string) bool {
	last := strings.ToLower(key[strings.LastIndexByte(key, '.')+1:])
	switch last {
	case "dir", "dirname", "filename", "home":
		return true
	}
	for _, suf := range []string{"-dir", "-directory", "-path", "-file"} {
		if strings.HasSuffix(last, suf) {
			return true
		}
	}
	return false
}

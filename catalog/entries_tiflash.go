package catalog

// TiFlash: SET CONFIG tiflash accepts only names that begin with
// "raftstore-proxy."; TiDB strips the prefix and sends the rest to the TiFlash
// proxy's (TiKV-based) /config. Every other TiFlash item must be edited in the
// TiFlash config file, where it takes effect without a restart
// (https://docs.pingcap.com/tidb/stable/dynamic-config#modify-tiflash-configuration-dynamically).
// The generated table does not cover TiFlash, so these entries are
// hand-modelled.
//
// The proxy's items are modelled as one prefix rule: Config("tiflash",
// "raftstore-proxy.<anything>") resolves to it (KindString: compared as text)
// unless a more specific entry below exists.

func tiflashEntries() []*Entry {
	src := srcs(docTiFlashConfig)
	return []*Entry{
		cfg("tiflash", "raftstore-proxy.", KindString, src,
			"TiFlash proxy item (TiKV-based); the proxy's items are not catalogued one by one, so values are compared as text.",
			prefix()),
		cfg("tiflash", "raftstore-proxy.server.snap-io-max-bytes-per-sec", KindSize, src,
			"Snapshot I/O bandwidth limit of the TiFlash proxy (docs example: '300MiB').",
			related("tikv:server.snap-io-max-bytes-per-sec")),
	}
}

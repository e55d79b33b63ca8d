package catalog

// Keys other packages reason about by name: the region-size family and PD's
// merge thresholds (https://docs.pingcap.com/tidb/stable/tune-region-performance). One spelling for the planner's
// ordering, the guards and the loader's checks.
const (
	KeyRegionSplitSize = "coprocessor.region-split-size"
	KeyRegionMaxSize   = "coprocessor.region-max-size"
	KeyRegionSplitKeys = "coprocessor.region-split-keys"
	KeyRegionMaxKeys   = "coprocessor.region-max-keys"
	KeyMergeRegionSize = "schedule.max-merge-region-size"
	KeyMergeRegionKeys = "schedule.max-merge-region-keys"
)

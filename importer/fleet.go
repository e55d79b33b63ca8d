package importer

// layer is what one scope of the configuration declares: the top level (the
// baseline every cluster gets) or one cluster block (its differences).
type layer struct {
	config map[configKey]item
	vars   map[string]item
	groups map[string]*layerGroup
}

// item is one declared value and the defaults of the clusters it stands for
// (one in a cluster block; every cluster in the baseline), for its comment.
type item struct {
	lit   value
	dflts []defaultInfo
}

// layerGroup is a resource group as one scope declares it: the options of
// this scope only (a cluster block's group merges with the baseline's,
// option by option; query_limit, background and users each as a whole).
type layerGroup struct {
	attrs      map[string]item
	queryLimit *block
	background *block
}

func newLayer() *layer {
	return &layer{config: map[configKey]item{}, vars: map[string]item{}, groups: map[string]*layerGroup{}}
}

// split divides the clusters' values into a baseline and one layer per
// cluster (docs/decisions/0013-import-baseline.md): a type-wide config value,
// a variable, or a resource-group option goes to the baseline when every
// cluster has it with the same value; everything else stays with its
// cluster. Per-instance values always stay with their cluster: instance
// addresses belong to one cluster. With one cluster, everything but its
// per-instance values is baseline.
func split(cvs []*clusterValues) (*layer, []*layer) {
	base := newLayer()
	per := make([]*layer, len(cvs))
	for i := range cvs {
		per[i] = newLayer()
	}
	for k, v0 := range cvs[0].config {
		if k.inst == "" && everyCluster(cvs, func(cv *clusterValues) (value, bool) { x, ok := cv.config[k]; return x, ok }, v0) {
			base.config[k] = item{lit: v0, dflts: dfltsOf(cvs, func(cv *clusterValues) value { return cv.config[k] })}
		}
	}
	for n, v0 := range cvs[0].vars {
		if everyCluster(cvs, func(cv *clusterValues) (value, bool) { x, ok := cv.vars[n]; return x, ok }, v0) {
			base.vars[n] = item{lit: v0, dflts: dfltsOf(cvs, func(cv *clusterValues) value { return cv.vars[n] })}
		}
	}
	splitGroups(cvs, base)
	for i, cv := range cvs {
		for k, v := range cv.config {
			if _, inBase := base.config[k]; !inBase {
				per[i].config[k] = item{lit: v, dflts: []defaultInfo{v.dflt}}
			}
		}
		for n, v := range cv.vars {
			if _, inBase := base.vars[n]; !inBase {
				per[i].vars[n] = item{lit: v, dflts: []defaultInfo{v.dflt}}
			}
		}
		clusterGroups(cv, base, per[i])
	}
	return base, per
}

// everyCluster reports whether every cluster has a value equal to v0.
func everyCluster(cvs []*clusterValues, get func(*clusterValues) (value, bool), v0 value) bool {
	for _, cv := range cvs {
		x, ok := get(cv)
		if !ok || x.canon != v0.canon || x.lit.Type() != v0.lit.Type() {
			return false
		}
	}
	return true
}

func dfltsOf(cvs []*clusterValues, get func(*clusterValues) value) []defaultInfo {
	out := make([]defaultInfo, len(cvs))
	for i, cv := range cvs {
		out[i] = get(cv).dflt
	}
	return out
}

// splitGroups puts into the baseline every group all clusters have, with
// the options whose values they all share.
func splitGroups(cvs []*clusterValues, base *layer) {
	for name, g0 := range cvs[0].groups {
		all := true
		for _, cv := range cvs {
			if _, ok := cv.groups[name]; !ok {
				all = false
			}
		}
		if !all {
			continue
		}
		bg := &layerGroup{attrs: map[string]item{}}
		for a, v0 := range g0.attrs {
			if everyCluster(cvs, func(cv *clusterValues) (value, bool) { x, ok := cv.groups[name].attrs[a]; return x, ok }, v0) {
				bg.attrs[a] = item{lit: v0}
			}
		}
		if sameBlock(cvs, func(cv *clusterValues) *block { return cv.groups[name].queryLimit }) {
			bg.queryLimit = g0.queryLimit
		}
		if sameBlock(cvs, func(cv *clusterValues) *block { return cv.groups[name].background }) {
			bg.background = g0.background
		}
		if len(bg.attrs) > 0 || bg.queryLimit != nil || bg.background != nil {
			base.groups[name] = bg
		}
	}
}

// sameBlock reports whether every cluster declares the block, identically.
func sameBlock(cvs []*clusterValues, get func(*clusterValues) *block) bool {
	b0 := get(cvs[0])
	if b0 == nil {
		return false
	}
	for _, cv := range cvs[1:] {
		if b := get(cv); b == nil || b.canon != b0.canon {
			return false
		}
	}
	return true
}

// clusterGroups gives one cluster's layer the options its groups declare
// beyond the baseline.
func clusterGroups(cv *clusterValues, base, ly *layer) {
	for name, g := range cv.groups {
		bg := base.groups[name]
		lg := &layerGroup{attrs: map[string]item{}}
		for a, v := range g.attrs {
			if bg != nil {
				if _, ok := bg.attrs[a]; ok {
					continue
				}
			}
			lg.attrs[a] = item{lit: v}
		}
		if g.queryLimit != nil && (bg == nil || bg.queryLimit == nil) {
			lg.queryLimit = g.queryLimit
		}
		if g.background != nil && (bg == nil || bg.background == nil) {
			lg.background = g.background
		}
		if bg == nil || len(lg.attrs) > 0 || lg.queryLimit != nil || lg.background != nil {
			ly.groups[name] = lg
		}
	}
}

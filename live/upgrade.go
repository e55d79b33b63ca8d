package live

import (
	"github.com/tiform/tiform/catalog"
	"github.com/tiform/tiform/state"
	"github.com/tiform/tiform/version"
)

// UpgradeRequest is req (a plan's: RequestFor) with what telling the impact
// of an upgrade to to also needs: the live value of every TiKV, PD and
// TiFlash config item and every system variable whose default is not the
// same in every version up to to (catalog.DefaultsChangingUpTo), whatever
// the version the cluster runs. They are read in the same statements as
// the plan's own (one CLUSTER_CONFIG, one SHOW GLOBAL VARIABLES), and one
// the cluster does not report is no gap.
func UpgradeRequest(req Request, to version.Version) Request {
	out := req
	out.Config = append([]ComponentRequest(nil), req.Config...)
	for _, c := range []state.Component{state.TiKV, state.PD, state.TiFlash} {
		var keys []string
		for _, e := range catalog.DefaultsChangingUpTo(string(c), to) {
			keys = append(keys, e.Key)
		}
		if len(keys) == 0 {
			continue
		}
		found := false
		for i := range out.Config {
			if out.Config[i].Component == c {
				cr := out.Config[i]
				cr.Also = append(append([]string(nil), cr.Also...), keys...)
				out.Config[i] = cr
				found = true
			}
		}
		if !found {
			out.Config = append(out.Config, ComponentRequest{Component: c, Also: keys})
		}
	}
	out.OnlyManagedKeys = true
	for _, e := range catalog.DefaultsChangingUpTo("tidb", to) {
		out.AlsoVariables = append(out.AlsoVariables, e.Key)
	}
	out.AlsoAlone = true
	return out
}

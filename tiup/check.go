package tiup

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"unicode"

	"github.com/tiform/tiform/catalog"
	"github.com/tiform/tiform/state"
)

// Difference is one declared setting the topology does not hold as declared.
type Difference struct {
	Setting state.ConfigSetting
	// Where names the topology entry: "server_configs.tikv", or the host
	// entry "tikv_servers 10.0.1.17:20160".
	Where string
	// Topology is the topology's value; "" with Missing.
	Topology string
	Missing  bool
	// Reverted: the next reload or upgrade puts the topology's value (or the
	// built-in default) back over the online value. False for PD items kept
	// in etcd: a stale topology value misleads but is not applied.
	Reverted bool
}

// Message says what the difference means for the DBRE.
func (d Difference) Message() string {
	key := address(d.Setting)
	want, top := shown(d.Setting.Value.Text), shown(d.Topology)
	if d.Setting.Value.Sensitive {
		// Neither the declared value nor the topology's (an older secret,
		// most likely) is shown.
		want, top = state.SensitiveText, state.SensitiveText
	}
	var what string
	if d.Missing {
		what = fmt.Sprintf("%s is not in the topology (%s); the configuration declares %s", key, d.Where, want)
	} else {
		what = fmt.Sprintf("%s is %s in the topology (%s); the configuration declares %s", key, top, d.Where, want)
	}
	if d.Reverted {
		return what + ": the next `tiup cluster reload` or `upgrade` reverts the online value"
	}
	return what + ": PD keeps its value in etcd, so a reload does not revert it, but the topology misleads its reader (pingcap/tiup#442)"
}

// Check compares the declared TiKV, PD and TiFlash settings with a
// topology and returns every difference, type-wide settings before
// per-instance ones. A type-wide setting is compared on every host of its
// component that has no per-instance value declared: where all of them get
// the server_configs value (or none), one difference names server_configs;
// otherwise each host that differs is named. A PD item kept in etcd that is
// missing from the topology is not a difference: PD keeps it whatever the
// topology says.
func Check(top *Topology, settings []state.ConfigSetting) []Difference {
	perInst := map[string]bool{}
	for _, s := range settings {
		if s.Instance != "" {
			perInst[string(s.Component)+"\x00"+strings.ToLower(s.Instance)+"\x00"+strings.ToLower(s.Key)] = true
		}
	}
	var out []Difference
	for _, s := range sortSettings(settings) {
		p, key, ok := locate(s.Component, s.Key)
		if !ok {
			continue
		}
		if s.Instance != "" {
			out = append(out, checkInstance(top, s, p, key)...)
			continue
		}
		var hosts []string
		for addr := range top.Hosts[p.servers] {
			if !perInst[string(s.Component)+"\x00"+addr+"\x00"+strings.ToLower(s.Key)] {
				hosts = append(hosts, addr)
			}
		}
		sort.Strings(hosts)
		out = append(out, checkTypeWide(top, s, p, key, hosts)...)
	}
	return out
}

func checkTypeWide(top *Topology, s state.ConfigSetting, p place, key string, hosts []string) []Difference {
	global, inGlobal := top.Global[p.section][key]
	base := Difference{Setting: s, Where: "server_configs." + p.section, Reverted: Reverted(s.Component, s.Key)}
	globalOK := inGlobal && Equal(s.Component, s.Key, s.Value.Text, global)
	var hostDiffs []Difference
	overridden := false
	for _, h := range hosts {
		v, ok := top.Hosts[p.servers][h][key]
		if !ok {
			continue
		}
		overridden = true
		if !Equal(s.Component, s.Key, s.Value.Text, v) {
			d := base
			d.Where, d.Topology = p.servers+" "+h+" "+p.hostField, v
			hostDiffs = append(hostDiffs, d)
		}
	}
	switch {
	case globalOK:
		return hostDiffs
	case !inGlobal && !base.Reverted && !overridden:
		return nil // PD keeps it in etcd; nothing in the topology contradicts it
	}
	d := base
	d.Topology, d.Missing = global, !inGlobal
	if !inGlobal && overridden {
		// Some hosts set it, the others get the built-in default.
		d.Where = "server_configs." + p.section + " (hosts without their own value)"
	}
	return append([]Difference{d}, hostDiffs...)
}

func checkInstance(top *Topology, s state.ConfigSetting, p place, key string) []Difference {
	d := Difference{Setting: s, Where: p.servers + " " + s.Instance, Reverted: Reverted(s.Component, s.Key)}
	h, ok := top.Hosts[p.servers][strings.ToLower(s.Instance)]
	if !ok {
		d.Missing = true
		d.Where = p.servers + ": no host " + s.Instance
		return []Difference{d}
	}
	v, ok := h[key]
	if !ok {
		v, ok = top.Global[p.section][key]
		d.Where = p.servers + " " + s.Instance + " " + p.hostField + ", nor server_configs." + p.section
		if ok {
			d.Where = "server_configs." + p.section + ", which " + s.Instance + " takes"
		}
	}
	if ok && Equal(s.Component, s.Key, s.Value.Text, v) {
		return nil
	}
	d.Topology, d.Missing = v, !ok
	return []Difference{d}
}

// Equal compares a declared value with a topology value of the same
// setting, by meaning ("256MiB" = 268435456), through the catalog's one
// equality (catalog.Setting.Equal).
func Equal(comp state.Component, key, declared, topo string) bool {
	return catalog.SettingFor(catalog.TargetConfig, string(comp), key).Equal(declared, topo)
}

// shown is a value as a message prints it: quoted when it is empty, holds
// white space at its ends or anything unprintable, and bounded.
func shown(s string) string {
	const max = 200
	if r := []rune(s); len(r) > max {
		s = string(r[:max]) + "…"
	}
	if s == "" || strings.TrimSpace(s) != s || strings.IndexFunc(s, func(r rune) bool { return !unicode.IsPrint(r) }) >= 0 {
		return strconv.Quote(s)
	}
	return s
}

package planner

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/tiform/tiform/catalog"
	"github.com/tiform/tiform/guard"
	"github.com/tiform/tiform/state"
	"github.com/tiform/tiform/version"
)

// The impact of an upgrade (tiform plan --target-version): every setting
// whose default differs between the version a cluster runs and the target
// version (the catalog's per-version defaults), whether the configuration
// pins it, what the cluster will run after the upgrade, and what the guards
// say about the cluster at the target version that they do not say today.
// Pure: the caller reads the cluster (live.UpgradeRequest).

// Upgrade is the impact of upgrading one cluster to To.
type Upgrade struct {
	Cluster string
	To      version.Version
	// From is the lowest version of each component read (what the cluster
	// runs today).
	From map[state.Component]version.Version
	// Settings are the settings whose default differs, by address.
	Settings []UpgradeSetting
	// Findings are the guards' findings at the target version that today's
	// cluster does not have (a rule about the upgrade itself, a setting the
	// target does not have, a declaration whose meaning changes).
	Findings []guard.Finding
	// Notes say what could not be compared (a component whose version is
	// unknown, a downgrade).
	Notes []string
}

// UpgradeSetting is one setting whose default differs between the running
// version and the target.
type UpgradeSetting struct {
	// Addr is the setting: a config key of every instance, or a variable.
	Addr state.Address
	// Before and After are its defaults in the running version and in the
	// target (with the version each applies from and its note).
	Before, After catalog.Default
	// Live is what the cluster runs today ("" when it was not read);
	// LiveMixed is set when its instances disagree (Live is then the first
	// instance's value).
	Live      string
	LiveMixed bool
	// Pinned: the configuration declares it (Declared is the value), so a
	// plan after the upgrade sets it back to that.
	Pinned   bool
	Declared string
	// Runs is what the cluster will run after the upgrade; Certain is unset
	// when that depends on what tiform cannot see (a TiKV config file, a
	// value TiDB stored at bootstrap), and Why says how it is decided.
	Runs    string
	Certain bool
	Why     string
	// Pin is the value to declare to keep today's value ("" when it cannot
	// be kept; PinNote says why).
	Pin     string
	PinNote string
}

// Changes reports whether the upgrade changes the setting's value on this
// cluster, or may: not pinned, and it may run something else than today.
func (s UpgradeSetting) Changes() bool {
	return !s.Pinned && (!s.Certain || s.Runs != s.Live)
}

// UpgradeImpact is what upgrading the cluster dc describes (read as l) to
// to changes: the settings whose default differs between the version each
// component runs and to, and the guards' findings that only the target
// version raises. now decides acknowledgements.
func UpgradeImpact(dc *state.DesiredCluster, l *state.Live, to version.Version, now time.Time) *Upgrade {
	u := &Upgrade{Cluster: dc.Name, To: to, From: map[state.Component]version.Version{}}
	for _, c := range []state.Component{state.TiDB, state.PD, state.TiKV, state.TiFlash} {
		from, ok := l.MinVersion(c)
		if c == state.TiDB && !ok && !l.ServerVersionParsed.IsZero() {
			from, ok = l.ServerVersionParsed, true
		}
		if !ok {
			if c == state.TiDB || c == state.PD || c == state.TiKV {
				u.Notes = append(u.Notes, fmt.Sprintf("the %s version is unknown: its settings are not compared", c))
			}
			continue
		}
		u.From[c] = from
		if from.Compare(to) > 0 {
			u.Notes = append(u.Notes, fmt.Sprintf("%s runs %s, newer than %s: this is a downgrade, which TiDB does not support", c, from.Short(), to.Short()))
		}
		comp := string(c)
		if c == state.TiDB {
			comp = "tidb" // system variables
		}
		for _, ch := range catalog.DefaultChanges(comp, from, to) {
			u.Settings = append(u.Settings, upgradeSetting(dc, l, c, ch, to))
		}
	}
	sort.SliceStable(u.Settings, func(i, j int) bool { return u.Settings[i].Addr.String() < u.Settings[j].Addr.String() })
	u.Findings = upgradeFindings(dc, l, to, now)
	return u
}

// upgradeSetting decides one setting's impact.
func upgradeSetting(dc *state.DesiredCluster, l *state.Live, c state.Component, ch catalog.DefaultChange, to version.Version) UpgradeSetting {
	e := ch.Entry
	s := UpgradeSetting{Before: ch.Before, After: ch.After}
	if e.Target == catalog.TargetVariable {
		s.Addr = state.VariableAddress(e.Key)
		s.Live = l.Variables[strings.ToLower(e.Key)]
		for _, v := range dc.Variables {
			if strings.EqualFold(v.Name, e.Key) {
				s.Pinned, s.Declared = true, v.Value.Shown()
			}
		}
	} else {
		s.Addr = state.ConfigAddress(c, "", e.Key)
		s.Live, s.LiveMixed = liveConfig(l, c, e.Key)
		for _, cs := range dc.Config {
			if cs.Component == c && cs.Instance == "" && strings.EqualFold(cs.Key, e.Key) {
				s.Pinned, s.Declared = true, cs.Value.Shown()
			}
		}
	}
	s.Runs, s.Certain, s.Why = afterUpgrade(e, c, s, to)
	s.Pin, s.PinNote = pinOf(e, s, to)
	if e.Target == catalog.TargetVariable {
		from, _ := l.MinVersion(state.TiDB)
		if from.IsZero() {
			from = l.ServerVersionParsed
		}
		switch {
		case e.ReadOnlyIn(to) || e.ReadOnlyIn(from):
			s.Runs, s.Certain, s.Why = e.Render(canonicalOr(e, ch.After.Value)), true, fmt.Sprintf("read-only: TiDB %s sets it", to.Short())
			s.Pin, s.PinNote = "", "read-only: it cannot be set"
		case e.ScopeIn(from) == catalog.ScopeSession && !s.Pinned:
			s.Runs, s.Certain = e.Render(canonicalOr(e, ch.After.Value)), true
			s.Why = fmt.Sprintf("SESSION-only in %s (no GLOBAL value to read or keep): every session starts with the version's default", from.Short())
			s.Pin, s.PinNote = "", fmt.Sprintf("SESSION-only in %s: there is no GLOBAL value to keep", from.Short())
		}
	}
	return s
}

// liveConfig is the value of key on c's instances: the first one's, and
// whether the others differ.
func liveConfig(l *state.Live, c state.Component, key string) (string, bool) {
	first, seen, mixed := "", false, false
	for _, r := range l.Config {
		if r.Component != c || !strings.EqualFold(r.Key, key) {
			continue
		}
		if !seen {
			first, seen = r.Value, true
		} else if r.Value != first {
			mixed = true
		}
	}
	return first, mixed
}

// afterUpgrade decides what the cluster runs after the upgrade for a
// setting the configuration does or does not pin, how certain that is, and
// why: where the component keeps the value across a restart.
func afterUpgrade(e *catalog.Entry, c state.Component, s UpgradeSetting, to version.Version) (runs string, certain bool, why string) {
	after := e.Render(canonicalOr(e, s.After.Value))
	today := s.Live
	atOldDefault := today != "" && e.SameDefault(today, s.Before.Value)
	switch {
	case s.Pinned:
		return s.Declared, true, "pinned by the configuration: a plan after the upgrade sets it back if it moved"
	case today == "":
		return after, false, "not read: the new default unless something sets it"
	case s.LiveMixed:
		return after, false, "instances disagree today; each keeps what its config file or store sets, the others take the new default"
	case c == state.TiKV && e.Family == "region-size" && to.RegionSizeReset():
		return after, true, fmt.Sprintf("TiKV %s gives every region-size key not set in its config file the new default at the upgrade restart, whatever it ran before (tikv/tikv#18503)", to.Short())
	case c == state.TiKV && e.Family == "region-size" && to.InheritsRegionSize():
		return today, true, fmt.Sprintf("TiKV %s inherits a region-size key not set in its config file from last_tikv.toml, the previous run's value (tikv/tikv#18503, fixed by tikv/tikv#18545); a new cluster gets %s", to.Short(), after)
	case c == state.PD && catalog.PDKeepsInEtcd(e.Key):
		return today, true, "PD keeps the value it stored in etcd at bootstrap, over its config file, across upgrades (tikv/pd PersistOptions.Reload); a new cluster gets " + after
	case e.Target == catalog.TargetVariable && s.After.Note != "":
		return today, true, s.After.Note
	case e.Target == catalog.TargetVariable && e.ScopeIn(to) == catalog.ScopeInstance:
		return after, !atOldDefault, "an INSTANCE variable comes from the TiDB config file at start: the new default unless the file sets it"
	case e.Target == catalog.TargetVariable && !atOldDefault:
		return today, true, "set with SET GLOBAL: TiDB keeps it in mysql.global_variables across upgrades"
	case e.Target == catalog.TargetVariable:
		return after, false, "at today's default: the new default when TiDB stores no value for it (a variable newer than the cluster's bootstrap is written at the upgrade with the new default: pingcap/tidb#68136); the value stored at bootstrap otherwise"
	case atOldDefault:
		return after, false, fmt.Sprintf("%s derives an item not set in its config file at start: the new default, unless the config file (the TiUP topology) sets it", c)
	}
	return after, false, fmt.Sprintf("changed from the default: kept only if %s's config file (the TiUP topology) sets it, since `tiup cluster upgrade` regenerates the file from the topology", c)
}

// canonicalOr is text in e's canonical form, or text when it does not
// parse.
func canonicalOr(e *catalog.Entry, text string) string {
	if c, err := e.Canonical(text); err == nil {
		return c
	}
	return text
}

// pinOf is the value to declare to keep today's value after the upgrade,
// or why it cannot be.
func pinOf(e *catalog.Entry, s UpgradeSetting, to version.Version) (pin, note string) {
	switch {
	case s.Pinned:
		return "", "already pinned"
	case s.Live == "":
		return "", "today's value was not read"
	case s.LiveMixed:
		return "", "the instances disagree today: declare each instance's value"
	}
	if err := e.Check(s.Live); err != nil {
		return "", fmt.Sprintf("today's value %q cannot be declared: %v", s.Live, err)
	}
	if !e.Deprecated.IsZero() && to.Compare(e.Deprecated) >= 0 {
		return "", fmt.Sprintf("deprecated in %s: its value has no effect there", e.Deprecated.Short())
	}
	if e.Target == catalog.TargetVariable {
		if r, refused := catalog.VariableRefusal(to, e.Key, s.Live, catalog.Connection{}); refused {
			return "", fmt.Sprintf("%s refuses %q: %s", to.Short(), s.Live, r.Reason)
		}
		if sc := e.ScopeIn(to); sc != catalog.ScopeGlobal {
			return "", fmt.Sprintf("%s scope in %s: SET GLOBAL cannot keep it cluster-wide", sc, to.Short())
		}
	}
	return s.Live, ""
}

// upgradeFindings are the findings the guards raise for the cluster at the
// target version (its instances read as running to, the upgrade planned)
// that they do not raise today, by code and address.
func upgradeFindings(dc *state.DesiredCluster, l *state.Live, to version.Version, now time.Time) []guard.Finding {
	targets := map[state.Component]version.Version{}
	for _, c := range state.Components {
		targets[c] = to
	}
	today := guard.Evaluate(guard.Input{Desired: dc, Live: l, Now: now})
	known := map[string]bool{}
	for _, f := range today {
		known[f.Code+"\x00"+f.Address] = true
	}
	planned := guard.Evaluate(guard.Input{Desired: dc, Live: l, Now: now, TargetVersions: targets})
	after := guard.Evaluate(guard.Input{Desired: dc, Live: atVersion(l, to), Now: now, TargetVersions: targets})
	var out []guard.Finding
	for _, f := range append(planned, after...) {
		k := f.Code + "\x00" + f.Address
		if known[k] {
			continue
		}
		known[k] = true
		out = append(out, f)
	}
	guard.Sort(out)
	return out
}

// atVersion is l as it reads once every instance runs v.
func atVersion(l *state.Live, v version.Version) *state.Live {
	c := *l
	c.Instances = make([]state.Instance, len(l.Instances))
	for i, in := range l.Instances {
		in.Version, in.VersionText = v, v.String()
		c.Instances[i] = in
	}
	c.ServerVersionParsed = v
	c.ServerVersion = v.MySQLPrefix() + "-TiDB-" + v.Short()
	return &c
}

// UpgradePin is a value to declare to keep today's value across the
// upgrade.
type UpgradePin struct {
	Addr state.Address
	Text string
}

// Pins are the values that keep today's value of every setting the
// upgrades list and the configuration does not pin: a setting with the
// same pin on every cluster of us (the one configuration they share
// declares it once); skipped says, for the others, why not.
func Pins(us []*Upgrade) (pins []UpgradePin, skipped []string) {
	type seen struct {
		pin      string
		clusters []string
		note     string
		mixed    bool
	}
	by := map[state.Address]*seen{}
	var order []state.Address
	for _, u := range us {
		for _, s := range u.Settings {
			if s.Pinned {
				continue
			}
			x := by[s.Addr]
			if x == nil {
				x = &seen{pin: s.Pin, note: s.PinNote}
				by[s.Addr] = x
				order = append(order, s.Addr)
			} else if x.pin != s.Pin {
				x.mixed = true
			}
			x.clusters = append(x.clusters, u.Cluster)
			if s.PinNote != "" && x.note == "" {
				x.note = s.PinNote
			}
		}
	}
	sort.Slice(order, func(i, j int) bool { return order[i].String() < order[j].String() })
	for _, a := range order {
		x := by[a]
		switch {
		case x.pin == "" || x.note != "":
			skipped = append(skipped, fmt.Sprintf("%s: %s", a, x.note))
		case x.mixed:
			skipped = append(skipped, fmt.Sprintf("%s: today's value differs between clusters (%s): declare it in each cluster block", a, strings.Join(x.clusters, ", ")))
		case len(x.clusters) < len(us):
			skipped = append(skipped, fmt.Sprintf("%s: listed for %s only: declare it in their cluster blocks", a, strings.Join(x.clusters, ", ")))
		default:
			pins = append(pins, UpgradePin{Addr: a, Text: x.pin})
		}
	}
	return pins, skipped
}

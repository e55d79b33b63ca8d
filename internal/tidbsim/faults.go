package tidbsim

import (
	"strings"
	"time"
)

// Faults are failures injected on demand (issue 2 point 9). The zero value
// injects nothing. Change them at any time with Cluster.SetFaults or the
// narrower setters; they apply from the next statement.
type Faults struct {
	// Down lists instance addresses (the INSTANCE column) that do not answer:
	// SHOW CONFIG / CLUSTER_CONFIG omit their rows with a warning and SET
	// CONFIG to them yields a warning (pingcap/tidb@v8.5.1:pkg/executor/memtable_reader.go fetchClusterConfig,
	// pingcap/tidb@v8.5.1:pkg/executor/set_config.go SetConfigExec.Next).
	Down map[string]bool
	// Latency is added for every instance a statement contacts (config reads
	// and writes), as the HTTP round trip to it would.
	Latency time.Duration
	// RoundTrip is the network between the client and the TiDB instance it
	// is connected to: each exchange on a connection waits it once (network.go).
	RoundTrip time.Duration
	// DropAfter closes every connection when it receives its (DropAfter+1)-th
	// statement, without answering it. 0 disables.
	DropAfter int
	// FailStatements fail matching statements with a chosen error.
	FailStatements []FailRule
	// PDTTL lists PD config items that carry a temporary TTL override (as
	// BR/Lightning set): SET CONFIG pd of them is refused with "need to
	// clean up TTL first for <key>" (tikv/pd@v8.5.1:server/api/config.go
	// updateConfig).
	PDTTL map[string]bool
}

// FailRule fails every statement whose text matches.
type FailRule struct {
	// Match is compared case-insensitively against the statement text; with
	// Prefix the statement (leading space trimmed) must start with it,
	// otherwise it must contain it.
	Match  string
	Prefix bool
	// Code, State and Message form the error returned (State defaults to
	// HY000).
	Code    uint16
	State   string
	Message string
	// Times limits how often the rule fires (0 = every time), e.g. 1 to
	// fail only the first matching statement (retry tests).
	Times int
	fired int
}

func (r FailRule) matches(sql string) bool {
	s := strings.ToLower(strings.TrimSpace(sql))
	m := strings.ToLower(r.Match)
	if r.Prefix {
		return strings.HasPrefix(s, m)
	}
	return strings.Contains(s, m)
}

func (r FailRule) state() string {
	if r.State == "" {
		return "HY000"
	}
	return r.State
}

// fireFailRuleLocked returns the first rule matching sql that may still
// fire, and counts the firing. Call with c.Mu held.
func (c *Cluster) fireFailRuleLocked(sql string) (FailRule, bool) {
	for i := range c.fault.FailStatements {
		r := &c.fault.FailStatements[i]
		if (r.Times == 0 || r.fired < r.Times) && r.matches(sql) {
			r.fired++
			return *r, true
		}
	}
	return FailRule{}, false
}

// SetFaults replaces all injected faults.
func (c *Cluster) SetFaults(f Faults) {
	c.Mu.Lock()
	defer c.Mu.Unlock()
	cp := f
	cp.Down = map[string]bool{}
	for k, v := range f.Down {
		if v {
			cp.Down[k] = true
		}
	}
	cp.FailStatements = append([]FailRule(nil), f.FailStatements...)
	cp.PDTTL = map[string]bool{}
	for k, v := range f.PDTTL {
		if v {
			cp.PDTTL[k] = true
		}
	}
	c.fault = cp
}

// SetInstanceDown marks the instance with service address addr down or up.
func (c *Cluster) SetInstanceDown(addr string, down bool) {
	c.Mu.Lock()
	defer c.Mu.Unlock()
	if c.fault.Down == nil {
		c.fault.Down = map[string]bool{}
	}
	if down {
		c.fault.Down[addr] = true
	} else {
		delete(c.fault.Down, addr)
	}
}

// SetPDTTL marks PD config item name as having (or not) a TTL override.
func (c *Cluster) SetPDTTL(name string, on bool) {
	c.Mu.Lock()
	defer c.Mu.Unlock()
	if c.fault.PDTTL == nil {
		c.fault.PDTTL = map[string]bool{}
	}
	if on {
		c.fault.PDTTL[name] = true
	} else {
		delete(c.fault.PDTTL, name)
	}
}

// SetLatency sets the latency added per contacted instance.
func (c *Cluster) SetLatency(d time.Duration) {
	c.Mu.Lock()
	defer c.Mu.Unlock()
	c.fault.Latency = d
}

// SetRoundTrip sets the network round trip between a client and the TiDB
// instance it is connected to (Faults.RoundTrip).
func (c *Cluster) SetRoundTrip(d time.Duration) {
	c.Mu.Lock()
	defer c.Mu.Unlock()
	c.fault.RoundTrip = d
}

// SetDropAfter makes every connection drop when it receives statement k+1.
func (c *Cluster) SetDropAfter(k int) {
	c.Mu.Lock()
	defer c.Mu.Unlock()
	c.fault.DropAfter = k
}

// AddFailRule appends a statement failure rule.
func (c *Cluster) AddFailRule(r FailRule) {
	c.Mu.Lock()
	defer c.Mu.Unlock()
	c.fault.FailStatements = append(c.fault.FailStatements, r)
}

// statementFault decides what the injected faults do to sql, the count-th
// statement of a connection: drop the connection (DropAfter, when the
// connection can be dropped), else fail it with the first FailRule that
// matches (counted as fired); one look under the lock, nothing copied.
func (c *Cluster) statementFault(sql string, count int, droppable bool) (drop bool, rule FailRule, fail bool) {
	c.Mu.Lock()
	defer c.Mu.Unlock()
	if n := c.fault.DropAfter; n > 0 && count > n && droppable {
		return true, FailRule{}, false
	}
	rule, fail = c.fireFailRuleLocked(sql)
	return false, rule, fail
}

// contact simulates the round trip to one instance: it records it in the
// contact counter and sleeps for the injected latency. It must be called
// without holding c.Mu.
func (c *Cluster) contact(inst *Instance) {
	c.Mu.Lock()
	c.contacts++
	c.contactsByAddr[inst.Address]++
	d, sleep := c.fault.Latency, c.sleep
	c.Mu.Unlock()
	if d > 0 {
		sleep(d)
	}
}

// Contacts returns how many instance round trips config statements have made
// so far (SHOW CONFIG contacts every instance; CLUSTER_CONFIG only those its
// pushed-down predicates select, pingcap/tidb@v8.5.1:pkg/executor/memtable_reader.go).
func (c *Cluster) Contacts() int {
	c.Mu.Lock()
	defer c.Mu.Unlock()
	return c.contacts
}

// ContactsOf returns the round trips made to the instance with address addr.
func (c *Cluster) ContactsOf(addr string) int {
	c.Mu.Lock()
	defer c.Mu.Unlock()
	return c.contactsByAddr[addr]
}

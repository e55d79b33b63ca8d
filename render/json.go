package render

import (
	"fmt"
	"io"
	"time"

	"github.com/tiform/tiform/planner"
	"github.com/tiform/tiform/plans"
	"github.com/tiform/tiform/views"
)

// JSON writes the machine-readable view (views.Plan, docs/json-plan.md): one
// JSON document, indented, every array present (empty rather than null), keys
// in a fixed order, so it is byte-stable for the same plan.
func JSON(w io.Writer, p *planner.Plan) error {
	if p == nil {
		return fmt.Errorf("render: no plan")
	}
	p = p.Shown() // sensitive values never reach a view
	doc := views.Plan{
		Header:     views.NewHeader(),
		ConfigHash: p.ConfigHash,
		CreatedAt:  timeText(p.CreatedAt),
		HasChanges: p.HasChanges(),
		Incomplete: p.Incomplete(),
		Clusters:   []views.PlanCluster{},
	}
	doc.Summary.Clusters = len(p.Clusters)
	doc.Summary.Statuses = map[string]int{}
	if s, ok := HighestSeverity(p); ok {
		name := s.String()
		doc.Summary.HighestSeverity = &name
	}
	for _, cp := range p.Clusters {
		jc := clusterJSON(p, cp)
		doc.Summary.Statuses[jc.Status]++
		doc.Summary.Create += jc.Summary.Create
		doc.Summary.Update += jc.Summary.Update
		doc.Summary.Delete += jc.Summary.Delete
		doc.Clusters = append(doc.Clusters, jc)
	}
	if err := views.Write(w, doc); err != nil {
		return fmt.Errorf("render: %w", err)
	}
	return nil
}

func timeText(t time.Time) *string {
	if t.IsZero() {
		return nil
	}
	s := t.UTC().Format(time.RFC3339)
	return &s
}

func sqlJSON(ss []plans.Statement) []views.Statement {
	out := []views.Statement{}
	for _, s := range ss {
		out = append(out, views.Statement{SQL: s.SQL, Target: s.Target})
	}
	return out
}

// clusterStatus is cp's status view: its status and, when it could not be
// read or planned, why.
func clusterStatus(cp *planner.ClusterPlan) views.ClusterStatus {
	st := views.ClusterStatus{Status: string(cp.Status())}
	if cp.Failure != nil {
		msg := cp.Failure.Message
		st.Error = &msg
	}
	return st
}

func clusterJSON(p *planner.Plan, cp *planner.ClusterPlan) views.PlanCluster {
	jc := views.PlanCluster{
		Name:              cp.Name,
		ClusterStatus:     clusterStatus(cp),
		Labels:            map[string]string{},
		Versions:          map[string]string{},
		Mixed:             []string{},
		Topology:          map[string]int{},
		ServerVersion:     cp.ServerVersion,
		ConnectedInstance: cp.ConnectedInstance,
		Incomplete:        views.Strings(cp.Incomplete),
		Changes:           []views.Change{},
		Ignored:           ignoredJSON(cp),
		Unmanaged:         views.Strings(cp.Unmanaged),
		Notes:             views.Strings(cp.Notes),
		Findings:          []views.Finding{},
		Fingerprint:       []views.Dependency{},
		Diagnostics:       []views.Diagnostic{},
		Evidence:          evidenceView(cp.Evidence),
		Persisted:         persistedJSON(cp),
	}
	for k, v := range cp.Labels {
		jc.Labels[k] = v
	}
	if cp.Failure != nil {
		jc.Diagnostics = views.NewDiagnostics(cp.Failure.Diagnostics)
	}
	for k, v := range cp.Versions {
		jc.Versions[string(k)] = v
	}
	for k, v := range cp.Topology {
		jc.Topology[string(k)] = v
	}
	for _, m := range cp.Mixed {
		jc.Mixed = append(jc.Mixed, string(m))
	}
	if cp.Offline != nil {
		jc.Offline = &views.Offline{Path: cp.Offline.Path, TakenAt: timeText(cp.Offline.TakenAt), Age: Age(p.CreatedAt, cp.Offline.TakenAt), Hash: cp.Offline.Hash}
	}
	jc.Summary.Create, jc.Summary.Update, jc.Summary.Delete = cp.Counts()
	for i, c := range cp.Changes {
		jc.Changes = append(jc.Changes, changeJSON(cp, i+1, c))
	}
	for _, f := range cp.Findings {
		jc.Findings = append(jc.Findings, f.View())
	}
	for _, d := range cp.Fingerprint {
		jc.Fingerprint = append(jc.Fingerprint, views.Dependency{Kind: string(d.Addr.Kind), Component: string(d.Addr.Component),
			Instance: d.Addr.Instance, Key: d.Addr.Name(), Value: d.Value})
	}
	return jc
}

func changeJSON(cp *planner.ClusterPlan, order int, c *plans.Change) views.Change {
	ch := views.Change{
		Order: order, Address: c.Addr.String(), Kind: string(c.Addr.Kind), Action: c.Action.String(), Symbol: string(rune(c.Action)),
		Component: string(c.Addr.Component), Key: c.Addr.Name(), Instance: cp.Reach(c.Addr, c.Persistence), Before: []views.Value{}, After: c.After,
		Statements: sqlJSON(c.Statements), Verify: []views.Verify{}, Rollback: sqlJSON(c.Rollback),
		Persistence: string(c.Persistence), RestartRequired: c.RestartRequired, Range: views.NewRange(c.Range),
		Reason: c.Reason, Findings: views.Strings(c.Findings), DependsOn: []string{},
		Sensitive: c.Sensitive,
	}
	for _, a := range c.DependsOn {
		ch.DependsOn = append(ch.DependsOn, a.String())
	}
	for _, b := range c.Before {
		ch.Before = append(ch.Before, views.Value{Instance: b.Instance, Value: b.Value})
	}
	for _, v := range c.Verify {
		ch.Verify = append(ch.Verify, views.Verify{Kind: string(v.Addr.Kind), Component: string(v.Addr.Component),
			Instance: cp.Reach(v.Addr, c.Persistence), Key: v.Addr.Name(), Want: planner.CheckText(v)})
	}
	return ch
}

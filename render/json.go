package render

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"io"
	"time"

	"github.com/tiform/tiform/diag"
	"github.com/tiform/tiform/planner"
)

// JSONFormatVersion is the format_version of the JSON view (docs/json-plan.md).
// The minor number grows when fields are added; the major when a field changes
// meaning or disappears.
const JSONFormatVersion = "1.0"

// PlanSchema is the JSON Schema (draft 2020-12) of the JSON view.
//
//go:embed plan.schema.json
var PlanSchema []byte

type jsonPlan struct {
	FormatVersion string        `json:"format_version"`
	ConfigHash    string        `json:"config_hash"`
	CreatedAt     *string       `json:"created_at"`
	HasChanges    bool          `json:"has_changes"`
	Incomplete    bool          `json:"incomplete"`
	Summary       jsonSummary   `json:"summary"`
	Clusters      []jsonCluster `json:"clusters"`
}

type jsonSummary struct {
	Clusters        int            `json:"clusters"`
	Statuses        map[string]int `json:"statuses"`
	Create          int            `json:"create"`
	Update          int            `json:"update"`
	Delete          int            `json:"delete"`
	HighestSeverity *string        `json:"highest_severity"`
}

type jsonCluster struct {
	Name              string            `json:"name"`
	Status            string            `json:"status"`
	Error             *string           `json:"error"`
	Labels            map[string]string `json:"labels"`
	Versions          map[string]string `json:"versions"`
	Mixed             []string          `json:"mixed_versions"`
	Topology          map[string]int    `json:"topology"`
	ServerVersion     string            `json:"server_version"`
	ConnectedInstance string            `json:"connected_instance"`
	Offline           *jsonOffline      `json:"offline"`
	Incomplete        []string          `json:"incomplete"`
	Summary           jsonCounts        `json:"summary"`
	Changes           []jsonChange      `json:"changes"`
	Unmanaged         []string          `json:"unmanaged_resource_groups"`
	Notes             []string          `json:"notes"`
	Findings          []jsonFinding     `json:"findings"`
	Fingerprint       []jsonDependency  `json:"fingerprint"`
}

type jsonCounts struct {
	Create int `json:"create"`
	Update int `json:"update"`
	Delete int `json:"delete"`
}

type jsonOffline struct {
	Path    string  `json:"path"`
	TakenAt *string `json:"taken_at"`
	Age     string  `json:"age"`
	Hash    string  `json:"hash"`
}

type jsonChange struct {
	Order           int         `json:"order"`
	Address         string      `json:"address"`
	Kind            string      `json:"kind"`
	Action          string      `json:"action"`
	Symbol          string      `json:"symbol"`
	Component       string      `json:"component"`
	Key             string      `json:"key"`
	Instance        string      `json:"instance"`
	Before          []jsonValue `json:"before"`
	After           string      `json:"after"`
	Statements      []jsonSQL   `json:"statements"`
	Verify          []jsonCheck `json:"verify"`
	Rollback        []jsonSQL   `json:"rollback"`
	Persistence     string      `json:"persistence"`
	RestartRequired bool        `json:"restart_required"`
	Source          *jsonRange  `json:"source"`
	Reason          string      `json:"reason"`
	Findings        []string    `json:"findings"`
	DependsOn       []string    `json:"depends_on"`
}

type jsonValue struct {
	Instance string `json:"instance"`
	Value    string `json:"value"`
}

type jsonSQL struct {
	SQL    string `json:"sql"`
	Target string `json:"target"`
}

type jsonCheck struct {
	Kind      string `json:"kind"`
	Component string `json:"component"`
	Instance  string `json:"instance"`
	Key       string `json:"key"`
	Want      string `json:"want"`
}

type jsonRange struct {
	Filename string  `json:"filename"`
	Start    jsonPos `json:"start"`
	End      jsonPos `json:"end"`
}

type jsonPos struct {
	Line   int `json:"line"`
	Column int `json:"column"`
	Byte   int `json:"byte"`
}

type jsonFinding struct {
	Code         string     `json:"code"`
	Severity     string     `json:"severity"`
	Address      string     `json:"address"`
	Summary      string     `json:"summary"`
	Detail       string     `json:"detail"`
	Link         string     `json:"link"`
	Source       *jsonRange `json:"source"`
	Acknowledged bool       `json:"acknowledged"`
	AckReason    string     `json:"ack_reason"`
}

type jsonDependency struct {
	Kind      string `json:"kind"`
	Component string `json:"component"`
	Instance  string `json:"instance"`
	Key       string `json:"key"`
	Value     string `json:"value"`
}

// JSON writes the machine-readable view (docs/json-plan.md): one JSON
// document, indented, every array present (empty rather than null), keys in a
// fixed order, so it is byte-stable for the same plan.
func JSON(w io.Writer, p *planner.Plan) error {
	if p == nil {
		return fmt.Errorf("render: no plan")
	}
	doc := jsonPlan{
		FormatVersion: JSONFormatVersion,
		ConfigHash:    p.ConfigHash,
		CreatedAt:     timeText(p.CreatedAt),
		HasChanges:    p.HasChanges(),
		Incomplete:    p.Incomplete(),
		Clusters:      []jsonCluster{},
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
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(doc); err != nil {
		return fmt.Errorf("render: json: %w", err)
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

func rangeJSON(r diag.SourceRange) *jsonRange {
	if r.IsZero() {
		return nil
	}
	return &jsonRange{Filename: r.Filename,
		Start: jsonPos{r.Start.Line, r.Start.Column, r.Start.Byte},
		End:   jsonPos{r.End.Line, r.End.Column, r.End.Byte}}
}

func sqlJSON(ss []planner.Statement) []jsonSQL {
	out := []jsonSQL{}
	for _, s := range ss {
		out = append(out, jsonSQL{SQL: s.SQL, Target: s.Target})
	}
	return out
}

func strs(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

func clusterJSON(p *planner.Plan, cp *planner.ClusterPlan) jsonCluster {
	jc := jsonCluster{
		Name:              cp.Name,
		Status:            string(cp.Status()),
		Labels:            map[string]string{},
		Versions:          map[string]string{},
		Mixed:             []string{},
		Topology:          map[string]int{},
		ServerVersion:     cp.ServerVersion,
		ConnectedInstance: cp.ConnectedInstance,
		Incomplete:        strs(cp.Incomplete),
		Changes:           []jsonChange{},
		Unmanaged:         strs(cp.Unmanaged),
		Notes:             strs(cp.Notes),
		Findings:          []jsonFinding{},
		Fingerprint:       []jsonDependency{},
	}
	for k, v := range cp.Labels {
		jc.Labels[k] = v
	}
	if cp.Failure != nil {
		jc.Error = &cp.Failure.Message
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
		jc.Offline = &jsonOffline{Path: cp.Offline.Path, TakenAt: timeText(cp.Offline.TakenAt), Age: Age(p.CreatedAt, cp.Offline.TakenAt), Hash: cp.Offline.Hash}
	}
	jc.Summary.Create, jc.Summary.Update, jc.Summary.Delete = cp.Counts()
	for i, c := range cp.Changes {
		ch := jsonChange{
			Order: i + 1, Address: c.Address, Kind: string(c.Kind), Action: c.Action.String(), Symbol: string(rune(c.Action)),
			Component: string(c.Component), Key: c.Key, Instance: c.Instance, Before: []jsonValue{}, After: c.After,
			Statements: sqlJSON(c.Statements), Verify: []jsonCheck{}, Rollback: sqlJSON(c.Rollback),
			Persistence: string(c.Persistence), RestartRequired: c.RestartRequired, Source: rangeJSON(c.Range),
			Reason: c.Reason, Findings: strs(c.Findings), DependsOn: strs(c.DependsOn),
		}
		for _, b := range c.Before {
			ch.Before = append(ch.Before, jsonValue{Instance: b.Instance, Value: b.Value})
		}
		for _, v := range c.Verify {
			ch.Verify = append(ch.Verify, jsonCheck{Kind: string(v.Kind), Component: string(v.Component), Instance: v.Instance, Key: v.Key, Want: v.Want})
		}
		jc.Changes = append(jc.Changes, ch)
	}
	for _, f := range cp.Findings {
		jc.Findings = append(jc.Findings, jsonFinding{Code: f.Code, Severity: f.Severity.String(), Address: f.Address, Summary: f.Summary,
			Detail: f.Detail, Link: f.Link, Source: rangeJSON(f.Range), Acknowledged: f.Acknowledged, AckReason: f.AckReason})
	}
	for _, d := range cp.Fingerprint {
		jc.Fingerprint = append(jc.Fingerprint, jsonDependency{Kind: string(d.Kind), Component: string(d.Component), Instance: d.Instance, Key: d.Key, Value: d.Value})
	}
	return jc
}

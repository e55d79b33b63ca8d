package planner

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/tiform/tiform/diag"
	"github.com/tiform/tiform/guard"
	"github.com/tiform/tiform/state"
	"github.com/tiform/tiform/views"
	"github.com/tiform/tiform/workload"
)

// Saved plans (`tiform plan --out plan.tfplan`). The file is JSON written
// through the DTOs below, never by marshalling Plan directly, with a
// format_version so that a newer tiform can refuse (or migrate) an older file.
// It holds everything apply needs — statements, checks, rollback, fingerprint,
// configuration hash — and nothing secret: the plan model has no DSN field.

// PlanFileFormat is the format_version WritePlanFile writes and ReadPlanFile accepts.
const PlanFileFormat = 1

// planFileKind distinguishes a saved plan from other tiform JSON files.
const planFileKind = "tiform-plan"

type fileDTO struct {
	FormatVersion int              `json:"format_version"`
	Kind          string           `json:"kind"`
	ConfigHash    string           `json:"config_hash"`
	CreatedAt     *time.Time       `json:"created_at,omitempty"`
	Clusters      []fileClusterDTO `json:"clusters"`
}

type fileClusterDTO struct {
	Name              string            `json:"name"`
	Versions          map[string]string `json:"versions,omitempty"`
	Mixed             []string          `json:"mixed,omitempty"`
	Topology          map[string]int    `json:"topology,omitempty"`
	ServerVersion     string            `json:"server_version,omitempty"`
	ConnectedInstance string            `json:"connected_instance,omitempty"`
	Offline           *fileOfflineDTO   `json:"offline,omitempty"`
	Incomplete        []string          `json:"incomplete,omitempty"`
	Changes           []fileChangeDTO   `json:"changes"`
	Unmanaged         []string          `json:"unmanaged,omitempty"`
	Notes             []string          `json:"notes,omitempty"`
	Findings          []fileFindingDTO  `json:"findings,omitempty"`
	Fingerprint       []fileDepDTO      `json:"fingerprint"`
	// Evidence is workload.MarshalEvidence of ClusterPlan.Evidence (UI only).
	Evidence json.RawMessage `json:"evidence,omitempty"`
}

type fileOfflineDTO struct {
	Path    string     `json:"path"`
	TakenAt *time.Time `json:"taken_at,omitempty"`
	Hash    string     `json:"hash,omitempty"`
}

type fileChangeDTO struct {
	Address         string         `json:"address"`
	Kind            string         `json:"kind"`
	Action          string         `json:"action"`
	Component       string         `json:"component,omitempty"`
	Key             string         `json:"key,omitempty"`
	Instance        string         `json:"instance,omitempty"`
	Before          []fileValueDTO `json:"before,omitempty"`
	After           string         `json:"after,omitempty"`
	Statements      []fileStmtDTO  `json:"statements"`
	Verify          []fileCheckDTO `json:"verify,omitempty"`
	Rollback        []fileStmtDTO  `json:"rollback,omitempty"`
	Persistence     string         `json:"persistence,omitempty"`
	RestartRequired bool           `json:"restart_required,omitempty"`
	Range           *views.Range   `json:"range,omitempty"`
	Reason          string         `json:"reason,omitempty"`
	Findings        []string       `json:"findings,omitempty"`
	DependsOn       []string       `json:"depends_on,omitempty"`
	// Sensitive: the values and statements of this change are masked in the
	// file; apply takes them from the configuration (see docs/apply.md).
	Sensitive bool `json:"sensitive,omitempty"`
}

type fileValueDTO struct {
	Instance string `json:"instance,omitempty"`
	Value    string `json:"value"`
}

type fileStmtDTO struct {
	SQL    string `json:"sql"`
	Target string `json:"target,omitempty"`
}

type fileCheckDTO struct {
	Kind      string `json:"kind"`
	Component string `json:"component,omitempty"`
	Instance  string `json:"instance,omitempty"`
	Key       string `json:"key"`
	Want      string `json:"want"`
}

type fileFindingDTO struct {
	Code         string       `json:"code"`
	Severity     string       `json:"severity"`
	Address      string       `json:"address,omitempty"`
	Summary      string       `json:"summary"`
	Detail       string       `json:"detail,omitempty"`
	Link         string       `json:"link,omitempty"`
	Range        *views.Range `json:"range,omitempty"`
	Acknowledged bool         `json:"acknowledged,omitempty"`
	AckReason    string       `json:"ack_reason,omitempty"`
}

type fileDepDTO struct {
	Kind      string `json:"kind"`
	Component string `json:"component,omitempty"`
	Instance  string `json:"instance,omitempty"`
	Key       string `json:"key,omitempty"`
	Value     string `json:"value"`
}

// WritePlanFile writes p as a versioned JSON plan file.
func WritePlanFile(w io.Writer, p *Plan) error {
	if p == nil {
		return errors.New("planner: write plan file: no plan")
	}
	p = p.Shown() // a plan file never holds a sensitive value (Change.Sensitive is kept)
	dto := fileDTO{FormatVersion: PlanFileFormat, Kind: planFileKind, ConfigHash: p.ConfigHash, CreatedAt: timePtr(p.CreatedAt), Clusters: []fileClusterDTO{}}
	for _, cp := range p.Clusters {
		c := clusterToFile(cp)
		ev, err := workload.MarshalEvidence(cp.Evidence)
		if err != nil {
			return fmt.Errorf("planner: write plan file: cluster %q: %w", cp.Name, err)
		}
		c.Evidence = ev
		dto.Clusters = append(dto.Clusters, c)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(dto); err != nil {
		return fmt.Errorf("planner: write plan file: %w", err)
	}
	return nil
}

// ReadPlanFile reads a plan written by WritePlanFile. It rejects other
// format versions and values it does not know (an action, a severity), so a
// plan is never applied with a meaning it was not written with.
func ReadPlanFile(r io.Reader) (*Plan, error) {
	dec := json.NewDecoder(r)
	dec.DisallowUnknownFields()
	var dto fileDTO
	if err := dec.Decode(&dto); err != nil {
		return nil, fmt.Errorf("planner: read plan file: not a tiform plan file: %w", err)
	}
	if dto.Kind != planFileKind {
		return nil, fmt.Errorf("planner: read plan file: not a tiform plan file (kind %q)", dto.Kind)
	}
	if dto.FormatVersion != PlanFileFormat {
		return nil, fmt.Errorf("planner: read plan file: format_version %d is not supported (this tiform reads %d); re-run tiform plan", dto.FormatVersion, PlanFileFormat)
	}
	p := &Plan{ConfigHash: dto.ConfigHash}
	if dto.CreatedAt != nil {
		p.CreatedAt = *dto.CreatedAt
	}
	for i, c := range dto.Clusters {
		cp, err := clusterFromFile(c)
		if err != nil {
			return nil, fmt.Errorf("planner: read plan file: cluster %d (%q): %w", i, c.Name, err)
		}
		p.Clusters = append(p.Clusters, cp)
	}
	return p, nil
}

func timePtr(t time.Time) *time.Time {
	if t.IsZero() {
		return nil
	}
	u := t.UTC()
	return &u
}

func stmtsToFile(ss []Statement) []fileStmtDTO {
	out := []fileStmtDTO{}
	for _, s := range ss {
		out = append(out, fileStmtDTO(s))
	}
	return out
}

func stmtsFromFile(ss []fileStmtDTO) []Statement {
	var out []Statement
	for _, s := range ss {
		out = append(out, Statement(s))
	}
	return out
}

func clusterToFile(cp *ClusterPlan) fileClusterDTO {
	c := fileClusterDTO{
		Name:              cp.Name,
		ServerVersion:     cp.ServerVersion,
		ConnectedInstance: cp.ConnectedInstance,
		Incomplete:        cp.Incomplete,
		Unmanaged:         cp.Unmanaged,
		Notes:             cp.Notes,
		Changes:           []fileChangeDTO{},
		Fingerprint:       []fileDepDTO{},
	}
	if len(cp.Versions) > 0 {
		c.Versions = map[string]string{}
		for k, v := range cp.Versions {
			c.Versions[string(k)] = v
		}
	}
	if len(cp.Topology) > 0 {
		c.Topology = map[string]int{}
		for k, v := range cp.Topology {
			c.Topology[string(k)] = v
		}
	}
	for _, m := range cp.Mixed {
		c.Mixed = append(c.Mixed, string(m))
	}
	if cp.Offline != nil {
		c.Offline = &fileOfflineDTO{Path: cp.Offline.Path, TakenAt: timePtr(cp.Offline.TakenAt), Hash: cp.Offline.Hash}
	}
	for _, ch := range cp.Changes {
		d := fileChangeDTO{
			Address: ch.Address, Kind: string(ch.Kind), Action: ch.Action.String(),
			Component: string(ch.Component), Key: ch.Key, Instance: ch.Instance, After: ch.After,
			Statements: stmtsToFile(ch.Statements), Persistence: string(ch.Persistence),
			RestartRequired: ch.RestartRequired, Range: views.NewRange(ch.Range), Reason: ch.Reason,
			Findings: ch.Findings, DependsOn: ch.DependsOn, Sensitive: ch.Sensitive,
		}
		for _, b := range ch.Before {
			d.Before = append(d.Before, fileValueDTO(b))
		}
		for _, v := range ch.Verify {
			d.Verify = append(d.Verify, fileCheckDTO{Kind: string(v.Kind), Component: string(v.Component), Instance: v.Instance, Key: v.Key, Want: v.Want})
		}
		if len(ch.Rollback) > 0 {
			d.Rollback = stmtsToFile(ch.Rollback)
		}
		c.Changes = append(c.Changes, d)
	}
	for _, f := range cp.Findings {
		c.Findings = append(c.Findings, fileFindingDTO{Code: f.Code, Severity: f.Severity.String(), Address: f.Address,
			Summary: f.Summary, Detail: f.Detail, Link: f.Link, Range: views.NewRange(f.Range),
			Acknowledged: f.Acknowledged, AckReason: f.AckReason})
	}
	for _, d := range cp.Fingerprint {
		c.Fingerprint = append(c.Fingerprint, fileDepDTO{Kind: string(d.Kind), Component: string(d.Component), Instance: d.Instance, Key: d.Key, Value: d.Value})
	}
	return c
}

// ParseAction is the inverse of Action.String.
func ParseAction(s string) (Action, error) {
	for _, a := range []Action{Create, Update, Delete, Drift, NoOp} {
		if a.String() == s {
			return a, nil
		}
	}
	return NoOp, fmt.Errorf("unknown action %q", s)
}

var knownKinds = map[string]bool{
	string(KindConfig): true, string(KindVariable): true, string(KindResourceGroup): true, string(KindUser): true,
	string(KindVersion): true, string(KindInstance): true,
}

func clusterFromFile(c fileClusterDTO) (*ClusterPlan, error) {
	cp := &ClusterPlan{
		Name:              c.Name,
		Versions:          map[state.Component]string{},
		Topology:          map[state.Component]int{},
		ServerVersion:     c.ServerVersion,
		ConnectedInstance: c.ConnectedInstance,
		Incomplete:        c.Incomplete,
		Unmanaged:         c.Unmanaged,
		Notes:             c.Notes,
	}
	ev, err := workload.UnmarshalEvidence(c.Evidence)
	if err != nil {
		return nil, err
	}
	cp.Evidence = ev
	for k, v := range c.Versions {
		cp.Versions[state.Component(k)] = v
	}
	for k, v := range c.Topology {
		cp.Topology[state.Component(k)] = v
	}
	for _, m := range c.Mixed {
		cp.Mixed = append(cp.Mixed, state.Component(m))
	}
	if c.Offline != nil {
		cp.Offline = &state.SnapshotInfo{Path: c.Offline.Path, Hash: c.Offline.Hash}
		if c.Offline.TakenAt != nil {
			cp.Offline.TakenAt = *c.Offline.TakenAt
		}
	}
	for _, d := range c.Changes {
		a, err := ParseAction(d.Action)
		if err != nil {
			return nil, fmt.Errorf("change %s: %w", d.Address, err)
		}
		if !knownKinds[d.Kind] {
			return nil, fmt.Errorf("change %s: unknown kind %q", d.Address, d.Kind)
		}
		if d.Address == "" {
			return nil, errors.New("a change has no address")
		}
		ch := &Change{
			Address: d.Address, Kind: Kind(d.Kind), Action: a, Component: state.Component(d.Component),
			Key: d.Key, Instance: d.Instance, After: d.After, Statements: stmtsFromFile(d.Statements),
			Rollback: stmtsFromFile(d.Rollback), Persistence: Persistence(d.Persistence),
			RestartRequired: d.RestartRequired, Range: d.Range.SourceRange(), Reason: d.Reason,
			Findings: d.Findings, DependsOn: d.DependsOn, Sensitive: d.Sensitive,
		}
		for _, b := range d.Before {
			ch.Before = append(ch.Before, InstanceValue(b))
		}
		for _, v := range d.Verify {
			ch.Verify = append(ch.Verify, Check{Kind: Kind(v.Kind), Component: state.Component(v.Component), Instance: v.Instance, Key: v.Key, Want: v.Want})
		}
		cp.Changes = append(cp.Changes, ch)
	}
	for _, f := range c.Findings {
		sev, err := diag.ParseSeverity(f.Severity)
		if err != nil {
			return nil, fmt.Errorf("finding %s: %w", f.Code, err)
		}
		cp.Findings = append(cp.Findings, guard.Finding{Code: f.Code, Severity: sev, Address: f.Address,
			Summary: f.Summary, Detail: f.Detail, Link: f.Link, Range: f.Range.SourceRange(),
			Acknowledged: f.Acknowledged, AckReason: f.AckReason})
	}
	for _, d := range c.Fingerprint {
		if !knownKinds[d.Kind] {
			return nil, fmt.Errorf("fingerprint: unknown kind %q", d.Kind)
		}
		cp.Fingerprint = append(cp.Fingerprint, Dependency{Kind: Kind(d.Kind), Component: state.Component(d.Component), Instance: d.Instance, Key: d.Key, Value: d.Value})
	}
	return cp, nil
}

// Hash is a stable hash of the cluster plan: SHA-256 ("sha256:" + hex) of the
// cluster's saved-plan encoding (WritePlanFile), so a plan applied from a
// file and the same plan built in memory hash alike. The Markdown view shows
// it and the audit log records it, tying a reviewed plan to its apply.
//
// The evidence (statement statistics, UI only) and the findings that quote
// it (guard.FromEvidence) are left out: they change with every read, and the
// apply of a reviewed plan reads them again.
func (cp *ClusterPlan) Hash() string {
	var b bytes.Buffer
	if err := WritePlanFile(&b, &Plan{Clusters: []*ClusterPlan{withoutEvidence(cp)}}); err != nil {
		return ""
	}
	h := sha256.Sum256(b.Bytes())
	return "sha256:" + hex.EncodeToString(h[:])
}

// withoutEvidence is cp without its evidence and the findings quoting it.
func withoutEvidence(cp *ClusterPlan) *ClusterPlan {
	if cp.Evidence == nil {
		return cp
	}
	c := *cp
	c.Evidence = nil
	c.Findings = nil
	for _, f := range cp.Findings {
		if !guard.FromEvidence(f.Code) {
			c.Findings = append(c.Findings, f)
		}
	}
	c.Changes = make([]*Change, len(cp.Changes))
	for i, ch := range cp.Changes {
		cc := *ch
		cc.Findings = nil
		for _, code := range ch.Findings {
			if !guard.FromEvidence(code) {
				cc.Findings = append(cc.Findings, code)
			}
		}
		c.Changes[i] = &cc
	}
	return &c
}

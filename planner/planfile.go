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
	"github.com/tiform/tiform/plans"
	"github.com/tiform/tiform/state"
	"github.com/tiform/tiform/views"
	"github.com/tiform/tiform/workload"
)

// Saved plans (`tiform plan --out plan.tfplan`). The file is JSON written
// through the DTOs below, never by marshalling Plan directly, with a
// format_version so that a newer tiform can refuse (or migrate) an older file.
// It holds everything apply needs — statements, checks, rollback, fingerprint,
// configuration hash — and nothing secret: the plan model has no DSN field.

// PlanFileFormat is the format_version WritePlanFile writes and ReadPlanFile
// accepts. Version 2 names every change, check and dependency by its typed
// address (state.Address) and lists a resource-group check's options;
// version 3 adds each change's spec (what its statements derive from) and
// the integrity section.
const PlanFileFormat = 3

// planFileKind distinguishes a saved plan from other tiform JSON files.
const planFileKind = "tiform-plan"

type fileDTO struct {
	FormatVersion int              `json:"format_version"`
	Kind          string           `json:"kind"`
	ConfigHash    string           `json:"config_hash"`
	CreatedAt     *time.Time       `json:"created_at,omitempty"`
	Clusters      []fileClusterDTO `json:"clusters"`
	// Integrity is the hash of everything above (integrity.go).
	Integrity *fileIntegrityDTO `json:"integrity,omitempty"`
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
	Ignored           []fileIgnoredDTO  `json:"ignored,omitempty"`
	Unmanaged         []string          `json:"unmanaged,omitempty"`
	Notes             []string          `json:"notes,omitempty"`
	Findings          []fileFindingDTO  `json:"findings,omitempty"`
	Fingerprint       []fileDepDTO      `json:"fingerprint"`
	// Evidence is workload.MarshalEvidence of ClusterPlan.Evidence (UI only).
	Evidence json.RawMessage `json:"evidence,omitempty"`
	// Layers is ClusterPlan.Layers (UI only; planfile_layers.go).
	Layers *fileLayersDTO `json:"layers,omitempty" integrity:"omitempty"`
}

// fileIgnoredDTO is a difference an ignore block accepted (Ignored).
type fileIgnoredDTO struct {
	Change  fileChangeDTO `json:"change"`
	Pattern string        `json:"pattern"`
	Reason  string        `json:"reason"`
	Until   *time.Time    `json:"until,omitempty"`
	Range   *views.Range  `json:"range,omitempty"`
}

type fileOfflineDTO struct {
	Path    string     `json:"path"`
	TakenAt *time.Time `json:"taken_at,omitempty"`
	Hash    string     `json:"hash,omitempty"`
}

type fileChangeDTO struct {
	Address         string         `json:"address"`
	Action          string         `json:"action"`
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
	// Spec is what apply re-derives the statements from (planfile_spec.go).
	Spec *fileSpecDTO `json:"spec,omitempty"`
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
	Address string          `json:"address"`
	Want    string          `json:"want,omitempty"`
	Options []fileOptionDTO `json:"options,omitempty"`
}

type fileOptionDTO struct {
	Name  string `json:"name"`
	Value string `json:"value"`
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
	Address string `json:"address"`
	Value   string `json:"value"`
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
	if err := seal(&dto); err != nil {
		return fmt.Errorf("planner: write plan file: %w", err)
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
	if err := verifyIntegrity(&dto); err != nil {
		return nil, err
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

func stmtsToFile(ss []plans.Statement) []fileStmtDTO {
	out := []fileStmtDTO{}
	for _, s := range ss {
		out = append(out, fileStmtDTO(s))
	}
	return out
}

func stmtsFromFile(ss []fileStmtDTO) []plans.Statement {
	var out []plans.Statement
	for _, s := range ss {
		out = append(out, plans.Statement(s))
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
		Layers:            layersToFile(cp.Layers),
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
		c.Changes = append(c.Changes, changeToFile(ch))
	}
	for _, ig := range cp.Ignored {
		c.Ignored = append(c.Ignored, fileIgnoredDTO{Change: changeToFile(ig.Change), Pattern: string(ig.Pattern),
			Reason: ig.Reason, Until: timePtr(ig.Until), Range: views.NewRange(ig.Range)})
	}
	for _, f := range cp.Findings {
		c.Findings = append(c.Findings, fileFindingDTO{Code: f.Code, Severity: f.Severity.String(), Address: f.Address,
			Summary: f.Summary, Detail: f.Detail, Link: f.Link, Range: views.NewRange(f.Range),
			Acknowledged: f.Acknowledged, AckReason: f.AckReason})
	}
	for _, d := range cp.Fingerprint {
		c.Fingerprint = append(c.Fingerprint, fileDepDTO{Address: d.Addr.String(), Value: d.Value})
	}
	return c
}

// changeToFile is one change as a saved plan holds it.
func changeToFile(ch *plans.Change) fileChangeDTO {
	d := fileChangeDTO{
		Address: ch.Addr.String(), Action: ch.Action.String(), After: ch.After,
		Statements: stmtsToFile(ch.Statements), Persistence: string(ch.Persistence),
		RestartRequired: ch.RestartRequired, Range: views.NewRange(ch.Range), Reason: ch.Reason,
		Findings: ch.Findings, Sensitive: ch.Sensitive, Spec: specToFile(ch.Spec),
	}
	for _, a := range ch.DependsOn {
		d.DependsOn = append(d.DependsOn, a.String())
	}
	for _, b := range ch.Before {
		d.Before = append(d.Before, fileValueDTO(b))
	}
	for _, v := range ch.Verify {
		fc := fileCheckDTO{Address: v.Addr.String(), Want: v.Want}
		for _, o := range v.Options {
			fc.Options = append(fc.Options, fileOptionDTO(o))
		}
		d.Verify = append(d.Verify, fc)
	}
	if len(ch.Rollback) > 0 {
		d.Rollback = stmtsToFile(ch.Rollback)
	}
	return d
}

// settingAddress reads the address of a change or check: a config item,
// variable, resource group or user (never a version or instance).
func settingAddress(s string) (state.Address, error) {
	a, err := state.ParseAddress(s)
	if err != nil {
		return a, err
	}
	if a.Kind == state.KindVersion || a.Kind == state.KindInstance {
		return a, fmt.Errorf("%s is not a setting", s)
	}
	return a, nil
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
	if cp.Layers, err = layersFromFile(c.Layers); err != nil {
		return nil, err
	}
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
		ch, err := changeFromFile(d)
		if err != nil {
			return nil, err
		}
		cp.Changes = append(cp.Changes, ch)
	}
	for _, d := range c.Ignored {
		ch, err := changeFromFile(d.Change)
		if err != nil {
			return nil, fmt.Errorf("ignored %w", err)
		}
		p, err := state.ParseAddressPattern(d.Pattern)
		if err != nil {
			return nil, fmt.Errorf("ignored change %s: %w", d.Change.Address, err)
		}
		ig := plans.Ignored{Change: ch, Pattern: p, Reason: d.Reason, Range: d.Range.SourceRange()}
		if d.Until != nil {
			ig.Until = *d.Until
		}
		cp.Ignored = append(cp.Ignored, ig)
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
		a, err := state.ParseAddress(d.Address)
		if err != nil {
			return nil, fmt.Errorf("fingerprint: %w", err)
		}
		cp.Fingerprint = append(cp.Fingerprint, plans.Dependency{Addr: a, Value: d.Value})
	}
	return cp, nil
}

// changeFromFile reads one change; every address must parse and name a
// setting, and the action must be one tiform writes.
func changeFromFile(d fileChangeDTO) (*plans.Change, error) {
	if d.Address == "" {
		return nil, errors.New("a change has no address")
	}
	addr, err := settingAddress(d.Address)
	if err != nil {
		return nil, fmt.Errorf("change: %w", err)
	}
	a, err := plans.ParseAction(d.Action)
	if err != nil {
		return nil, fmt.Errorf("change %s: %w", d.Address, err)
	}
	spec, err := specFromFile(d.Spec)
	if err != nil {
		return nil, fmt.Errorf("change %s: spec: %w", d.Address, err)
	}
	ch := &plans.Change{
		Addr: addr, Action: a, After: d.After, Statements: stmtsFromFile(d.Statements),
		Rollback: stmtsFromFile(d.Rollback), Persistence: plans.Persistence(d.Persistence),
		RestartRequired: d.RestartRequired, Range: d.Range.SourceRange(), Reason: d.Reason,
		Findings: d.Findings, Sensitive: d.Sensitive, Spec: spec,
	}
	for _, s := range d.DependsOn {
		dep, err := settingAddress(s)
		if err != nil {
			return nil, fmt.Errorf("change %s: depends on: %w", d.Address, err)
		}
		ch.DependsOn = append(ch.DependsOn, dep)
	}
	for _, b := range d.Before {
		ch.Before = append(ch.Before, plans.InstanceValue(b))
	}
	for _, v := range d.Verify {
		ca, err := settingAddress(v.Address)
		if err != nil {
			return nil, fmt.Errorf("change %s: verify: %w", d.Address, err)
		}
		chk := plans.Check{Addr: ca, Want: v.Want}
		for _, o := range v.Options {
			chk.Options = append(chk.Options, plans.GroupOption(o))
		}
		ch.Verify = append(ch.Verify, chk)
	}
	return ch, nil
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
	c.Changes = make([]*plans.Change, len(cp.Changes))
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

package workload

import (
	"bytes"
	"encoding/json"
	"fmt"
	"time"
)

// The persisted form of Evidence, inside a saved plan (planner's plan file),
// so `tiform show` renders a saved plan's evidence exactly as `tiform plan`
// did. Versioned DTOs; the report types are never marshalled directly.

// EvidenceFormat is the format_version MarshalEvidence writes and
// UnmarshalEvidence accepts.
const EvidenceFormat = 1

type evidenceDTO struct {
	FormatVersion int           `json:"format_version"`
	Unavailable   string        `json:"unavailable,omitempty"`
	PlanCache     *planCacheDTO `json:"plan_cache,omitempty"`
	MVCC          *mvccDTO      `json:"mvcc,omitempty"`
}

type readDTO struct {
	Version        string        `json:"version,omitempty"`
	Source         string        `json:"source"`
	ClusterWide    bool          `json:"cluster_wide"`
	Since          time.Duration `json:"since"`
	From           *time.Time    `json:"from,omitempty"`
	To             *time.Time    `json:"to,omitempty"`
	Truncated      bool          `json:"truncated,omitempty"`
	Limit          int           `json:"limit"`
	StatementsRead int           `json:"statements_read"`
	Notes          []string      `json:"notes,omitempty"`
}

type reasonDTO struct {
	Key, Title, Meaning, Fix, Link string
}

type reasonCountDTO struct {
	Reason      reasonDTO `json:"reason"`
	Texts       []string  `json:"texts"`
	Unqualified int64     `json:"unqualified"`
	Share       float64   `json:"share"`
	Digests     int       `json:"digests"`
	Example     string    `json:"example"`
}

type gainDTO struct {
	Digest, Text    string
	Prepared        bool
	Executions      int64
	Hits            int64
	Unqualified     int64
	MissCompileTime time.Duration
	AvgLatency      time.Duration
	Blocker         reasonDTO
}

type notCountedDTO struct {
	Kind                  NotCountedKind
	Title, Meaning, Check string
	Executions            int64
	Digests               int
	Example               string
}

type adviceDTO struct {
	Verdict  Verdict      `json:"verdict"`
	Summary  string       `json:"summary"`
	Changes  []Suggestion `json:"changes,omitempty"`
	Evidence []string     `json:"evidence,omitempty"`
	Caveats  []string     `json:"caveats,omitempty"`
}

type planCacheDTO struct {
	Read            readDTO           `json:"read"`
	Reduced         bool              `json:"reduced"`
	CannotSee       []string          `json:"cannot_see,omitempty"`
	Settings        map[string]string `json:"settings,omitempty"`
	All             Ratio             `json:"all"`
	Prepared        Ratio             `json:"prepared"`
	NonPrepared     Ratio             `json:"non_prepared"`
	OtherExecutions int64             `json:"other_executions"`
	CacheableShapes int               `json:"cacheable_shapes"`
	NotCounted      []notCountedDTO   `json:"not_counted,omitempty"`
	Reasons         []reasonCountDTO  `json:"reasons,omitempty"`
	Gains           []gainDTO         `json:"gains,omitempty"`
	Advice          adviceDTO         `json:"advice"`
}

type mvccDTO struct {
	Read            readDTO     `json:"read"`
	Threshold       float64     `json:"threshold"`
	ThresholdSource string      `json:"threshold_source"`
	RocksDB         bool        `json:"rocksdb"`
	Tables          []MVCCTable `json:"tables,omitempty"`
	Verdict         MVCCVerdict `json:"verdict"`
	Summary         string      `json:"summary"`
	GCLifeTime      string      `json:"gc_life_time,omitempty"`
	Watch           []string    `json:"watch,omitempty"`
}

func toReadDTO(r Read) readDTO {
	return readDTO{Version: r.Version, Source: r.Source, ClusterWide: r.ClusterWide, Since: r.Since, From: timePtr(r.From),
		To: timePtr(r.To), Truncated: r.Truncated, Limit: r.Limit, StatementsRead: r.StatementsRead, Notes: r.Notes}
}

func (d readDTO) read() Read {
	return Read{Version: d.Version, Source: d.Source, ClusterWide: d.ClusterWide, Since: d.Since, From: timeOf(d.From),
		To: timeOf(d.To), Truncated: d.Truncated, Limit: d.Limit, StatementsRead: d.StatementsRead, Notes: d.Notes}
}

func timePtr(t time.Time) *time.Time {
	if t.IsZero() {
		return nil
	}
	u := t.UTC()
	return &u
}

func timeOf(p *time.Time) time.Time {
	if p == nil {
		return time.Time{}
	}
	return p.UTC()
}

func toReasonDTO(r Reason) reasonDTO {
	return reasonDTO{Key: r.Key, Title: r.Title, Meaning: r.Meaning, Fix: r.Fix, Link: r.Link}
}

func (d reasonDTO) reason() Reason {
	return Reason{Key: d.Key, Title: d.Title, Meaning: d.Meaning, Fix: d.Fix, Link: d.Link}
}

// MarshalEvidence encodes ev for a plan file (nil for a nil ev).
func MarshalEvidence(ev *Evidence) (json.RawMessage, error) {
	if ev == nil {
		return nil, nil
	}
	d := evidenceDTO{FormatVersion: EvidenceFormat, Unavailable: ev.Unavailable}
	if r := ev.PlanCache; r != nil {
		p := &planCacheDTO{
			Read:    toReadDTO(r.Read),
			Reduced: r.Reduced, CannotSee: r.CannotSee, Settings: r.Settings, All: r.All, Prepared: r.Prepared,
			NonPrepared: r.NonPrepared, OtherExecutions: r.OtherExecutions, CacheableShapes: r.CacheableShapes,
			Advice: adviceDTO{Verdict: r.Advice.Verdict, Summary: r.Advice.Summary, Changes: r.Advice.Changes,
				Evidence: r.Advice.Evidence, Caveats: r.Advice.Caveats},
		}
		for _, rc := range r.Reasons {
			p.Reasons = append(p.Reasons, reasonCountDTO{Reason: toReasonDTO(rc.Reason), Texts: rc.Texts, Unqualified: rc.Unqualified,
				Share: rc.Share, Digests: rc.Digests, Example: rc.Example})
		}
		for _, nc := range r.NotCounted {
			p.NotCounted = append(p.NotCounted, notCountedDTO(nc))
		}
		for _, g := range r.Gains {
			p.Gains = append(p.Gains, gainDTO{Digest: g.Digest, Text: g.Text, Prepared: g.Prepared, Executions: g.Executions, Hits: g.Hits,
				Unqualified: g.Unqualified, MissCompileTime: g.MissCompileTime, AvgLatency: g.AvgLatency, Blocker: toReasonDTO(g.Blocker)})
		}
		d.PlanCache = p
	}
	if r := ev.MVCC; r != nil {
		d.MVCC = &mvccDTO{
			Read:      toReadDTO(r.Read),
			Threshold: r.Threshold, ThresholdSource: r.ThresholdSource, RocksDB: r.RocksDB, Tables: r.Tables, Verdict: r.Verdict,
			Summary: r.Summary, GCLifeTime: r.GCLifeTime, Watch: r.Watch,
		}
	}
	return json.Marshal(d)
}

// UnmarshalEvidence decodes what MarshalEvidence wrote (nil for empty raw).
func UnmarshalEvidence(raw json.RawMessage) (*Evidence, error) {
	if len(bytes.TrimSpace(raw)) == 0 || string(bytes.TrimSpace(raw)) == "null" {
		return nil, nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	var d evidenceDTO
	if err := dec.Decode(&d); err != nil {
		return nil, fmt.Errorf("workload: evidence: %w", err)
	}
	if d.FormatVersion != EvidenceFormat {
		return nil, fmt.Errorf("workload: evidence: format_version %d, this tiform reads %d", d.FormatVersion, EvidenceFormat)
	}
	ev := &Evidence{Unavailable: d.Unavailable}
	if p := d.PlanCache; p != nil {
		r := &PlanCacheReport{Read: p.Read.read(), Reduced: p.Reduced, CannotSee: p.CannotSee,
			Settings: p.Settings, All: p.All, Prepared: p.Prepared, NonPrepared: p.NonPrepared, OtherExecutions: p.OtherExecutions,
			CacheableShapes: p.CacheableShapes, Advice: Advice{Verdict: p.Advice.Verdict, Summary: p.Advice.Summary,
				Changes: p.Advice.Changes, Evidence: p.Advice.Evidence, Caveats: p.Advice.Caveats}}
		if r.Settings == nil {
			r.Settings = map[string]string{}
		}
		for _, rc := range p.Reasons {
			r.Reasons = append(r.Reasons, ReasonCount{Reason: rc.Reason.reason(), Texts: rc.Texts, Unqualified: rc.Unqualified,
				Share: rc.Share, Digests: rc.Digests, Example: rc.Example})
		}
		for _, nc := range p.NotCounted {
			r.NotCounted = append(r.NotCounted, NotCounted(nc))
		}
		for _, g := range p.Gains {
			r.Gains = append(r.Gains, Gain{Digest: g.Digest, Text: g.Text, Prepared: g.Prepared, Executions: g.Executions, Hits: g.Hits,
				Unqualified: g.Unqualified, MissCompileTime: g.MissCompileTime, AvgLatency: g.AvgLatency, Blocker: g.Blocker.reason()})
		}
		ev.PlanCache = r
	}
	if m := d.MVCC; m != nil {
		ev.MVCC = &MVCCReport{Read: m.Read.read(), Threshold: m.Threshold, ThresholdSource: m.ThresholdSource,
			RocksDB: m.RocksDB, Tables: m.Tables, Verdict: m.Verdict, Summary: m.Summary, GCLifeTime: m.GCLifeTime, Watch: m.Watch}
	}
	return ev, nil
}

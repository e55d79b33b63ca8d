package rollout

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/tiform/tiform/input"
	"github.com/tiform/tiform/internal/files"
	"github.com/tiform/tiform/planner"
	"github.com/tiform/tiform/plans"
	"github.com/tiform/tiform/views"
)

// The state file (apply --state FILE): what a rollout did and what remains,
// written atomically after every cluster and every gate, so that apply
// --resume FILE continues after an interruption or a stop. It is versioned
// JSON (views/schema/rollout-state.schema.json). It holds cluster names,
// stage names, plan hashes and the addresses of planned changes: never a DSN
// or a value.

// stateKind marks a file as a rollout state (a plan file or a snapshot given
// to --resume is refused by it).
const stateKind = "tiform-rollout-state"

// Status of one cluster in a rollout.
type Status string

const (
	// ClusterPending: not applied yet (remains).
	ClusterPending Status = "pending"
	// ClusterApplied: its apply completed (done).
	ClusterApplied Status = "applied"
	// ClusterNothing: its plan had no change (done).
	ClusterNothing Status = "nothing"
	// ClusterFailed: its apply did not complete; what it changed is in its
	// rollback plan (remains: resuming applies what is left of its plan).
	ClusterFailed Status = "failed"
	// ClusterRefused: nothing was sent: the apply lock was held, its plan changed
	// since the rollout was reviewed, its plan was stale (remains).
	ClusterRefused Status = "refused"
	// ClusterUnreachable: it could not be read, or only in part (remains).
	ClusterUnreachable Status = "unreachable"
	// ClusterSkipped: its plan has an error finding and the rollout does not stop
	// on those (remains).
	ClusterSkipped Status = "skipped"
	// ClusterInterrupted: Ctrl-C stopped its apply (remains).
	ClusterInterrupted Status = "interrupted"
)

// Done reports whether a cluster in status s needs nothing more.
func (s Status) Done() bool { return s == ClusterApplied || s == ClusterNothing }

// Touched reports whether a cluster in status s may have been changed by the
// rollout although it is not done: resuming applies what is left of its
// plan, not necessarily the plan the rollout reviewed.
func (s Status) Touched() bool { return s == ClusterFailed || s == ClusterInterrupted }

// Run status of a whole rollout.
const (
	RunRunning     = "running"
	RunComplete    = "complete"
	RunStopped     = "stopped"
	RunPaused      = "paused"
	RunInterrupted = "interrupted"
)

// State is the state file's content.
type State struct {
	views.Header
	Kind       string    `json:"kind"`
	ConfigHash string    `json:"config_hash"`
	StartedAt  time.Time `json:"started_at"`
	UpdatedAt  time.Time `json:"updated_at"`
	// Status is running, complete, stopped, paused or interrupted; Reason
	// says why a run stopped or paused, and Next names the stage a resume
	// starts with ("" when complete).
	Status string `json:"status"`
	Reason string `json:"reason,omitempty"`
	Next   string `json:"next_stage,omitempty"`
	// PausedFor says what a paused rollout waits for: "approval" (the gate
	// before Next asked a person, and nobody could answer: resuming is the
	// approval) or "window" (Next's clusters were outside their windows).
	PausedFor string `json:"paused_for,omitempty"`
	// Done and Remain list the clusters, in rollout order.
	Done   []string      `json:"done"`
	Remain []string      `json:"remaining"`
	Stages []*StageState `json:"stages"`
}

// StageState is one stage's clusters and how far the stage got.
type StageState struct {
	Name string `json:"name"`
	// Status: pending, running, complete (every cluster done, gate passed),
	// stopped (the rollout stopped in it or at its gate).
	Status   string          `json:"status"`
	Clusters []*ClusterState `json:"clusters"`
	// Gate is what the gate after the stage found, step by step.
	Gate []GateResult `json:"gate,omitempty"`
}

// ClusterState is one cluster's place in the rollout.
type ClusterState struct {
	Name   string `json:"name"`
	Status Status `json:"status"`
	// PlanHash is the hash of the plan the rollout reviewed for the cluster
	// (planner.ClusterPlan.Hash), "" when it could not be planned; Changes
	// what that plan changes, each change's address and a hash of what it
	// sets (Targets). A resume applies a pending cluster only with a plan of
	// the same hash, and a touched one only with what is left of it.
	PlanHash string         `json:"plan_hash"`
	Changes  []ChangeTarget `json:"changes,omitempty"`
	// Applied counts the changes its apply applied; Error says why it is
	// not done; At is when its status was last set.
	Applied int       `json:"applied,omitempty"`
	Error   string    `json:"error,omitempty"`
	At      time.Time `json:"at,omitzero"`
}

// ChangeTarget is one planned change: its address and what it sets.
type ChangeTarget struct {
	Address string `json:"address"`
	Target  string `json:"target"`
}

// GateResult is one step of a stage's gate.
type GateResult struct {
	Check  string    `json:"check"`
	Result string    `json:"result"`
	Detail string    `json:"detail,omitempty"`
	At     time.Time `json:"at"`
}

// Targets lists what cp's changes set: per change, its address and a hash
// of its action and the values its read-back must find (the Verify checks,
// in canonical form), which do not depend on the values before.
func Targets(cp *planner.ClusterPlan) []ChangeTarget {
	out := make([]ChangeTarget, 0, len(cp.Changes))
	for _, ch := range cp.Changes {
		out = append(out, ChangeTarget{Address: ch.Addr.String(), Target: targetHash(ch)})
	}
	return out
}

func targetHash(ch *plans.Change) string {
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00", ch.Action)
	checks := append([]plans.Check(nil), ch.Verify...)
	sort.SliceStable(checks, func(i, j int) bool { return checks[i].Addr.String() < checks[j].Addr.String() })
	for _, c := range checks {
		fmt.Fprintf(h, "%s\x00%s\x00", c.Addr, c.Want)
		for _, o := range c.Options {
			fmt.Fprintf(h, "%s=%s\x00", o.Name, o.Value)
		}
		h.Write([]byte{1})
	}
	return "sha256:" + hex.EncodeToString(h.Sum(nil))[:16]
}

// stateKindError says a file given to --resume is not a rollout state.
type stateKindError struct{ path, kind string }

func (e *stateKindError) Error() string {
	return fmt.Sprintf("%s is not a rollout state file (apply --state writes one)", e.path)
}

// ReadState reads a state file written by WriteState.
func ReadState(path string) (*State, error) {
	b, err := input.ReadFile(path, input.State)
	if err != nil {
		return nil, fmt.Errorf("rollout: read state: %w", err)
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	var s State
	if err := dec.Decode(&s); err != nil {
		var probe struct {
			Kind string `json:"kind"`
		}
		if json.Unmarshal(b, &probe) == nil && probe.Kind != stateKind {
			return nil, &stateKindError{path: path, kind: probe.Kind}
		}
		return nil, fmt.Errorf("rollout: read state %s: %w", path, err)
	}
	if s.Kind != stateKind {
		return nil, &stateKindError{path: path, kind: s.Kind}
	}
	if major, _, _ := strings.Cut(string(s.FormatVersion), "."); major != strings.Split(string(views.Format), ".")[0] {
		return nil, fmt.Errorf("rollout: %s has format_version %s; this tiform reads %s", path, s.FormatVersion, views.Format)
	}
	return &s, nil
}

// WriteState writes s to path atomically (internal/files): a reader sees
// the old file or the new one, never a part.
func WriteState(path string, s *State) error {
	s.Header = views.NewHeader()
	s.Kind = stateKind
	s.Done, s.Remain = []string{}, []string{}
	for _, st := range s.Stages {
		for _, c := range st.Clusters {
			if c.Status.Done() {
				s.Done = append(s.Done, c.Name)
			} else {
				s.Remain = append(s.Remain, c.Name)
			}
		}
	}
	var b bytes.Buffer
	if err := views.Write(&b, s); err != nil {
		return err
	}
	if err := files.WriteBytes(path, b.Bytes(), files.Private); err != nil {
		return fmt.Errorf("rollout: write state: %w", err)
	}
	return nil
}

// cluster returns the state of the cluster called name.
func (s *State) cluster(name string) *ClusterState {
	for _, st := range s.Stages {
		for _, c := range st.Clusters {
			if c.Name == name {
				return c
			}
		}
	}
	return nil
}

// stage returns the state of the stage called name.
func (s *State) stage(name string) *StageState {
	for _, st := range s.Stages {
		if st.Name == name {
			return st
		}
	}
	return nil
}

// done lists the clusters done, in rollout order.
func (s *State) done() []string {
	var out []string
	for _, st := range s.Stages {
		for _, c := range st.Clusters {
			if c.Status.Done() {
				out = append(out, c.Name)
			}
		}
	}
	return out
}

// remaining lists the clusters not done, in rollout order.
func (s *State) remaining() []string {
	var out []string
	for _, st := range s.Stages {
		for _, c := range st.Clusters {
			if !c.Status.Done() {
				out = append(out, c.Name)
			}
		}
	}
	return out
}

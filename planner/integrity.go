package planner

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/tiform/tiform/plans"
)

// Saved-plan integrity. A plan file carries a SHA-256 of everything else it
// holds, and a short hash of every field (of the plan, of each cluster, of
// each change) so that ReadPlanFile can say what an edit touched. Apply
// refuses a file whose hash does not match: "the plan file was modified after
// it was written", naming the fields. The hash is not a signature: whoever can
// edit the file and run tiform can write a matching one (docs/apply.md,
// SECURITY.md). What stops such a plan from running SQL it was not built for
// is re-derivation (derive.go, CheckDerivable): apply sends only statements
// the change's own values derive.

type fileIntegrityDTO struct {
	// SHA256 is the hash of the plan file's JSON without this section.
	SHA256   string                    `json:"sha256"`
	Plan     map[string]string         `json:"plan"`
	Clusters []fileClusterIntegrityDTO `json:"clusters"`
}

type fileClusterIntegrityDTO struct {
	Name    string                   `json:"name"`
	Fields  map[string]string        `json:"fields"`
	Changes []fileChangeIntegrityDTO `json:"changes"`
}

type fileChangeIntegrityDTO struct {
	Address string            `json:"address"`
	Fields  map[string]string `json:"fields"`
}

// TamperedError says a plan file does not match its integrity hash, and
// which parts were edited (as far as the per-field hashes tell).
type TamperedError struct {
	Parts []string
}

func (e *TamperedError) Error() string {
	what := "the integrity section does not match the plan"
	if len(e.Parts) > 0 {
		what = strings.Join(e.Parts, "; ")
	}
	return "the plan file was modified after it was written (" + what + "). tiform applies a saved plan only as it was written: run tiform plan again and review the new plan"
}

// seal normalises dto (what a write then read gives back) and sets its
// integrity section.
func seal(dto *fileDTO) error {
	dto.Integrity = nil
	if err := canonicalRaw(dto); err != nil {
		return err
	}
	b, err := json.Marshal(dto)
	if err != nil {
		return err
	}
	var norm fileDTO
	if err := json.Unmarshal(b, &norm); err != nil {
		return err
	}
	*dto = norm
	in, err := integrityOf(dto)
	if err != nil {
		return err
	}
	dto.Integrity = in
	return nil
}

// verifyIntegrity checks dto (as read) against its integrity section.
func verifyIntegrity(dto *fileDTO) error {
	stored := dto.Integrity
	dto.Integrity = nil
	if stored == nil {
		return &TamperedError{Parts: []string{"its integrity hash was removed"}}
	}
	if err := canonicalRaw(dto); err != nil {
		return err
	}
	got, err := integrityOf(dto)
	if err != nil {
		return err
	}
	if got.SHA256 == stored.SHA256 {
		return nil
	}
	return &TamperedError{Parts: explainTamper(stored, got)}
}

// canonicalRaw rewrites the raw JSON a plan file carries (the evidence) in
// one spelling (keys sorted, no spaces), so that a file reformatted by a
// tool (jq, an editor) still matches its hash: the hash is over meaning, not
// layout.
func canonicalRaw(dto *fileDTO) error {
	for i := range dto.Clusters {
		raw := dto.Clusters[i].Evidence
		if len(raw) == 0 {
			continue
		}
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.UseNumber()
		var v any
		if err := dec.Decode(&v); err != nil {
			return fmt.Errorf("cluster %q: evidence: %w", dto.Clusters[i].Name, err)
		}
		b, err := json.Marshal(v)
		if err != nil {
			return err
		}
		dto.Clusters[i].Evidence = b
	}
	return nil
}

// integrityOf computes the integrity section of dto (whose own is nil).
func integrityOf(dto *fileDTO) (*fileIntegrityDTO, error) {
	b, err := json.Marshal(dto)
	if err != nil {
		return nil, err
	}
	sum := sha256.Sum256(b)
	in := &fileIntegrityDTO{SHA256: "sha256:" + hex.EncodeToString(sum[:]), Plan: fieldHashes(*dto), Clusters: []fileClusterIntegrityDTO{}}
	for _, c := range dto.Clusters {
		ci := fileClusterIntegrityDTO{Name: c.Name, Fields: fieldHashes(c), Changes: []fileChangeIntegrityDTO{}}
		for _, ch := range c.Changes {
			ci.Changes = append(ci.Changes, fileChangeIntegrityDTO{Address: ch.Address, Fields: fieldHashes(ch)})
		}
		in.Clusters = append(in.Clusters, ci)
	}
	return in, nil
}

// fieldHashes hashes each field of a DTO struct by its JSON name, except the
// lists hashed part by part (clusters, changes) and the integrity section.
func fieldHashes(v any) map[string]string {
	out := map[string]string{}
	rv := reflect.ValueOf(v)
	t := rv.Type()
	for i := 0; i < t.NumField(); i++ {
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
		if name == "" || name == "-" || name == "clusters" || name == "changes" || name == "integrity" {
			continue
		}
		if t.Field(i).Tag.Get("integrity") == "omitempty" && rv.Field(i).IsZero() {
			// A field added after format 3 (the persisted layer) is
			// hashed only when present, so that plans without it hash
			// as before; the file's whole hash covers it either way.
			continue
		}
		b, _ := json.Marshal(rv.Field(i).Interface())
		sum := sha256.Sum256(b)
		out[name] = hex.EncodeToString(sum[:8])
	}
	return out
}

// explainTamper names what differs between the stored and the computed
// integrity sections.
func explainTamper(stored, got *fileIntegrityDTO) []string {
	var parts []string
	if fs := diffFields(stored.Plan, got.Plan); len(fs) > 0 {
		parts = append(parts, "plan: "+strings.Join(fs, ", "))
	}
	storedNames, gotNames := clusterNames(stored), clusterNames(got)
	for _, n := range storedNames {
		if !slices.Contains(gotNames, n) {
			parts = append(parts, fmt.Sprintf("cluster %q was removed", n))
		}
	}
	for _, n := range gotNames {
		if !slices.Contains(storedNames, n) {
			parts = append(parts, fmt.Sprintf("cluster %q was added", n))
		}
	}
	for _, sc := range stored.Clusters {
		for _, gc := range got.Clusters {
			if sc.Name == gc.Name {
				parts = append(parts, explainCluster(sc, gc)...)
			}
		}
	}
	return parts
}

func clusterNames(in *fileIntegrityDTO) []string {
	var out []string
	for _, c := range in.Clusters {
		out = append(out, c.Name)
	}
	return out
}

func explainCluster(stored, got fileClusterIntegrityDTO) []string {
	var parts []string
	where := fmt.Sprintf("cluster %q", stored.Name)
	if fs := diffFields(stored.Fields, got.Fields); len(fs) > 0 {
		parts = append(parts, where+": "+strings.Join(fs, ", "))
	}
	var storedAddrs, gotAddrs []string
	for _, c := range stored.Changes {
		storedAddrs = append(storedAddrs, c.Address)
	}
	for _, c := range got.Changes {
		gotAddrs = append(gotAddrs, c.Address)
	}
	for _, a := range storedAddrs {
		if !slices.Contains(gotAddrs, a) {
			parts = append(parts, fmt.Sprintf("%s: change %s was removed", where, a))
		}
	}
	for _, a := range gotAddrs {
		if !slices.Contains(storedAddrs, a) {
			parts = append(parts, fmt.Sprintf("%s: change %s was added", where, a))
		}
	}
	if common(storedAddrs, gotAddrs) {
		if !slices.Equal(storedAddrs, gotAddrs) {
			parts = append(parts, fmt.Sprintf("%s: the changes were reordered (written %s; now %s)", where,
				strings.Join(storedAddrs, ", "), strings.Join(gotAddrs, ", ")))
		}
	}
	for _, sc := range stored.Changes {
		for _, gc := range got.Changes {
			if sc.Address == gc.Address {
				if fs := diffFields(sc.Fields, gc.Fields); len(fs) > 0 {
					parts = append(parts, fmt.Sprintf("%s: change %s: %s", where, sc.Address, strings.Join(fs, ", ")))
				}
			}
		}
	}
	return parts
}

// common reports whether a and b hold the same addresses (in any order).
func common(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	x, y := slices.Clone(a), slices.Clone(b)
	slices.Sort(x)
	slices.Sort(y)
	return slices.Equal(x, y)
}

// diffFields names the fields whose hashes differ, sorted.
func diffFields(stored, got map[string]string) []string {
	var out []string
	for k, v := range got {
		if stored[k] != v {
			out = append(out, k)
		}
	}
	for k := range stored {
		if _, ok := got[k]; !ok {
			out = append(out, k)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// DerivationError lists the changes of a plan whose statements are not what
// their values derive (Derive), or that derive none.
type DerivationError struct {
	Problems []string
}

func (e *DerivationError) Error() string {
	return "the plan holds statements its changes do not derive, and tiform sends no SQL it did not build: " +
		strings.Join(e.Problems, "; ") + ". Run tiform plan again and review the new plan"
}

// CheckDerivable re-derives every change's statements and rollback from its
// address, values and spec (Derive) and reports every change where they
// differ from what the plan holds, or that cannot be derived. Apply runs only
// plans that pass, whatever file they came from.
func CheckDerivable(cp *ClusterPlan) error {
	var problems []string
	for _, ch := range cp.Changes {
		stmts, rollback, err := Derive(ch)
		if err != nil {
			problems = append(problems, fmt.Sprintf("change %s cannot be derived: %v", ch.Addr, err))
			continue
		}
		problems = append(problems, compareStatements(ch.Addr.String(), "statement", ch.Statements, stmts)...)
		problems = append(problems, compareStatements(ch.Addr.String(), "rollback statement", ch.Rollback, rollback)...)
	}
	if len(problems) > 0 {
		return &DerivationError{Problems: problems}
	}
	return nil
}

// compareStatements names every difference between the statements a change
// holds and those it derives.
func compareStatements(addr, what string, held, derived []plans.Statement) []string {
	var out []string
	for i := 0; i < max(len(held), len(derived)); i++ {
		switch {
		case i >= len(held):
			out = append(out, fmt.Sprintf("change %s: %s %d (%s) is missing", addr, what, i+1, derived[i].SQL))
		case i >= len(derived):
			out = append(out, fmt.Sprintf("change %s: %s %d (%s) is not one it derives", addr, what, i+1, held[i].SQL))
		case held[i] != derived[i]:
			out = append(out, fmt.Sprintf("change %s: %s %d is %q, but its values derive %q", addr, what, i+1, held[i].SQL, derived[i].SQL))
		}
	}
	return out
}

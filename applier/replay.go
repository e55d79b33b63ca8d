package applier

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/tiform/tiform/internal/files"
	"github.com/tiform/tiform/planner"
	"github.com/tiform/tiform/views"
)

// A saved plan is applied once, and not after it expired. The record of
// what was applied is the audit log the apply writes anyway
// (docs/decisions/0019-single-use-plans.md says why there and not in the
// cluster): every event of a saved plan's apply carries the plan's hash and
// its creation time, which together name the plan file, and a `statement`
// event means that something of it was sent.

// maxAuditLine bounds one line of the audit log as it is read back (the
// longest event tiform writes is a statement's with its values: far less);
// a longer line is skipped, not held in memory.
const maxAuditLine = 4 << 20

// refuseReplay refuses, before anything is sent, a saved plan that expired
// or that the audit log records as applied to this cluster before (unless
// Options.Saved.Reapply gives the reason to apply it again).
func (a *run) refuseReplay() error {
	s := a.o.Saved
	if s == nil {
		return nil
	}
	refuse := func(why string) error {
		a.rep.Refused = why
		a.kind = ErrRefused
		a.notAttempted(0)
		return fmt.Errorf("applier: cluster %q: refusing to apply: %s", a.cp.Name, why)
	}
	if err := planner.CheckAge(&planner.Plan{CreatedAt: s.CreatedAt}, a.o.now(), s.MaxAge); err != nil {
		return refuse(err.Error())
	}
	if a.o.AuditPath == "" {
		return refuse("a saved plan is applied once, and there is no audit log to record it in or to read earlier applies from")
	}
	first, err := firstApply(a.o.AuditPath, a.cp.Name, a.rep.PlanHash, s.CreatedAt)
	if err != nil {
		return refuse(fmt.Sprintf("a saved plan is applied once, and the audit log that records applies cannot be read: %v", err))
	}
	if first == nil {
		return nil
	}
	when := fmt.Sprintf("this saved plan (made %s, plan hash %s) was applied to cluster %q before: its first statement was sent at %s by %s",
		s.CreatedAt.UTC().Format(time.RFC3339), a.rep.PlanHash, a.cp.Name, first.Time.UTC().Format(time.RFC3339), operatorText(first.Operator))
	if s.Reapply != "" {
		a.rep.Notes = append(a.rep.Notes, when+"; applied again as --force-reapply asks: "+s.Reapply)
		return nil
	}
	return refuse(when + ". A saved plan is applied once: a cluster changed back since is planned again " +
		"(tiform plan, then review). To apply this plan again anyway, pass --force-reapply \"REASON\" (recorded in the audit log)")
}

// operatorText names who applied, as the audit log records it.
func operatorText(o views.Operator) string {
	var parts []string
	if o.OSUser != "" {
		parts = append(parts, "OS user "+o.OSUser)
	}
	if o.DBUser != "" {
		parts = append(parts, "database user "+o.DBUser)
	}
	if o.Host != "" {
		parts = append(parts, "on "+o.Host)
	}
	if len(parts) == 0 {
		return "an unnamed operator"
	}
	return strings.Join(parts, ", ")
}

// firstApply returns the first `statement` event the audit log at path
// records for the saved plan of cluster with hash and creation time created
// (nil when there is none, or no log yet). The log is read line by line, in
// memory bounded by maxAuditLine; it must be a regular file (the same one
// apply appends to, never through a link).
func firstApply(path, cluster, hash string, created time.Time) (*views.ApplyEvent, error) {
	f, err := files.OpenRead(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	r := bufio.NewReaderSize(f, 64<<10)
	needle := []byte(`"plan_hash":"` + hash + `"`)
	for {
		line, err := readLine(r)
		if len(line) > 0 && bytes.Contains(line, needle) {
			var e views.ApplyEvent
			if json.Unmarshal(line, &e) == nil && e.Event == "statement" && e.Cluster == cluster &&
				e.PlanHash == hash && e.PlanCreatedAt != nil && e.PlanCreatedAt.Equal(created) {
				return &e, nil
			}
		}
		if err == io.EOF {
			return nil, nil
		}
		if err != nil {
			return nil, err
		}
	}
}

// readLine returns the next line of r without its newline; a line longer
// than maxAuditLine is consumed and returned empty.
func readLine(r *bufio.Reader) ([]byte, error) {
	var line []byte
	tooLong := false
	for {
		chunk, err := r.ReadSlice('\n')
		if !tooLong {
			if len(line)+len(chunk) > maxAuditLine {
				tooLong, line = true, nil
			} else {
				line = append(line, chunk...)
			}
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		return bytes.TrimRight(line, "\n"), err
	}
}

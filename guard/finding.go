package guard

import "github.com/tiform/tiform/state"

// Severity of a finding. Error blocks apply.
type Severity int

const (
	Info Severity = iota
	Warning
	Error
)

func (s Severity) String() string {
	switch s {
	case Info:
		return "info"
	case Warning:
		return "warning"
	case Error:
		return "error"
	}
	return "unknown"
}

// Finding is one rule's verdict about one thing in the plan or the cluster.
type Finding struct {
	Code     string // stable, e.g. "TF101"
	Severity Severity
	// Address is the plan address the finding is about ("" for cluster-wide).
	Address string
	Summary string // one line
	Detail  string // what to do, and why
	Link    string // documentation or issue URL
	Range   state.SourceRange
	// Acknowledged is set when an acknowledge block suppresses the finding; an
	// acknowledged error does not block apply.
	Acknowledged bool
	AckReason    string
}

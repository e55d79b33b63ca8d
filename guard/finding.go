package guard

import "github.com/tiform/tiform/diag"

// Finding is one rule's verdict about one thing in the plan or the cluster.
// Its Severity is diag's (info < warning < error); an unacknowledged error
// blocks apply.
type Finding struct {
	Code     string // stable, e.g. "TF101"
	Severity diag.Severity
	// Address is the plan address the finding is about ("" for cluster-wide).
	Address string
	Summary string // one line
	Detail  string // what to do, and why
	Link    string // documentation or issue URL
	Range   diag.SourceRange
	// Acknowledged is set when an acknowledge block suppresses the finding; an
	// acknowledged error does not block apply.
	Acknowledged bool
	AckReason    string
}

package tidbsim

import (
	"strconv"
	"strings"
	"time"

	"github.com/tiform/tiform/version"
)

// Grammar of CREATE/ALTER/DROP RESOURCE GROUP per version
// (https://docs.pingcap.com/tidb/v8.5/sql-statement-create-resource-group for
// the 8.5 grammar, https://docs.pingcap.com/tidb/dev/sql-statement-create-resource-group
// for v9.0's BURSTABLE modes; versions from the release notes of 6.6.0, 7.0.0,
// 7.1.0, 7.2.0, 7.4.0 and 8.4.0):
//
//	CREATE RESOURCE GROUP [IF NOT EXISTS] name opt [[,] opt]...
//	ALTER  RESOURCE GROUP [IF EXISTS] name opt [[,] opt]...
//	DROP   RESOURCE GROUP [IF EXISTS] name
//	name := identifier | DEFAULT
//	opt  := RU_PER_SEC [=] int                                   v6.6+
//	      | RU_PER_SEC [=] UNLIMITED                              v8.3+ (see below)
//	      | PRIORITY [=] LOW|MEDIUM|HIGH                          v7.0+
//	      | BURSTABLE                                              v6.6+ (v9.0: = MODERATED)
//	      | BURSTABLE [=] TRUE|FALSE                               v7.2 – v8.5
//	      | BURSTABLE [=] OFF|MODERATED|UNLIMITED                  v9.0+
//	      | QUERY_LIMIT [=] ( ropt [[,] ropt]... ) | () | NULL     v7.2+
//	      | BACKGROUND [=] ( bopt [[,] bopt]... ) | () | NULL      v7.4+
//	ropt := EXEC_ELAPSED [=] 'dur'                                 v7.2+
//	      | PROCESSED_KEYS [=] int | RU [=] int                     v8.4+
//	      | ACTION [=] DRYRUN|COOLDOWN|KILL                         v7.2+
//	      | ACTION [=] SWITCH_GROUP(name)                           v8.4+
//	      | WATCH [=] EXACT|SIMILAR|PLAN [DURATION [=] 'dur'|UNLIMITED]  v7.2+
//	bopt := TASK_TYPES [=] 'list'                                   v7.4+
//	      | UTILIZATION_LIMIT [=] int                               v8.4+
//
// An option outside its version is TiDB's syntax error 1064. A repeated option
// is 1064 with "Dupliated options specified" (sic; TiDB parser, corpus
// messages.tsv) and a repeated QUERY_LIMIT item "Dupliated runaway options
// specified" (TiDB resource_group_test.go). Whether v9.0 still accepts
// BURSTABLE = TRUE/FALSE is unconfirmed (the dev docs no longer show it):
// tidbsim rejects it, so a
// client cannot come to rely on it. RU_PER_SEC = UNLIMITED (fill rate
// 2147483647 with unlimited burst) came with tidb PR #54704 (merged 2024-07,
// closes pingcap/tidb#54413, no cherry-pick), i.e. from v8.3.0 (derived from
// the merge date).

// RGStatementKind says which statement an RGStatement is.
type RGStatementKind int

// Resource-group statement kinds.
const (
	RGCreate RGStatementKind = iota
	RGAlter
	RGDrop
)

// RGStatement is a parsed resource-group DDL statement.
type RGStatement struct {
	Kind        RGStatementKind
	IfExists    bool   // ALTER / DROP
	IfNotExists bool   // CREATE
	Name        string // lower-cased
	Written     string // as written (TiDB CIStr.O)
	Options     []RGOption
}

type rgOptKind int

const (
	rgOptRURate rgOptKind = iota
	rgOptPriority
	rgOptBurstable
	rgOptQueryLimit
	rgOptBackground
)

// RGOption is one option of CREATE/ALTER RESOURCE GROUP.
type RGOption struct {
	Kind       rgOptKind
	RURate     uint64
	Unlimited  bool // RU_PER_SEC = UNLIMITED
	Priority   uint64
	Burst      int64        // burst limit the option sets (-1, -2 or 0)
	Runaway    []runawayOpt // empty: QUERY_LIMIT=() / NULL
	Background []bgOpt      // empty: BACKGROUND=() / NULL
}

type runawayKind int

const (
	runawayExecElapsed runawayKind = iota
	runawayProcessedKeys
	runawayRU
	runawayAction
	runawayWatch
)

type runawayOpt struct {
	kind   runawayKind
	str    string // EXEC_ELAPSED / WATCH DURATION text, SWITCH_GROUP target
	num    int64
	action RunawayAction
	watch  WatchType
}

type bgOpt struct {
	taskTypes *string
	utilLimit *uint64
}

// errDuplicateOption is the parser's 1064 with a message suffix, e.g.
// `... near "ru_per_sec=300"Dupliated options specified ` (TiDB Scanner.Errorf
// format `line %d column %d near "%s"%s `). The position is that of the token
// after the repeated option, an approximation of the yacc lookahead.
func errDuplicateOption(p *Parser, what string) *SQLError {
	t := p.Peek()
	e := ErrSyntax(p.SQL(), t.Start, t.End)
	e.Message = strings.TrimSuffix(e.Message, " ") + what + " "
	return e
}

// parseRGName parses a group name: an identifier or DEFAULT. It returns the
// name lower-cased (TiDB keys groups by CIStr.L) and as written (CIStr.O,
// which SHOW CREATE RESOURCE GROUP and the DDL's messages print).
func parseRGName(p *Parser) (lower, written string, err error) {
	if t := p.Peek(); t.Kind == TokIdent && strings.EqualFold(t.Text, "DEFAULT") {
		p.Next()
		return DefaultResourceGroup, t.Text, nil
	}
	name, err := p.Ident()
	if err != nil {
		return "", "", err
	}
	return strings.ToLower(name), name, nil
}

// ParseRGStatement parses the rest of a resource-group statement of kind k,
// with p positioned after "CREATE RESOURCE GROUP", "ALTER RESOURCE GROUP" or
// "DROP RESOURCE GROUP", for TiDB version v.
func ParseRGStatement(p *Parser, k RGStatementKind, v version.Version) (*RGStatement, error) {
	st := &RGStatement{Kind: k}
	switch k {
	case RGCreate:
		st.IfNotExists = p.AcceptKeyword("IF", "NOT", "EXISTS")
	default:
		st.IfExists = p.AcceptKeyword("IF", "EXISTS")
	}
	name, written, err := parseRGName(p)
	if err != nil {
		return nil, err
	}
	st.Name, st.Written = name, written
	if k == RGDrop {
		return st, p.End()
	}
	seen := map[rgOptKind]bool{}
	for {
		opt, err := parseRGOption(p, v)
		if err != nil {
			return nil, err
		}
		if seen[opt.Kind] {
			return nil, errDuplicateOption(p, "Dupliated options specified")
		}
		seen[opt.Kind] = true
		st.Options = append(st.Options, opt)
		comma := p.AcceptOp(",")
		if !comma && p.AtEnd() {
			break
		}
	}
	return st, p.End()
}

func parseRGOption(p *Parser, v version.Version) (RGOption, error) {
	switch {
	case p.AcceptKeyword("RU_PER_SEC"):
		p.OptionalEq()
		if v.AtLeast(8, 3, 0) && p.AcceptKeyword("UNLIMITED") {
			return RGOption{Kind: rgOptRURate, Unlimited: true}, nil
		}
		n, err := parseUintLit(p)
		if err != nil {
			return RGOption{}, err
		}
		return RGOption{Kind: rgOptRURate, RURate: n}, nil
	case p.AcceptKeyword("PRIORITY"):
		p.OptionalEq()
		switch {
		case p.AcceptKeyword("LOW"):
			return RGOption{Kind: rgOptPriority, Priority: PriorityLow}, nil
		case p.AcceptKeyword("MEDIUM"):
			return RGOption{Kind: rgOptPriority, Priority: PriorityMedium}, nil
		case p.AcceptKeyword("HIGH"):
			return RGOption{Kind: rgOptPriority, Priority: PriorityHigh}, nil
		}
		return RGOption{}, p.Errorf()
	case p.AcceptKeyword("BURSTABLE"):
		return parseBurstable(p, v)
	case p.IsKeyword("QUERY_LIMIT"):
		p.Next()
		p.OptionalEq()
		ro, err := parseQueryLimit(p, v)
		if err != nil {
			return RGOption{}, err
		}
		return RGOption{Kind: rgOptQueryLimit, Runaway: ro}, nil
	case p.IsKeyword("BACKGROUND") && v.AtLeast(7, 4, 0):
		p.Next()
		p.OptionalEq()
		bo, err := parseBackground(p, v)
		if err != nil {
			return RGOption{}, err
		}
		return RGOption{Kind: rgOptBackground, Background: bo}, nil
	}
	return RGOption{}, p.Errorf()
}

// parseBurstable parses what follows BURSTABLE (grammar above).
func parseBurstable(p *Parser, v version.Version) (RGOption, error) {
	o := RGOption{Kind: rgOptBurstable}
	hasEq := p.AcceptOp("=")
	if v.BurstModes() {
		switch {
		case p.AcceptKeyword("OFF"):
			o.Burst = 0
		case p.AcceptKeyword("MODERATED"):
			o.Burst = burstModerated
		case p.AcceptKeyword("UNLIMITED"):
			o.Burst = burstUnlimited
		default:
			if hasEq {
				return o, p.Errorf()
			}
			o.Burst = burstModerated // bare BURSTABLE = MODERATED in v9.0
		}
		return o, nil
	}
	switch {
	case p.AcceptKeyword("TRUE"):
		o.Burst = burstUnlimited
	case p.AcceptKeyword("FALSE"):
		o.Burst = 0
	default:
		if hasEq {
			return o, p.Errorf()
		}
		o.Burst = burstUnlimited
	}
	return o, nil
}

func parseUintLit(p *Parser) (uint64, error) {
	t := p.Peek()
	if t.Kind != TokNumber {
		return 0, p.Errorf()
	}
	n, err := strconv.ParseUint(t.Text, 10, 64)
	if err != nil {
		return 0, p.Errorf()
	}
	p.Next()
	return n, nil
}

func parseIntLit(p *Parser) (int64, error) {
	t := p.Peek()
	if t.Kind != TokNumber {
		return 0, p.Errorf()
	}
	n, err := strconv.ParseInt(t.Text, 10, 64)
	if err != nil {
		return 0, p.Errorf()
	}
	p.Next()
	return n, nil
}

// parseQueryLimit parses `( ... )`, `()` or NULL after QUERY_LIMIT [=].
func parseQueryLimit(p *Parser, v version.Version) ([]runawayOpt, error) {
	if v.Before(7, 2, 0) {
		return nil, p.Errorf()
	}
	if p.AcceptKeyword("NULL") {
		return nil, nil
	}
	if err := p.ExpectOp("("); err != nil {
		return nil, err
	}
	var out []runawayOpt
	seen := map[runawayKind]bool{}
	for !p.IsOp(")") {
		o, err := parseRunawayOpt(p, v)
		if err != nil {
			return nil, err
		}
		// From v8.4.0 the rules (EXEC_ELAPSED, PROCESSED_KEYS, RU) are one
		// kind of option that may repeat, the last one winning; ACTION and
		// WATCH may not (pingcap/tidb@e4e814fdc0af:pkg/parser/ast/ddl.go
		// CheckRunawayAppend: "support multiple runaway rules").
		kind := o.kind
		if v.AtLeast(8, 4, 0) && (kind == runawayExecElapsed || kind == runawayProcessedKeys || kind == runawayRU) {
			kind = -1
		}
		if seen[kind] && kind != -1 {
			return nil, errDuplicateOption(p, "Dupliated runaway options specified")
		}
		seen[kind] = true
		out = append(out, o)
		p.AcceptOp(",")
	}
	p.Next() // ")"
	return out, nil
}

func parseRunawayOpt(p *Parser, v version.Version) (runawayOpt, error) {
	switch {
	case p.AcceptKeyword("EXEC_ELAPSED"):
		p.OptionalEq()
		s, err := p.StringLit()
		if err != nil {
			return runawayOpt{}, err
		}
		// v9.0's parser checks it (pingcap/tidb@e4e814fdc0af:pkg/parser/parser.y
		// DirectResourceGroupRunawayOption); the releases whose tests
		// TestRGReplaysTiDBTests replays fail later, with 1105
		if _, err := time.ParseDuration(s); err != nil && v.AtLeast(9, 0, 0) {
			return runawayOpt{}, errDuplicateOption(p, "The EXEC_ELAPSED option is not a valid duration: "+err.Error())
		}
		return runawayOpt{kind: runawayExecElapsed, str: s}, nil
	case v.AtLeast(8, 4, 0) && p.AcceptKeyword("PROCESSED_KEYS"):
		p.OptionalEq()
		n, err := parseIntLit(p)
		return runawayOpt{kind: runawayProcessedKeys, num: n}, err
	case v.AtLeast(8, 4, 0) && p.AcceptKeyword("RU"):
		p.OptionalEq()
		n, err := parseIntLit(p)
		return runawayOpt{kind: runawayRU, num: n}, err
	case p.AcceptKeyword("ACTION"):
		p.OptionalEq()
		switch {
		case p.AcceptKeyword("DRYRUN"):
			return runawayOpt{kind: runawayAction, action: ActionDryRun}, nil
		case p.AcceptKeyword("COOLDOWN"):
			return runawayOpt{kind: runawayAction, action: ActionCooldown}, nil
		case p.AcceptKeyword("KILL"):
			return runawayOpt{kind: runawayAction, action: ActionKill}, nil
		case v.AtLeast(8, 4, 0) && p.AcceptKeyword("SWITCH_GROUP"):
			if err := p.ExpectOp("("); err != nil {
				return runawayOpt{}, err
			}
			// TiDB keeps the switch group as written
			// (pingcap/tidb@e4e814fdc0af:pkg/ddl/resource_group.go
			// SetDirectResourceGroupRunawayOption: SwitchGroupName.String())
			_, name, err := parseRGName(p)
			if err != nil {
				return runawayOpt{}, err
			}
			if err := p.ExpectOp(")"); err != nil {
				return runawayOpt{}, err
			}
			return runawayOpt{kind: runawayAction, action: ActionSwitchGroup, str: name}, nil
		}
		return runawayOpt{}, p.Errorf()
	case p.AcceptKeyword("WATCH"):
		p.OptionalEq()
		o := runawayOpt{kind: runawayWatch}
		switch {
		case p.AcceptKeyword("EXACT"):
			o.watch = WatchExact
		case p.AcceptKeyword("SIMILAR"):
			o.watch = WatchSimilar
		case p.AcceptKeyword("PLAN"):
			o.watch = WatchPlan
		default:
			return o, p.Errorf()
		}
		if p.AcceptKeyword("DURATION") {
			p.OptionalEq()
			if p.AcceptKeyword("UNLIMITED") {
				return o, nil
			}
			s, err := p.StringLit()
			if err != nil {
				return o, err
			}
			o.str = s
		}
		return o, nil
	}
	return runawayOpt{}, p.Errorf()
}

// parseBackground parses `( ... )`, `()` or NULL after BACKGROUND [=].
func parseBackground(p *Parser, v version.Version) ([]bgOpt, error) {
	if p.AcceptKeyword("NULL") {
		return nil, nil
	}
	if err := p.ExpectOp("("); err != nil {
		return nil, err
	}
	var out []bgOpt
	seen := map[string]bool{}
	for !p.IsOp(")") {
		var o bgOpt
		var key string
		switch {
		case p.AcceptKeyword("TASK_TYPES"):
			p.OptionalEq()
			s, err := p.StringLit()
			if err != nil {
				return nil, err
			}
			o.taskTypes, key = &s, "TASK_TYPES"
		case v.AtLeast(8, 4, 0) && p.AcceptKeyword("UTILIZATION_LIMIT"):
			p.OptionalEq()
			n, err := parseUintLit(p)
			if err != nil {
				return nil, err
			}
			o.utilLimit, key = &n, "UTILIZATION_LIMIT"
		default:
			return nil, p.Errorf()
		}
		if seen[key] {
			// A repeated BACKGROUND item: TiDB's reaction is UNCONFIRMED; tidbsim
			// rejects it with a plain 1064 rather than guess which one wins.
			return nil, p.Errorf()
		}
		seen[key] = true
		out = append(out, o)
		p.AcceptOp(",")
	}
	p.Next() // ")"
	return out, nil
}

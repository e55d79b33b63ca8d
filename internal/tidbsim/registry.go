package tidbsim

import (
	"fmt"
	"sort"
	"strings"
)

// This file is the single place where the engine's extension points live.
// Other files of the package register into them from init() functions; the
// registries are written only during package initialisation and read-only
// afterwards, so they need no locking. See EXTENDING.md for a walk-through.

// StatementHandler executes one statement. p is positioned just after the
// registered keyword prefix; the handler must consume the rest of the
// statement and call p.End(). It returns the result (nil or a Result without
// Columns for an OK packet) or an error (*SQLError for a client-visible error).
type StatementHandler func(s *Session, p *Parser) (*Result, error)

type statementEntry struct {
	words []string // upper-cased keyword prefix
	h     StatementHandler
	// keepDiagnostics: the statement does not clear the session's warnings
	// (SHOW WARNINGS / SHOW ERRORS, as in MySQL/TiDB).
	keepDiagnostics bool
}

var statements []statementEntry

// RegisterStatement registers h for statements that start with the keyword
// prefix, e.g. "CREATE RESOURCE GROUP", "SET GLOBAL", "SHOW CONFIG". The
// longest matching prefix wins, so "SET CONFIG" and a generic "SET" can
// coexist. Registering the same prefix twice panics (a programming error).
func RegisterStatement(prefix string, h StatementHandler) {
	registerStatement(prefix, h, false)
}

func registerStatement(prefix string, h StatementHandler, keepDiagnostics bool) {
	words := strings.Fields(strings.ToUpper(prefix))
	if len(words) == 0 {
		panic("tidbsim: empty statement prefix")
	}
	for _, e := range statements {
		if strings.Join(e.words, " ") == strings.Join(words, " ") {
			panic(fmt.Sprintf("tidbsim: statement prefix %q registered twice", prefix))
		}
	}
	statements = append(statements, statementEntry{words: words, h: h, keepDiagnostics: keepDiagnostics})
	sort.SliceStable(statements, func(i, j int) bool { return len(statements[i].words) > len(statements[j].words) })
}

// matchStatement finds the handler for the tokens at the start of p. It
// returns the entry and the number of prefix tokens; when nothing matches it
// returns the index of the first token that no prefix accepts (for 1064).
func matchStatement(p *Parser) (*statementEntry, int) {
	best := 0
	for i := range statements {
		e := &statements[i]
		n := 0
		for n < len(e.words) && isKeywordTok(p.PeekN(n), e.words[n]) {
			n++
		}
		if n == len(e.words) {
			return e, n
		}
		if n > best {
			best = n
		}
	}
	return nil, best
}

// ColumnType is the wire type of a result column.
type ColumnType int

// Column types: the MySQL field types TiDB sends for the columns the
// emulator serves (database/sql's DatabaseTypeName in parentheses). Values
// of any kind may be sent in any column; the type sets the field metadata,
// which clients read: go-sql-driver parses a BIGINT cell as a signed
// integer, so an unsigned column must say so.
const (
	ColVarchar          ColumnType = iota // VARCHAR
	ColBigInt                             // BIGINT
	ColDouble                             // DOUBLE
	ColDecimal                            // DECIMAL
	ColUnsignedBigInt                     // UNSIGNED BIGINT (bigint unsigned)
	ColUnsignedInt                        // UNSIGNED INT (int unsigned)
	ColTinyInt                            // TINYINT (tinyint(1))
	ColUnsignedSmallInt                   // UNSIGNED SMALLINT (smallint unsigned)
	ColDatetime                           // DATETIME
	ColTimestamp                          // TIMESTAMP
	ColText                               // TEXT (a blob with a character set)
	ColJSON                               // JSON
	ColChar                               // CHAR (fixed-length string)
	ColEnum                               // ENUM
	ColNull                               // NULL (the type of a NULL literal)
)

// Column describes one result column.
type Column struct {
	Name string
	Type ColumnType
	// NotNull is the column definition's NOT NULL flag, which database/sql
	// reports as ColumnType.Nullable: TiDB sets it for a table column
	// declared NOT NULL (pkg/infoschema/tables.go columnInfo flags) and for
	// an expression that cannot be NULL (a constant, a folded function of
	// constants: pkg/expression/constant_fold.go foldConstant).
	NotNull bool
}

// Result is what a statement returns: a result set when Columns is non-empty,
// otherwise an OK packet with AffectedRows.
type Result struct {
	Columns      []Column
	Rows         [][]Value
	AffectedRows uint64
}

// Filter describes predicates pushed down to a virtual table (the analogue of
// TiDB's memtable extractors, pkg/planner/core/memtable_predicate_extractor.go).
// It is built from the
// top-level AND conjuncts of the WHERE clause of the form `col = const` and
// `col IN (const, ...)`. The engine still evaluates the full WHERE clause on
// the rows returned, so a Rows function may ignore the filter; it exists so
// tables can skip work (and count what they contacted) like TiDB does.
type Filter struct {
	// Equal maps an upper-cased column name to the values it must equal (the
	// intersection when the column is constrained several times).
	Equal map[string][]string
	// Empty is set when the constraints contradict (no row can match); TiDB
	// then skips the request entirely.
	Empty bool
	// Exact is set when every top-level conjunct of the WHERE clause compares
	// a column, or LOWER(column), with string literals (`=` or IN). Then, for
	// a column whose values are strings, a row outside Equal or Lower fails
	// the WHERE clause, and evaluating the clause on it could neither warn
	// nor fail: a Rows function may leave it out (and skip the work of
	// building it) without changing the result or the warnings. The engine's
	// own shortcut, not TiDB's: what a table contacts must not depend on it.
	Exact bool
	// Lower maps an upper-cased column name to the values LOWER(column) must
	// equal; set only when Exact.
	Lower map[string][]string
}

// Keep returns, for a string column col (any case) of an exact filter, the
// values a row's col may have and still satisfy the WHERE clause; nil when
// every value must be kept (the filter is inexact or does not constrain col).
func (f *Filter) Keep(col string) *Match {
	if f == nil || !f.Exact {
		return nil
	}
	col = strings.ToUpper(col)
	eq, hasEq := f.Equal[col]
	low, hasLow := f.Lower[col]
	if !hasEq && !hasLow {
		return nil
	}
	m := &Match{}
	if hasEq {
		m.eq = stringSet(eq)
	}
	if hasLow {
		m.low = stringSet(low)
	}
	return m
}

// Match is what an exact filter allows in one string column: values equal
// to one of eq, and whose lower case is one of low (a nil set: no such
// constraint).
type Match struct {
	eq, low map[string]bool
	// lookups and lowered memoize Lookups (a Match serves one statement).
	lookups []string
	lowered bool
	looked  bool
}

// Keep reports whether a row with value v in the column can satisfy the
// WHERE clause.
func (m *Match) Keep(v string) bool {
	return (m.eq == nil || m.eq[v]) && (m.low == nil || m.low[strings.ToLower(v)])
}

// Lookups returns the values worth looking up instead of testing every row
// with Keep: the values Equal allows, else (lowered=true) the lower-case
// values Lower allows, which match every value that lower-cases to one of
// them. Each still has to pass Keep.
func (m *Match) Lookups() (vals []string, lowered bool) {
	if m.looked {
		return m.lookups, m.lowered
	}
	set := m.eq
	if set == nil {
		set, lowered = m.low, true
	}
	vals = make([]string, 0, len(set))
	for v := range set {
		vals = append(vals, v)
	}
	sort.Strings(vals)
	m.lookups, m.lowered, m.looked = vals, lowered, true
	return vals, lowered
}

func stringSet(list []string) map[string]bool {
	m := make(map[string]bool, len(list))
	for _, s := range list {
		m[s] = true
	}
	return m
}

// Values returns the pushed-down values for column col (any case) and whether
// the column is constrained.
func (f *Filter) Values(col string) ([]string, bool) {
	if f == nil || f.Equal == nil {
		return nil, false
	}
	v, ok := f.Equal[strings.ToUpper(col)]
	return v, ok
}

// Table is a virtual table readable with SELECT ... FROM schema.name.
type Table struct {
	Schema  string // e.g. "information_schema", "mysql"
	Name    string // e.g. "cluster_config"
	Columns []Column
	// ColumnsFor, when set, returns the columns the table has for the
	// session (tables whose column set depends on the TiDB version, such as
	// STATEMENTS_SUMMARY); Columns is then unused.
	ColumnsFor func(s *Session) []Column
	// Rows returns all rows (in column order). f holds pushed-down predicates.
	Rows func(s *Session, f *Filter) ([][]Value, error)
}

// columns returns the table's columns as session s sees them.
func (t *Table) columns(s *Session) []Column {
	if t.ColumnsFor != nil {
		return t.ColumnsFor(s)
	}
	return t.Columns
}

var tables = map[string]*Table{}

// RegisterTable registers a virtual table; schema and name are
// case-insensitive.
func RegisterTable(t *Table) {
	key := strings.ToLower(t.Schema + "." + t.Name)
	if _, dup := tables[key]; dup {
		panic("tidbsim: table registered twice: " + key)
	}
	tables[key] = t
}

func lookupTable(schema, name string) (*Table, bool) {
	t, ok := tables[strings.ToLower(schema+"."+name)]
	return t, ok
}

func schemaExists(schema string) bool {
	prefix := strings.ToLower(schema) + "."
	for k := range tables {
		if strings.HasPrefix(k, prefix) {
			return true
		}
	}
	return false
}

// ScalarFunc implements a SQL function. args are already evaluated.
type ScalarFunc func(s *Session, args []Value) (Value, error)

var functions = map[string]ScalarFunc{}

// RegisterFunction registers a scalar function (name case-insensitive).
func RegisterFunction(name string, fn ScalarFunc) {
	key := strings.ToUpper(name)
	if _, dup := functions[key]; dup {
		panic("tidbsim: function registered twice: " + key)
	}
	functions[key] = fn
}

func lookupFunction(name string) (ScalarFunc, bool) {
	fn, ok := functions[strings.ToUpper(name)]
	return fn, ok
}

// ErrWrongArgCount is TiDB's 1582 for a native function called with the wrong
// number of arguments.
func ErrWrongArgCount(fn string) *SQLError {
	return NewError(1582, "42000", "Incorrect parameter count in the call to native function '%s'", strings.ToLower(fn))
}

// SysVarReader reads @@name / @@global.name / @@session.name. It returns the
// value or an error (1193 Unknown system variable, 1238 scope errors, ...).
type SysVarReader func(s *Session, scope RefScope, name string) (Value, error)

var sysVarReader SysVarReader

// RegisterSysVarReader installs the reader for @@ references (one per
// package; the system-variable domain owns it).
func RegisterSysVarReader(fn SysVarReader) {
	if sysVarReader != nil {
		panic("tidbsim: sysvar reader registered twice")
	}
	sysVarReader = fn
}

func readSysVar(s *Session, scope RefScope, name string) (Value, error) {
	if sysVarReader == nil || s == nil {
		return Null, ErrUnknownSystemVariable(name)
	}
	return sysVarReader(s, scope, name)
}

// ErrUnknownSystemVariable is 1193 (HY000).
func ErrUnknownSystemVariable(name string) *SQLError {
	return NewError(1193, "HY000", "Unknown system variable '%s'", name)
}

var (
	clusterInits  []func(c *Cluster)
	sessionInits  []func(s *Session)
	sessionCloses []func(s *Session)
)

// RegisterClusterInit adds a function run once for every new Cluster, before
// it accepts connections (create the domain's state with c.SetExt). It runs
// after the topology and config model are built.
func RegisterClusterInit(fn func(c *Cluster)) { clusterInits = append(clusterInits, fn) }

// RegisterSessionInit adds a function run for every new Session after
// authentication, before its first statement.
func RegisterSessionInit(fn func(s *Session)) { sessionInits = append(sessionInits, fn) }

// RegisterSessionClose adds a function run when a connection ends (e.g. to
// release GET_LOCK locks held by the session).
func RegisterSessionClose(fn func(s *Session)) { sessionCloses = append(sessionCloses, fn) }

// UserLookup returns the stored authentication string of user for the login
// check: "" for an empty password, or mysql_native_password's "*<40 hex>"
// (see NativePasswordHash). ok=false means the user does not exist.
type UserLookup func(c *Cluster, user, host string) (authString string, ok bool)

var userLookup UserLookup

// RegisterUserLookup installs the user store used for logins. Without one,
// only root with an empty password can log in.
func RegisterUserLookup(fn UserLookup) {
	if userLookup != nil {
		panic("tidbsim: user lookup registered twice")
	}
	userLookup = fn
}

// PrivilegeChecker reports whether the session's user holds at least one of
// the named privileges (e.g. "CONFIG", "SUPER", "RESOURCE_GROUP_ADMIN").
type PrivilegeChecker func(s *Session, privs ...string) bool

var privilegeChecker PrivilegeChecker

// RegisterPrivilegeChecker installs the privilege model. Without one, every
// user has every privilege.
func RegisterPrivilegeChecker(fn PrivilegeChecker) {
	if privilegeChecker != nil {
		panic("tidbsim: privilege checker registered twice")
	}
	privilegeChecker = fn
}

// TablePrivilegeChecker reports whether the session's user holds priv on the
// table db.table at any privilege level (global, database or table).
type TablePrivilegeChecker func(s *Session, priv, db, table string) bool

var tablePrivilegeChecker TablePrivilegeChecker

// RegisterTablePrivilegeChecker installs the table-level half of the
// privilege model. Without one, every user may read every table.
func RegisterTablePrivilegeChecker(fn TablePrivilegeChecker) {
	if tablePrivilegeChecker != nil {
		panic("tidbsim: table privilege checker registered twice")
	}
	tablePrivilegeChecker = fn
}

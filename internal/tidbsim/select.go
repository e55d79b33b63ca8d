package tidbsim

import (
	"sort"
	"strconv"
	"strings"
)

// The mini SELECT engine:
//
//	SELECT item [, item...] [FROM [schema.]table [[AS] alias]] [WHERE expr]
//	       [ORDER BY expr [ASC|DESC] [, ...]] [LIMIT n [OFFSET m] | LIMIT m, n]
//
// item is `*` or `expr [[AS] alias]`. Tables are the virtual tables
// registered with RegisterTable. Names of schemas, tables and columns are
// case-insensitive.

func init() {
	RegisterStatement("SELECT", execSelect)
}

type selectItem struct {
	star  bool
	expr  Expr
	name  string // output column name
	alias bool
}

type orderItem struct {
	expr Expr
	desc bool
}

func execSelect(s *Session, p *Parser) (*Result, error) {
	st := &selectStmt{distinct: p.AcceptKeyword("DISTINCT")}
	if !st.distinct {
		p.AcceptKeyword("ALL")
	}
	var err error
	if st.items, err = parseSelectList(p); err != nil {
		return nil, err
	}
	if p.AcceptKeyword("FROM") && !p.AcceptKeyword("DUAL") {
		if st.table, err = parseFromTable(s, p); err != nil {
			return nil, err
		}
	}
	if err := parseSelectClauses(p, st); err != nil {
		return nil, err
	}
	if err := p.End(); err != nil {
		return nil, err
	}
	return runSelect(s, st)
}

// parseSelectList reads the select list: *, or expressions with optional
// aliases (AS name, or a bare non-reserved name).
func parseSelectList(p *Parser) ([]selectItem, error) {
	var items []selectItem
	err := p.CommaList(func() error {
		if p.AcceptOp("*") {
			items = append(items, selectItem{star: true})
			return nil
		}
		start := p.Pos()
		e, err := p.Expr()
		if err != nil {
			return err
		}
		it := selectItem{expr: e, name: strings.TrimSpace(p.sql[start:p.lastEnd()])}
		switch x := e.(type) {
		case *Literal:
			if x.V.Kind == KindString {
				it.name = x.V.S // MySQL names a string literal column by its value
			}
		case *ColumnRef:
			// a column by its name as written, without quotes or qualifier
			// (`KEY` is KEY: pingcap/tidb@e4e814fdc0af:pkg/planner/core/logical_plan_builder.go
			// buildProjectionField uses the ColumnName's Name.O)
			it.name = x.Name()
		}
		if p.AcceptKeyword("AS") {
			a, err := p.IdentOrString()
			if err != nil {
				return err
			}
			it.name, it.alias = a, true
		} else if t := p.Peek(); t.Kind == TokQuoted || t.Kind == TokString || (t.Kind == TokIdent && !isReserved(t.Text)) {
			a, _ := p.IdentOrString()
			it.name, it.alias = a, true
		}
		items = append(items, it)
		return nil
	})
	return items, err
}

// parseFromTable reads [schema.]table [[AS] alias] and decides whether the
// session may read it (a missing table is 1146, also in an unknown schema;
// SEM and system-table privileges as TiDB checks them).
func parseFromTable(s *Session, p *Parser) (*Table, error) {
	first, err := p.Ident()
	if err != nil {
		return nil, err
	}
	schema, name := s.CurrentDB, first
	if p.AcceptOp(".") {
		second, err := p.Ident()
		if err != nil {
			return nil, err
		}
		schema, name = first, second
	}
	if schema == "" {
		return nil, NewError(1046, "3D000", "No database selected")
	}
	t, ok := lookupTable(schema, name)
	if !ok {
		// the schema lower-cased, the table as written (observed on
		// pingcap/tidb@e4e814fdc0af: Table 'information_schema.No_Such')
		return nil, NewError(1146, "42S02", "Table '%s.%s' doesn't exist", strings.ToLower(schema), name)
	}
	if err := checkSEM(s, t); err != nil {
		return nil, err
	}
	if err := checkSystemTablePrivilege(s, t); err != nil {
		return nil, err
	}
	if p.AcceptKeyword("AS") {
		if _, err := p.Ident(); err != nil {
			return nil, err
		}
	} else if tok := p.Peek(); tok.Kind == TokQuoted || (tok.Kind == TokIdent && !isReserved(tok.Text)) {
		_, _ = p.Ident()
	}
	return t, nil
}

// parseSelectClauses reads WHERE, GROUP BY, ORDER BY and LIMIT into st.
func parseSelectClauses(p *Parser, st *selectStmt) error {
	if p.AcceptKeyword("WHERE") {
		w, err := p.Expr()
		if err != nil {
			return err
		}
		st.where = w
	}
	if p.AcceptKeyword("GROUP", "BY") {
		if err := p.CommaList(func() error {
			e, err := p.Expr()
			st.groupBy = append(st.groupBy, e)
			return err
		}); err != nil {
			return err
		}
	}
	if p.AcceptKeyword("ORDER", "BY") {
		if err := p.CommaList(func() error {
			e, err := p.Expr()
			if err != nil {
				return err
			}
			oi := orderItem{expr: e}
			if p.AcceptKeyword("DESC") {
				oi.desc = true
			} else {
				p.AcceptKeyword("ASC")
			}
			st.order = append(st.order, oi)
			return nil
		}); err != nil {
			return err
		}
	}
	var err error
	st.limit, st.offset, err = parseLimit(p, true)
	return err
}

type selectStmt struct {
	items    []selectItem
	distinct bool
	table    *Table
	where    Expr
	groupBy  []Expr
	order    []orderItem
	limit    int // -1: none
	offset   int
}

// parseLimit reads an optional "LIMIT n", "LIMIT offset, n" and, when
// offsetKeyword is set (SELECT), "LIMIT n OFFSET m". Without LIMIT it returns
// limit -1 (no limit) and offset 0.
func parseLimit(p *Parser, offsetKeyword bool) (limit, offset int, err error) {
	if !p.AcceptKeyword("LIMIT") {
		return -1, 0, nil
	}
	n, err := parseCount(p)
	if err != nil {
		return 0, 0, err
	}
	switch {
	case p.AcceptOp(","):
		m, err := parseCount(p)
		if err != nil {
			return 0, 0, err
		}
		return m, n, nil
	case offsetKeyword && p.AcceptKeyword("OFFSET"):
		m, err := parseCount(p)
		if err != nil {
			return 0, 0, err
		}
		return n, m, nil
	}
	return n, 0, nil
}

func parseCount(p *Parser) (int, error) {
	t := p.Peek()
	if t.Kind != TokNumber {
		return 0, p.Errorf()
	}
	n, err := strconv.Atoi(t.Text)
	if err != nil {
		return 0, p.Errorf()
	}
	p.Next()
	return n, nil
}

func runSelect(s *Session, st *selectStmt) (*Result, error) {
	src, err := readSource(s, st)
	if err != nil {
		return nil, err
	}
	kept, err := src.where(s, st.where)
	if err != nil {
		return nil, err
	}
	groups, aggregate, err := src.group(s, st, kept)
	if err != nil {
		return nil, err
	}
	out, err := src.project(s, st.items, groups, aggregate)
	if err != nil {
		return nil, err
	}
	res := &Result{Columns: projectionColumns(s, st.items, src.tcols, out)}
	if st.distinct {
		out = distinctRows(out)
	}
	if len(st.order) > 0 && len(out) > 0 { // no rows: nothing to sort, nothing evaluated
		if out, err = src.order(s, st.order, res.Columns, out); err != nil {
			return nil, err
		}
	}
	res.Rows = limitRows(out, st.limit, st.offset)
	return res, nil
}

// selectSource is the FROM of a SELECT: the table's columns (upper-cased
// names for expressions) and the rows read, or one empty row without a table.
type selectSource struct {
	cols  []string
	tcols []Column
	rows  [][]Value
}

// outRow is one output row and the source row it came from (ORDER BY sees
// both).
type outRow struct {
	src []Value
	out []Value
}

// readSource reads the table with the filter WHERE pushes down (a filter
// that matches nothing reads nothing); a SELECT without FROM has one row.
func readSource(s *Session, st *selectStmt) (*selectSource, error) {
	src := &selectSource{}
	if st.table == nil {
		for _, it := range st.items {
			if it.star {
				// TiDB's ErrBadTable for a wildcard with no table
				// (pingcap/tidb@e4e814fdc0af:pkg/planner/core/logical_plan_builder.go
				// unfoldWildStar), where MySQL says 1096 "No tables used"
				return nil, NewError(1051, "42S02", "Unknown table ''")
			}
		}
		src.rows = [][]Value{nil}
		return src, nil
	}
	src.tcols = st.table.columns(s)
	src.cols = make([]string, 0, len(src.tcols))
	for _, c := range src.tcols {
		src.cols = append(src.cols, strings.ToUpper(c.Name))
	}
	if err := checkColumns(st, src.tcols); err != nil {
		return nil, err
	}
	f := extractFilter(st.where, src.cols)
	if !f.Empty {
		rows, err := st.table.Rows(s, f)
		if err != nil {
			return nil, err
		}
		src.rows = rows
	}
	return src, nil
}

// checkColumns resolves the columns a SELECT over a table names before any
// row is read, as TiDB's planner does (so an unknown column is 1054 also
// when the table has no row): WHERE first, then the field list, GROUP BY
// and ORDER BY, which may also name a select item's alias
// (pingcap/tidb@e4e814fdc0af:pkg/planner/core/logical_plan_builder.go
// buildSelect: the selection is built before the projection).
func checkColumns(st *selectStmt, tcols []Column) error {
	known := func(r *ColumnRef) bool {
		_, ok := tableColumn(r, tcols)
		return ok
	}
	check := func(e Expr, clause string, alias bool) error {
		return walkColumnRefs(e, func(r *ColumnRef) error {
			if known(r) {
				return nil
			}
			if alias && len(r.Parts) == 1 {
				for _, it := range st.items {
					if !it.star && strings.EqualFold(it.name, r.Name()) {
						return nil
					}
				}
			}
			return errUnknownColumn(r, clause)
		})
	}
	if err := check(st.where, "where clause", false); err != nil {
		return err
	}
	for _, it := range st.items {
		if err := check(it.expr, "field list", false); err != nil {
			return err
		}
	}
	for _, g := range st.groupBy {
		if err := check(g, "group statement", true); err != nil {
			return err
		}
	}
	for _, o := range st.order {
		if err := check(o.expr, "order clause", true); err != nil {
			return err
		}
	}
	return nil
}

// walkColumnRefs calls fn on every column reference in e (nil: none).
func walkColumnRefs(e Expr, fn func(*ColumnRef) error) error {
	if r, ok := e.(*ColumnRef); ok {
		return fn(r)
	}
	for _, c := range subExprs(e) {
		if err := walkColumnRefs(c, fn); err != nil {
			return err
		}
	}
	return nil
}

// where keeps the rows WHERE holds for (all of them without WHERE). One
// evaluation context serves every row: expressions never keep it.
func (src *selectSource) where(s *Session, where Expr) ([][]Value, error) {
	if where == nil {
		return src.rows, nil
	}
	kept := make([][]Value, 0, len(src.rows))
	ctx := &EvalContext{Session: s, Columns: src.cols, Clause: "where clause"}
	for _, r := range src.rows {
		ctx.Row = r
		v, err := where.Eval(ctx)
		if err != nil {
			return nil, err
		}
		if b, ok := v.Truthy(); ok && b {
			kept = append(kept, r)
		}
	}
	return kept, nil
}

// projectionColumns are the result's columns: the table's for *, else one
// per expression (columnOf: its type and NOT NULL flag, which for a
// constant follows its value in the first row).
func projectionColumns(s *Session, items []selectItem, tcols []Column, rows []outRow) []Column {
	out := make([]Column, 0, len(items))
	pos := 0
	for _, it := range items {
		if it.star {
			out = append(out, tcols...)
			pos += len(tcols)
			continue
		}
		var first *Value
		if len(rows) > 0 && pos < len(rows[0].out) {
			first = &rows[0].out[pos]
		}
		out = append(out, columnOf(s, it.name, it.expr, tcols, first))
		pos++
	}
	return out
}

// group decides the groups the projection evaluates: one per GROUP BY key
// (in first-seen order) when the query aggregates, with one empty group for
// aggregates over no rows; else one group per row.
func (src *selectSource) group(s *Session, st *selectStmt, kept [][]Value) ([][][]Value, bool, error) {
	if st.where != nil && hasAggregate(st.where) {
		return nil, false, NewError(1111, "HY000", "Invalid use of group function")
	}
	aggregate := len(st.groupBy) > 0
	for _, it := range st.items {
		if !it.star && hasAggregate(it.expr) {
			aggregate = true
		}
	}
	var groups [][][]Value
	if !aggregate {
		// one group per row, each a one-row window on kept
		for i := range kept {
			groups = append(groups, kept[i:i+1:i+1])
		}
		return groups, false, nil
	}
	byKey := map[string]int{}
	ctx := &EvalContext{Session: s, Columns: src.cols, Clause: "group statement"}
	for _, r := range kept {
		key := ""
		ctx.Row = r
		for _, g := range st.groupBy {
			v, err := g.Eval(ctx)
			if err != nil {
				return nil, true, err
			}
			key += v.Kind.keyPrefix() + v.String() + "\x00"
		}
		i, ok := byKey[key]
		if !ok {
			i = len(groups)
			byKey[key] = i
			groups = append(groups, nil)
		}
		groups[i] = append(groups[i], r)
	}
	if len(groups) == 0 && len(st.groupBy) == 0 {
		groups = [][][]Value{{}} // aggregates over no rows: one row
	}
	return groups, true, nil
}

// project evaluates the select list once per group: aggregates see the
// group's rows, other expressions its first row (NULLs for an empty group).
func (src *selectSource) project(s *Session, items []selectItem, groups [][][]Value, aggregate bool) ([]outRow, error) {
	out := make([]outRow, 0, len(groups))
	// Without *, every output row has one value per item: they share one
	// backing array (each row a full-capacity window on it).
	var flat []Value
	if !hasStar(items) {
		flat = make([]Value, 0, len(groups)*len(items))
	}
	ctx := &EvalContext{Session: s, Columns: src.cols, Clause: "field list"}
	for _, g := range groups {
		var first []Value
		if len(g) > 0 {
			first = g[0]
		} else {
			first = make([]Value, len(src.cols))
			for i := range first {
				first[i] = Null
			}
		}
		ctx.Row = first
		if aggregate {
			ctx.Group = g
		}
		var o []Value
		if flat != nil {
			o = flat[len(flat) : len(flat) : len(flat)+len(items)]
		}
		for _, it := range items {
			if it.star {
				if aggregate {
					return nil, NewError(1140, "42000", "In aggregated query without GROUP BY, expression #1 of SELECT list contains nonaggregated column; this is incompatible with sql_mode=only_full_group_by")
				}
				o = append(o, first...)
				continue
			}
			v, err := it.expr.Eval(ctx)
			if err != nil {
				return nil, err
			}
			o = append(o, v)
		}
		if flat != nil {
			flat = flat[:len(flat)+len(o)]
		}
		out = append(out, outRow{src: first, out: o})
	}
	return out, nil
}

// hasStar reports whether the select list has a *.
func hasStar(items []selectItem) bool {
	for _, it := range items {
		if it.star {
			return true
		}
	}
	return false
}

// distinctRows keeps the first of each set of equal output rows.
func distinctRows(out []outRow) []outRow {
	seen := map[string]bool{}
	var uniq []outRow
	for _, r := range out {
		key := ""
		for _, v := range r.out {
			key += v.Kind.keyPrefix() + v.String() + "\x00"
		}
		if !seen[key] {
			seen[key] = true
			uniq = append(uniq, r)
		}
	}
	return uniq
}

// order sorts the output rows (stable) by ORDER BY, whose expressions see
// the table's columns and the output aliases; an integer literal is a
// position in the select list.
func (src *selectSource) order(s *Session, order []orderItem, resCols []Column, out []outRow) ([]outRow, error) {
	ocols := append([]string(nil), src.cols...)
	for _, c := range resCols {
		ocols = append(ocols, strings.ToUpper(c.Name))
	}
	keys := make([][]Value, len(out))
	for i, r := range out {
		ctx := &EvalContext{Session: s, Columns: ocols, Row: append(append([]Value(nil), r.src...), r.out...), Clause: "order clause"}
		for _, oi := range order {
			var v Value
			var err error
			if lit, ok := oi.expr.(*Literal); ok && lit.V.Kind == KindInt {
				pos := int(lit.V.I)
				if pos < 1 || pos > len(r.out) {
					return nil, NewError(1054, "42S22", "Unknown column '%d' in 'order clause'", pos)
				}
				v = r.out[pos-1]
			} else if v, err = oi.expr.Eval(ctx); err != nil {
				return nil, err
			}
			keys[i] = append(keys[i], v)
		}
	}
	idx := make([]int, len(out))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool {
		ka, kb := keys[idx[a]], keys[idx[b]]
		for k, oi := range order {
			if c := compareForSort(ka[k], kb[k]); c != 0 {
				return (c > 0) == oi.desc
			}
		}
		return false
	})
	sorted := make([]outRow, len(out))
	for i, j := range idx {
		sorted[i] = out[j]
	}
	return sorted, nil
}

// limitRows applies OFFSET and LIMIT (limit < 0: none); never nil.
func limitRows(out []outRow, limit, offset int) [][]Value {
	n := max(len(out)-offset, 0)
	if limit >= 0 {
		n = min(n, limit)
	}
	rows := make([][]Value, 0, n)
	for i, r := range out {
		if i < offset {
			continue
		}
		if limit >= 0 && len(rows) >= limit {
			break
		}
		rows = append(rows, r.out)
	}
	return rows
}

// compareForSort orders NULL first, as MySQL does for ASC.
func compareForSort(a, b Value) int {
	switch {
	case a.IsNull() && b.IsNull():
		return 0
	case a.IsNull():
		return -1
	case b.IsNull():
		return 1
	}
	return compareValues(a, b)
}

// extractFilter collects `col = const` and `col IN (consts)` from the top-level
// AND conjuncts of where (TiDB's ClusterTableExtractor,
// pingcap/tidb@v8.5.1:pkg/planner/core/memtable_predicate_extractor.go),
// and says whether the filter is exact (Filter.Exact).
func extractFilter(where Expr, cols []string) *Filter {
	x := &filterExtractor{f: &Filter{Equal: map[string][]string{}}, cols: cols, exact: true}
	if where != nil {
		x.walk(where)
	}
	x.f.Exact = x.exact && !x.f.Empty
	if !x.f.Exact {
		x.f.Lower = nil
	}
	return x.f
}

// filterExtractor is extractFilter's walk over the conjuncts.
type filterExtractor struct {
	f    *Filter
	cols []string
	// exact stays true while every conjunct seen compares a column (or
	// LOWER(column)) with string literals.
	exact bool
}

// known returns the upper-cased name of a column of the table.
func (x *filterExtractor) known(name string) (string, bool) {
	u := strings.ToUpper(name)
	for _, c := range x.cols {
		if c == u {
			return u, true
		}
	}
	return "", false
}

// constant returns the text of a (parenthesised) non-NULL literal and
// whether it is a string literal.
func constant(e Expr) (text string, isString, ok bool) {
	for {
		p, ok := e.(*ParenExpr)
		if !ok {
			break
		}
		e = p.X
	}
	lit, ok := e.(*Literal)
	if !ok || lit.V.IsNull() || lit.V.Kind == KindDefault {
		return "", false, false
	}
	return lit.V.String(), lit.V.Kind == KindString, true
}

// target returns the column e names, directly (lower=false) or as
// LOWER(column)/LCASE(column) (lower=true).
func (x *filterExtractor) target(e Expr) (col string, lower, ok bool) {
	if c, isCall := e.(*CallExpr); isCall && len(c.Args) == 1 && (strings.EqualFold(c.Name, "LOWER") || strings.EqualFold(c.Name, "LCASE")) {
		e, lower = c.Args[0], true
	}
	cr, isCol := e.(*ColumnRef)
	if !isCol {
		return "", false, false
	}
	col, ok = x.known(cr.Name())
	return col, lower, ok
}

// add records that col (or LOWER(col)) must be one of vals; constraining a
// column twice keeps the intersection.
func (x *filterExtractor) add(col string, lower bool, vals []string) {
	m := x.f.Equal
	if lower {
		if x.f.Lower == nil {
			x.f.Lower = map[string][]string{}
		}
		m = x.f.Lower
	}
	prev, seen := m[col]
	if !seen {
		m[col] = vals
		return
	}
	var inter []string
	for _, v := range prev {
		for _, w := range vals {
			if v == w {
				inter = append(inter, v)
				break
			}
		}
	}
	m[col] = inter
	// Only a contradiction between table columns skips the read (TiDB's
	// extractor sees those); LOWER(col) ones are for the engine's own use.
	if len(inter) == 0 && !lower {
		x.f.Empty = true
	}
}

// walk records the conjunct e (recursing into AND); a conjunct of another
// form makes the filter inexact.
func (x *filterExtractor) walk(e Expr) {
	switch e := e.(type) {
	case *ParenExpr:
		x.walk(e.X)
	case *BinaryExpr:
		switch e.Op {
		case "AND":
			x.walk(e.L)
			x.walk(e.R)
		case "=":
			l, r := e.L, e.R
			if _, _, ok := constant(l); ok {
				l, r = r, l
			}
			col, lower, ok := x.target(l)
			v, isString, isConst := constant(r)
			x.record(col, lower, ok && isConst, isString, []string{v})
		default:
			x.exact = false
		}
	case *InExpr:
		col, lower, ok := x.target(e.X)
		if e.Not {
			ok = false
		}
		allStrings := true
		var vals []string
		for _, it := range e.List {
			v, isString, isConst := constant(it)
			ok = ok && isConst
			allStrings = allStrings && isString
			vals = append(vals, v)
		}
		x.record(col, lower, ok, allStrings, vals)
	default:
		x.exact = false
	}
}

// record adds a conjunct that compares col (LOWER(col) when lower) with
// constant values; ok=false means the conjunct has another shape.
// LOWER(col) constraints and comparisons with other than string literals
// are kept only as far as they keep the filter exact.
func (x *filterExtractor) record(col string, lower, ok, allStrings bool, vals []string) {
	switch {
	case !ok:
		x.exact = false
	case !allStrings:
		x.exact = false
		if !lower {
			x.add(col, false, vals)
		}
	default:
		x.add(col, lower, vals)
	}
}

// semInvisible lists the tables Security Enhanced Mode hides
// (pingcap/tidb@v8.5.1:pkg/util/sem/sem.go IsInvisibleTable).
var semInvisible = map[string]bool{
	"information_schema.cluster_config": true, "information_schema.cluster_hardware": true,
	"information_schema.cluster_load": true, "information_schema.cluster_log": true,
	"information_schema.cluster_systeminfo": true, "mysql.global_variables": true,
	"mysql.expr_pushdown_blacklist": true, "mysql.gc_delete_range": true,
	"mysql.gc_delete_range_done": true, "mysql.opt_rule_blacklist": true, "mysql.tidb": true,
}

// checkSEM refuses a hidden table under SEM with TiDB's table-access error
// (1142, the account as CURRENT_USER() names it). The error code is
// unconfirmed: sem.go only says the tables are invisible.
func checkSEM(s *Session, t *Table) error {
	if !s.Cluster.SEM || !semInvisible[strings.ToLower(t.Schema+"."+t.Name)] {
		return nil
	}
	return errTableAccessDenied(s, t)
}

// checkSystemTablePrivilege refuses a table of the `mysql` schema (mysql.user)
// to an account without the SELECT privilege on it (ON *.*, ON mysql.* or ON
// mysql.user), as MySQL and TiDB do (1142;
// https://docs.pingcap.com/tidb/stable/privilege-management). The
// INFORMATION_SCHEMA tables tiform reads need no privilege (TiDB's
// infoschema_reader.go fills RESOURCE_GROUPS and CLUSTER_INFO without a
// check), except CLUSTER_CONFIG, which checks CONFIG itself.
func checkSystemTablePrivilege(s *Session, t *Table) error {
	if !strings.EqualFold(t.Schema, "mysql") || s.HasTablePrivilege("SELECT", t.Schema, t.Name) {
		return nil
	}
	return errTableAccessDenied(s, t)
}

// errTableAccessDenied is MySQL/TiDB error 1142 for a SELECT on t, naming the
// account as CURRENT_USER() does.
func errTableAccessDenied(s *Session, t *Table) error {
	account := s.User + "@%"
	if fn, ok := lookupFunction("CURRENT_USER"); ok {
		if v, err := fn(s, nil); err == nil && !v.IsNull() {
			account = v.String()
		}
	}
	user, host, _ := strings.Cut(account, "@")
	return NewError(1142, "42000", "SELECT command denied to user '%s'@'%s' for table '%s'", user, host, strings.ToLower(t.Name))
}

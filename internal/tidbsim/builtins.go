package tidbsim

import (
	"strings"
)

// Built-in statements and functions of the engine itself.

func init() {
	registerStatement("SHOW WARNINGS", execShowWarnings(false), true)
	registerStatement("SHOW ERRORS", execShowWarnings(true), true)
	RegisterStatement("USE", execUse)

	RegisterFunction("DATABASE", func(s *Session, args []Value) (Value, error) {
		if len(args) != 0 {
			return Null, ErrWrongArgCount("database")
		}
		if s.CurrentDB == "" {
			return Null, nil
		}
		return Str(s.CurrentDB), nil
	})
	RegisterFunction("CONNECTION_ID", func(s *Session, args []Value) (Value, error) {
		if len(args) != 0 {
			return Null, ErrWrongArgCount("connection_id")
		}
		return Int(int64(s.ID)), nil
	})
	RegisterFunction("USER", func(s *Session, args []Value) (Value, error) {
		if len(args) != 0 {
			return Null, ErrWrongArgCount("user")
		}
		return Str(s.User + "@" + s.Host), nil
	})
}

// SHOW WARNINGS [LIMIT [offset,] n] / SHOW ERRORS: columns Level, Code,
// Message. SHOW ERRORS lists only Level=Error rows. Neither clears the
// diagnostics.
func execShowWarnings(errorsOnly bool) StatementHandler {
	return func(s *Session, p *Parser) (*Result, error) {
		// SHOW WARNINGS [LIMIT [offset,] row_count]: no OFFSET keyword (MySQL grammar).
		limit, offset, err := parseLimit(p, false)
		if err != nil {
			return nil, err
		}
		if err := p.End(); err != nil {
			return nil, err
		}
		// Code is an unsigned int (pingcap/tidb@e4e814fdc0af:pkg/planner/core/planbuilder.go buildShowWarningsSchema)
		res := &Result{Columns: []Column{{Name: "Level"}, {Name: "Code", Type: ColUnsignedInt}, {Name: "Message"}}, Rows: [][]Value{}}
		i := 0
		for _, w := range s.warnings {
			if errorsOnly && w.Level != "Error" {
				continue
			}
			if i >= offset && (limit < 0 || len(res.Rows) < limit) {
				res.Rows = append(res.Rows, []Value{Str(w.Level), Int(int64(w.Code)), Str(w.Message)})
			}
			i++
		}
		return res, nil
	}
}

// USE db: only schemas that have virtual tables, plus "test" and "mysql".
func execUse(s *Session, p *Parser) (*Result, error) {
	db, err := p.Ident()
	if err != nil {
		return nil, err
	}
	if err := p.End(); err != nil {
		return nil, err
	}
	if err := checkDB(db); err != nil {
		return nil, err
	}
	s.CurrentDB = db
	return nil, nil
}

func checkDB(db string) error {
	switch strings.ToLower(db) {
	case "test", "mysql", "information_schema":
		return nil
	}
	if schemaExists(db) {
		return nil
	}
	return NewError(1049, "42000", "Unknown database '%s'", db)
}

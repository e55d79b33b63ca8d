package tidbsim

import "strings"

// sql_mode: the variable, its validation, and what of it the lexer obeys.
//
// TiDB defines sql_mode as a GLOBAL|SESSION string whose Validation formats
// the value (upper case, combination modes expanded, duplicates and empty
// parts dropped) and rejects an unknown mode (pingcap/tidb@v8.5.1:
// pkg/sessionctx/variable/sysvar.go, the SQLModeVar entry;
// pkg/parser/mysql/const.go FormatSQLModeStr, GetSQLMode, Str2SQLMode,
// CombinationSQLMode). A new session starts with the GLOBAL value; SET
// SESSION changes only that session. The session's mode drives the lexer
// (see lexMode): NO_BACKSLASH_ESCAPES and ANSI_QUOTES change how statement
// text splits into tokens (https://dev.mysql.com/doc/refman/8.0/en/sql-mode.html).

// defaultSQLMode is TiDB's mysql.DefaultSQLMode.
const defaultSQLMode = "ONLY_FULL_GROUP_BY,STRICT_TRANS_TABLES,NO_ZERO_IN_DATE,NO_ZERO_DATE,ERROR_FOR_DIVISION_BY_ZERO,NO_AUTO_CREATE_USER,NO_ENGINE_SUBSTITUTION"

// sqlModeNames are the modes TiDB accepts (Str2SQLMode).
var sqlModeNames = map[string]bool{}

func init() {
	for _, m := range strings.Fields(`REAL_AS_FLOAT PIPES_AS_CONCAT ANSI_QUOTES IGNORE_SPACE NOT_USED
		ONLY_FULL_GROUP_BY NO_UNSIGNED_SUBTRACTION NO_DIR_IN_CREATE POSTGRESQL ORACLE MSSQL DB2 MAXDB
		NO_KEY_OPTIONS NO_TABLE_OPTIONS NO_FIELD_OPTIONS MYSQL323 MYSQL40 ANSI NO_AUTO_VALUE_ON_ZERO
		NO_BACKSLASH_ESCAPES STRICT_TRANS_TABLES STRICT_ALL_TABLES NO_ZERO_IN_DATE NO_ZERO_DATE INVALID_DATES
		ERROR_FOR_DIVISION_BY_ZERO TRADITIONAL NO_AUTO_CREATE_USER HIGH_NOT_PRECEDENCE NO_ENGINE_SUBSTITUTION
		PAD_CHAR_TO_FULL_LENGTH ALLOW_INVALID_DATES`) {
		sqlModeNames[m] = true
	}
	sysVarDefs = append(sysVarDefs, &SysVarDef{
		Name: "sql_mode", Scope: ScopeGlobal | ScopeSession, Type: TypeStr, Default: defaultSQLMode,
		Source: sysVarDocs + "sql_mode",
		validate: func(_ *varCtx, normalized, original string) (string, error) {
			formatted := formatSQLMode(normalized)
			for _, m := range strings.Split(formatted, ",") {
				if m != "" && !sqlModeNames[m] {
					return original, errWrongValueForVar("sql_mode", m)
				}
			}
			return formatted, nil
		},
	})
}

// sqlModeCombinations are the shorthand modes (CombinationSQLMode): the
// formatted value lists their parts, then the shorthand itself.
var sqlModeCombinations = map[string][]string{
	"ANSI":        {"REAL_AS_FLOAT", "PIPES_AS_CONCAT", "ANSI_QUOTES", "IGNORE_SPACE", "ONLY_FULL_GROUP_BY"},
	"DB2":         {"PIPES_AS_CONCAT", "ANSI_QUOTES", "IGNORE_SPACE", "NO_KEY_OPTIONS", "NO_TABLE_OPTIONS", "NO_FIELD_OPTIONS"},
	"MAXDB":       {"PIPES_AS_CONCAT", "ANSI_QUOTES", "IGNORE_SPACE", "NO_KEY_OPTIONS", "NO_TABLE_OPTIONS", "NO_FIELD_OPTIONS", "NO_AUTO_CREATE_USER"},
	"MSSQL":       {"PIPES_AS_CONCAT", "ANSI_QUOTES", "IGNORE_SPACE", "NO_KEY_OPTIONS", "NO_TABLE_OPTIONS", "NO_FIELD_OPTIONS"},
	"MYSQL323":    {"MYSQL323", "HIGH_NOT_PRECEDENCE"},
	"MYSQL40":     {"MYSQL40", "HIGH_NOT_PRECEDENCE"},
	"ORACLE":      {"PIPES_AS_CONCAT", "ANSI_QUOTES", "IGNORE_SPACE", "NO_KEY_OPTIONS", "NO_TABLE_OPTIONS", "NO_FIELD_OPTIONS", "NO_AUTO_CREATE_USER"},
	"POSTGRESQL":  {"PIPES_AS_CONCAT", "ANSI_QUOTES", "IGNORE_SPACE", "NO_KEY_OPTIONS", "NO_TABLE_OPTIONS", "NO_FIELD_OPTIONS"},
	"TRADITIONAL": {"STRICT_TRANS_TABLES", "STRICT_ALL_TABLES", "NO_ZERO_IN_DATE", "NO_ZERO_DATE", "ERROR_FOR_DIVISION_BY_ZERO", "NO_AUTO_CREATE_USER", "NO_ENGINE_SUBSTITUTION"},
}

// formatSQLMode is TiDB's FormatSQLModeStr: upper case, trailing spaces
// trimmed, combination modes expanded before themselves, duplicates and
// empty parts dropped, order kept.
func formatSQLMode(s string) string {
	s = strings.ToUpper(strings.TrimRight(s, " "))
	var out []string
	seen := map[string]bool{}
	add := func(m string) {
		if !seen[m] {
			seen[m] = true
			out = append(out, m)
		}
	}
	for _, part := range strings.Split(s, ",") {
		if part == "" {
			continue
		}
		for _, m := range sqlModeCombinations[part] {
			add(m)
		}
		add(part)
	}
	return strings.Join(out, ",")
}

// lexModeOf is the part of a formatted sql_mode value the lexer obeys.
func lexModeOf(sqlMode string) lexMode {
	var m lexMode
	for rest := sqlMode; ; {
		part, more, found := strings.Cut(rest, ",")
		switch part {
		case "NO_BACKSLASH_ESCAPES":
			m.noBackslashEscapes = true
		case "ANSI_QUOTES":
			m.ansiQuotes = true
		}
		if !found {
			return m
		}
		rest = more
	}
}

// sessionLexMode is the lex mode of s's current SESSION sql_mode.
func sessionLexMode(s *Session) lexMode {
	return lexModeOf(sessionVars(s).get("sql_mode"))
}

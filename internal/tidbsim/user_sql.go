package tidbsim

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
)

// SQL surface of the users-and-privileges domain (issue 2 point 7):
//
//	CREATE USER [IF NOT EXISTS] user [IDENTIFIED BY 'pw'] [, ...] [RESOURCE GROUP rg]
//	ALTER USER [IF EXISTS] user [IDENTIFIED BY 'pw'] [RESOURCE GROUP rg]
//	DROP USER [IF EXISTS] user [, ...]
//	GRANT priv [, priv]... ON level TO user [, user]... [WITH GRANT OPTION]
//	REVOKE priv [, priv]... ON level FROM user [, user]...
//	mysql.user (Host, User, authentication_string, plugin, <priv>_priv…, User_attributes)
//	JSON_EXTRACT, JSON_UNQUOTE, CURRENT_USER()
//
// user is 'name'@'host', name@host or 'name' (host '%'). level is *.*
// (global), db.* or db.table; only SELECT on tables of the mysql schema is
// checked below the global level (the only tables tiform reads that need a
// privilege).

type usersKey struct{}

func clusterUsers(c *Cluster) *Users {
	c.Mu.Lock()
	defer c.Mu.Unlock()
	return c.Ext(usersKey{}).(*Users)
}

// CheckConfigPrivilege is the check SHOW CONFIG, SET CONFIG and
// INFORMATION_SCHEMA.CLUSTER_CONFIG need (https://docs.pingcap.com/tidb/stable/sql-statement-show-privileges:
// "To use SHOW CONFIG and SET CONFIG statements"): nil when
// the session's user holds CONFIG, else ErrSpecificAccessDenied("CONFIG")
// (1227). The engine reaches the same model through s.HasPrivilege("CONFIG").
func CheckConfigPrivilege(s *Session) error {
	if !s.HasPrivilege("CONFIG") {
		return ErrSpecificAccessDenied("CONFIG")
	}
	return nil
}

// parseUserSpec parses 'name'@'host', name@host, `name`@`host` or 'name'.
// The unquoted host form arrives as a user-variable token (@host).
func parseUserSpec(p *Parser) (UserSpec, error) {
	name, err := p.IdentOrString()
	if err != nil {
		return UserSpec{}, err
	}
	spec := UserSpec{User: name, Host: "%"}
	if t := p.Peek(); t.Kind == TokUserVar {
		p.Next()
		spec.Host = t.Text
	} else if p.AcceptOp("@") {
		host, err := p.IdentOrString()
		if err != nil {
			return UserSpec{}, err
		}
		spec.Host = host
	}
	spec.Host = strings.ToLower(spec.Host)
	return spec, nil
}

// parseResourceGroupClause parses `RESOURCE GROUP name`
// (https://docs.pingcap.com/tidb/stable/sql-statement-create-user); the name may
// be an identifier, `default` or the empty back-quoted name (TiDB test
// "alter user usr3 resource group" with an empty name).
func parseResourceGroupClause(p *Parser) (*string, error) {
	if !p.AcceptKeyword("RESOURCE", "GROUP") {
		return nil, nil
	}
	name, _, err := parseRGName(p)
	if err != nil {
		return nil, err
	}
	return &name, nil
}

// checkUserGroup validates a RESOURCE GROUP clause of CREATE/ALTER USER (TiDB
// executeCreateUser/executeAlterUser): 8250 when resource control is off,
// 8249 for a missing group other than `default` and the empty name.
func checkUserGroup(s *Session, group *string) error {
	if group == nil {
		return nil
	}
	if !resourceControlEnabled(s) {
		return ErrResourceControlDisabled()
	}
	g := strings.ToLower(*group)
	if g != DefaultResourceGroup && g != "" && !clusterGroups(s.Cluster).Exists(g) {
		return errRGNotExists(g)
	}
	return nil
}

// storedGroup is the group of a RESOURCE GROUP clause as User_attributes
// holds it (userAttributeGroup); nil without the clause.
func storedGroup(group *string) (*string, error) {
	if group == nil {
		return nil, nil
	}
	g, err := userAttributeGroup(strings.ToLower(*group))
	if err != nil {
		return nil, err
	}
	return &g, nil
}

// checkAccountNameLength is CREATE USER's check of each account: a user
// name longer than 32 bytes or a host longer than 255 is error 1470
// (pingcap/tidb@e4e814fdc0af:pkg/executor/simple.go executeCreateUser,
// pkg/parser/auth/auth.go UserNameMaxLength, HostNameMaxLength).
func checkAccountNameLength(spec UserSpec) error {
	const userMax, hostMax = 32, 255
	if len(spec.User) > userMax {
		return NewError(1470, "HY000", "String '%.70s' is too long for user name (should be no longer than %d)", spec.User, userMax)
	}
	if len(spec.Host) > hostMax {
		return NewError(1470, "HY000", "String '%.70s' is too long for host name (should be no longer than %d)", spec.Host, hostMax)
	}
	return nil
}

// userAttributeGroup is what User_attributes holds for a user bound to
// group: TiDB writes the name into the JSON text unescaped
// (pingcap/tidb@e4e814fdc0af:pkg/executor/simple.go executeCreateUser and
// executeAlterUser: fmt.Sprintf(`"resource_group": "%s"`, name)) and parses
// it as JSON (pkg/types/json_binary.go ParseBinaryJSONFromString). A name
// with a double quote or a control character is then not JSON: error 3140;
// a backslash starts an escape (`a\b` is stored as "a" and a backspace).
func userAttributeGroup(group string) (string, error) {
	text := `{"resource_group": "` + group + `"}`
	if !json.Valid([]byte(text)) {
		return "", NewError(3140, "22032", "Invalid JSON text: The document root must not be followed by other values.")
	}
	var doc struct {
		Group string `json:"resource_group"`
	}
	if err := json.Unmarshal([]byte(text), &doc); err != nil {
		return "", NewError(3140, "22032", "Invalid JSON text: %s", err)
	}
	return doc.Group, nil
}

func checkCreateUserPriv(s *Session) error {
	if !s.HasPrivilege("CREATE USER") {
		return ErrSpecificAccessDenied("CREATE USER")
	}
	return nil
}

func execCreateUser(s *Session, p *Parser) (*Result, error) {
	ifNotExists := p.AcceptKeyword("IF", "NOT", "EXISTS")
	type entry struct {
		spec UserSpec
		auth string
	}
	var list []entry
	if err := p.CommaList(func() error {
		spec, err := parseUserSpec(p)
		if err != nil {
			return err
		}
		e := entry{spec: spec}
		if p.AcceptKeyword("IDENTIFIED", "BY") {
			pw, err := p.StringLit()
			if err != nil {
				return err
			}
			e.auth = NativePasswordHash(pw)
		}
		list = append(list, e)
		return nil
	}); err != nil {
		return nil, err
	}
	group, err := parseResourceGroupClause(p)
	if err != nil {
		return nil, err
	}
	if err := p.End(); err != nil {
		return nil, err
	}
	if err := checkCreateUserPriv(s); err != nil {
		return nil, err
	}
	if err := checkUserGroup(s, group); err != nil {
		return nil, err
	}
	for _, e := range list {
		if err := checkAccountNameLength(e.spec); err != nil {
			return nil, err
		}
	}
	if group, err = storedGroup(group); err != nil {
		return nil, err
	}
	users := clusterUsers(s.Cluster)
	for _, e := range list {
		notes, err := users.CreateUser(e.spec, ifNotExists, e.auth, group)
		if err != nil {
			return nil, err
		}
		appendWarnings(s, notes)
	}
	return nil, nil
}

func execAlterUser(s *Session, p *Parser) (*Result, error) {
	ifExists := p.AcceptKeyword("IF", "EXISTS")
	spec, err := parseUserSpec(p)
	if err != nil {
		return nil, err
	}
	var auth *string
	if p.AcceptKeyword("IDENTIFIED", "BY") {
		pw, err := p.StringLit()
		if err != nil {
			return nil, err
		}
		h := NativePasswordHash(pw)
		auth = &h
	}
	group, err := parseResourceGroupClause(p)
	if err != nil {
		return nil, err
	}
	if auth == nil && group == nil {
		return nil, p.Errorf()
	}
	if err := p.End(); err != nil {
		return nil, err
	}
	if err := checkCreateUserPriv(s); err != nil {
		return nil, err
	}
	if err := checkUserGroup(s, group); err != nil {
		return nil, err
	}
	if group, err = storedGroup(group); err != nil {
		return nil, err
	}
	// An empty back-quoted name is stored as "" (TiDB formats the lower-cased
	// name into the attribute as is); sessions of such a user use `default`.
	notes, err := clusterUsers(s.Cluster).AlterUser(spec, ifExists, auth, group)
	if err != nil {
		return nil, err
	}
	appendWarnings(s, notes)
	return nil, nil
}

func execDropUser(s *Session, p *Parser) (*Result, error) {
	ifExists := p.AcceptKeyword("IF", "EXISTS")
	var specs []UserSpec
	if err := p.CommaList(func() error {
		spec, err := parseUserSpec(p)
		specs = append(specs, spec)
		return err
	}); err != nil {
		return nil, err
	}
	if err := p.End(); err != nil {
		return nil, err
	}
	if err := checkCreateUserPriv(s); err != nil {
		return nil, err
	}
	notes, err := clusterUsers(s.Cluster).DropUser(specs, ifExists)
	if err != nil {
		return nil, err
	}
	appendWarnings(s, notes)
	return nil, nil
}

// parsePrivList parses `priv [, priv]... ON level` (multi-word privileges
// such as CREATE USER, ALL PRIVILEGES, GRANT OPTION; level *.*, db.* or
// db.table, names optionally back-quoted).
func parsePrivList(p *Parser) ([]string, PrivLevel, error) {
	var privs []string
	for {
		var words []string
		for p.Peek().Kind == TokIdent && !p.IsKeyword("ON") {
			words = append(words, strings.ToUpper(p.Next().Text))
		}
		if len(words) == 0 {
			return nil, PrivLevel{}, p.Errorf()
		}
		privs = append(privs, strings.Join(words, " "))
		if !p.AcceptOp(",") {
			break
		}
	}
	if err := p.ExpectKeyword("ON"); err != nil {
		return nil, PrivLevel{}, err
	}
	db, err := parseLevelPart(p)
	if err != nil {
		return nil, PrivLevel{}, err
	}
	if err := p.ExpectOp("."); err != nil {
		return nil, PrivLevel{}, err
	}
	table, err := parseLevelPart(p)
	if err != nil {
		return nil, PrivLevel{}, err
	}
	if db == "*" && table != "*" {
		return nil, PrivLevel{}, p.Errorf()
	}
	return privs, PrivLevel{DB: db, Table: table}, nil
}

// parseLevelPart parses one side of a privilege level: * or a name.
func parseLevelPart(p *Parser) (string, error) {
	if p.AcceptOp("*") {
		return "*", nil
	}
	return p.IdentOrString()
}

func parseUserList(p *Parser) ([]UserSpec, error) {
	var specs []UserSpec
	err := p.CommaList(func() error {
		spec, err := parseUserSpec(p)
		specs = append(specs, spec)
		return err
	})
	return specs, err
}

// checkGrantOption: GRANT/REVOKE need the GRANT OPTION privilege (MySQL/TiDB);
// reported as 1227 naming it.
func checkGrantOption(s *Session) error {
	if !s.HasPrivilege("GRANT OPTION") {
		return ErrSpecificAccessDenied("GRANT OPTION")
	}
	return nil
}

func execGrant(s *Session, p *Parser) (*Result, error) {
	privs, level, err := parsePrivList(p)
	if err != nil {
		return nil, err
	}
	if err := p.ExpectKeyword("TO"); err != nil {
		return nil, err
	}
	specs, err := parseUserList(p)
	if err != nil {
		return nil, err
	}
	withGrant := p.AcceptKeyword("WITH", "GRANT", "OPTION")
	if err := p.End(); err != nil {
		return nil, err
	}
	if err := checkGrantOption(s); err != nil {
		return nil, err
	}
	return nil, clusterUsers(s.Cluster).Grant(privs, level, specs, withGrant)
}

func execRevoke(s *Session, p *Parser) (*Result, error) {
	privs, level, err := parsePrivList(p)
	if err != nil {
		return nil, err
	}
	if err := p.ExpectKeyword("FROM"); err != nil {
		return nil, err
	}
	specs, err := parseUserList(p)
	if err != nil {
		return nil, err
	}
	if err := p.End(); err != nil {
		return nil, err
	}
	if err := checkGrantOption(s); err != nil {
		return nil, err
	}
	return nil, clusterUsers(s.Cluster).Revoke(privs, level, specs)
}

// mysqlUserColumns are the modelled columns of mysql.user, in TiDB's column
// order (a subset: TiDB has more privilege and password columns).
var mysqlUserColumns = []string{"Host", "User", "authentication_string", "plugin",
	"Select_priv", "Insert_priv", "Update_priv", "Delete_priv", "Create_priv", "Drop_priv", "Process_priv",
	"Grant_priv", "Super_priv", "Create_user_priv", "Config_priv", "User_attributes"}

// mysqlUserColumn is the type of a mysql.user column as TiDB creates the
// table (pingcap/tidb@e4e814fdc0af:pkg/session/bootstrap.go CreateUserTable:
// Host CHAR(255) and User CHAR(32) NOT NULL, authentication_string TEXT,
// plugin CHAR(64), the privileges ENUM('N','Y') NOT NULL, User_attributes
// JSON).
func mysqlUserColumn(name string) Column {
	switch name {
	case "Host", "User":
		return Column{Name: name, Type: ColChar, NotNull: true}
	case "authentication_string":
		return Column{Name: name, Type: ColText}
	case "plugin":
		return Column{Name: name, Type: ColChar}
	case "User_attributes":
		return Column{Name: name, Type: ColJSON}
	}
	return Column{Name: name, Type: ColEnum, NotNull: true}
}

var privColumns = map[string]string{
	"Select_priv": "SELECT", "Insert_priv": "INSERT", "Update_priv": "UPDATE", "Delete_priv": "DELETE",
	"Create_priv": "CREATE", "Drop_priv": "DROP", "Process_priv": "PROCESS", "Super_priv": "SUPER",
	"Create_user_priv": "CREATE USER", "Config_priv": "CONFIG",
}

func mysqlUserRow(a *UserAccount) []Value {
	row := make([]Value, 0, len(mysqlUserColumns))
	yn := func(b bool) Value {
		if b {
			return Str("Y")
		}
		return Str("N")
	}
	for _, c := range mysqlUserColumns {
		switch c {
		case "Host":
			row = append(row, Str(a.Host))
		case "User":
			row = append(row, Str(a.User))
		case "authentication_string":
			row = append(row, Str(a.AuthString))
		case "plugin":
			row = append(row, Str("mysql_native_password"))
		case "Grant_priv":
			row = append(row, yn(a.GrantOption))
		case "User_attributes":
			if js, ok := a.AttributesJSON(); ok {
				row = append(row, Str(js))
			} else {
				row = append(row, Null)
			}
		default:
			row = append(row, yn(a.Privs[privColumns[c]]))
		}
	}
	return row
}

func init() {
	RegisterClusterInit(func(c *Cluster) { c.SetExt(usersKey{}, NewUsers()) })
	RegisterUserLookup(func(c *Cluster, user, host string) (string, bool) {
		a, ok := clusterUsers(c).Match(user, host)
		if !ok {
			return "", false
		}
		return a.AuthString, true
	})
	RegisterPrivilegeChecker(func(s *Session, privs ...string) bool {
		return clusterUsers(s.Cluster).matchHolds(s.User, s.Host, func(a *UserAccount) bool { return a.HasPrivilege(privs...) })
	})
	RegisterTablePrivilegeChecker(func(s *Session, priv, db, table string) bool {
		return clusterUsers(s.Cluster).matchHolds(s.User, s.Host, func(a *UserAccount) bool { return a.HasTablePrivilege(priv, db, table) })
	})
	RegisterStatement("CREATE USER", execCreateUser)
	RegisterStatement("ALTER USER", execAlterUser)
	RegisterStatement("DROP USER", execDropUser)
	RegisterStatement("GRANT", execGrant)
	RegisterStatement("REVOKE", execRevoke)
	cols := make([]Column, len(mysqlUserColumns))
	for i, c := range mysqlUserColumns {
		cols[i] = mysqlUserColumn(c)
	}
	RegisterTable(&Table{
		Schema: "mysql", Name: "user", Columns: cols,
		Rows: func(s *Session, _ *Filter) ([][]Value, error) {
			var rows [][]Value
			for _, a := range clusterUsers(s.Cluster).List() {
				rows = append(rows, mysqlUserRow(a))
			}
			return rows, nil
		},
	})
	RegisterFunction("JSON_EXTRACT", func(s *Session, args []Value) (Value, error) {
		if len(args) != 2 {
			return Null, ErrWrongArgCount("json_extract")
		}
		return JSONExtract(args[0], args[1])
	})
	RegisterFunction("JSON_UNQUOTE", func(s *Session, args []Value) (Value, error) {
		if len(args) != 1 {
			return Null, ErrWrongArgCount("json_unquote")
		}
		return JSONUnquote(args[0])
	})
	RegisterFunction("CURRENT_USER", func(s *Session, args []Value) (Value, error) {
		if len(args) != 0 {
			return Null, ErrWrongArgCount("current_user")
		}
		a, ok := clusterUsers(s.Cluster).Match(s.User, s.Host)
		if !ok {
			return Null, nil
		}
		return Str(a.User + "@" + a.Host), nil
	})
}

// ---- SHOW GRANTS [FOR user] ----
//
// The lines of pingcap/tidb@e4e814fdc0af:pkg/privilege/privileges/cache.go
// showGrants for the privileges the emulator models: the global line (the
// static privileges in mysql.AllGlobalPrivs order, ALL PRIVILEGES when every
// one is held, USAGE when none), then the database lines and the table
// lines, each group sorted, then one line of the dynamic privileges, sorted;
// WITH GRANT OPTION where the account has it. Without FOR the column is
// "Grants for User"; with FOR "Grants for u@h". An account that does not
// exist is error 1141, raised while the statement runs (not in SHOW
// WARNINGS).

func init() {
	RegisterStatement("SHOW GRANTS", execShowGrants)
}

func execShowGrants(s *Session, p *Parser) (*Result, error) {
	spec := UserSpec{User: s.User, Host: "%"}
	header := "Grants for User"
	if p.AcceptKeyword("FOR") {
		var err error
		if spec, err = parseUserSpec(p); err != nil {
			return nil, err
		}
		header = "Grants for " + spec.User + "@" + spec.Host
	}
	if err := p.End(); err != nil {
		return nil, err
	}
	var acct *UserAccount
	for _, a := range clusterUsers(s.Cluster).List() {
		if a.User == spec.User && a.Host == spec.Host {
			acct = a
		}
	}
	if acct == nil && header == "Grants for User" {
		if a, ok := clusterUsers(s.Cluster).Match(s.User, s.Host); ok {
			acct, spec = a, UserSpec{User: a.User, Host: a.Host}
		}
	}
	if acct == nil {
		return nil, executionError{NewError(1141, "42000", "There is no such grant defined for user '%s' on host '%s'", spec.User, spec.Host)}
	}
	res := &Result{Columns: []Column{{Name: header}}}
	for _, line := range grantLines(acct, sessionLexMode(s).ansiQuotes) {
		res.Rows = append(res.Rows, []Value{Str(line)})
	}
	return res, nil
}

// grantLines are the SHOW GRANTS lines of a.
func grantLines(a *UserAccount, ansiQuotes bool) []string {
	to := fmt.Sprintf(" TO '%s'@'%s'", a.User, a.Host)
	grant := ""
	if a.GrantOption {
		grant = " WITH GRANT OPTION"
	}
	var static []string
	for _, p := range staticPrivs {
		if a.Privs[p] {
			static = append(static, p)
		}
	}
	global := "USAGE"
	switch {
	case len(static) == len(staticPrivs):
		global = "ALL PRIVILEGES"
	case len(static) > 0:
		global = strings.Join(static, ",")
	}
	lines := []string{"GRANT " + global + " ON *.*" + to + grant}
	quote := func(name string) string {
		if ansiQuotes {
			return `"` + strings.ReplaceAll(name, `"`, `""`) + `"`
		}
		return "`" + strings.ReplaceAll(name, "`", "``") + "`"
	}
	var dbLines, tableLines []string
	for level, privs := range a.Scoped {
		var held []string
		for _, p := range staticPrivs {
			if privs[p] {
				held = append(held, p)
			}
		}
		if len(held) == 0 {
			continue
		}
		list := strings.Join(held, ",")
		if len(held) == len(tablePrivs) {
			list = "ALL PRIVILEGES" // every privilege of the level the emulator models
		}
		db, table, _ := strings.Cut(level, ".")
		if table == "*" {
			dbLines = append(dbLines, "GRANT "+list+" ON "+quote(db)+".*"+to)
		} else {
			tableLines = append(tableLines, "GRANT "+list+" ON "+quote(db)+"."+quote(table)+to)
		}
	}
	sort.Strings(dbLines)
	sort.Strings(tableLines)
	lines = append(append(lines, dbLines...), tableLines...)
	var dynamic []string
	for p, ok := range a.Privs {
		if ok && dynamicPrivs[p] {
			dynamic = append(dynamic, p)
		}
	}
	if len(dynamic) > 0 {
		sort.Strings(dynamic)
		lines = append(lines, "GRANT "+strings.Join(dynamic, ",")+" ON *.*"+to)
	}
	return lines
}

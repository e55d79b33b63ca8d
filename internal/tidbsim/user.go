package tidbsim

import (
	"encoding/json"
	"sort"
	"strings"
	"sync"
)

// This file is the users-and-privileges domain (https://docs.pingcap.com/tidb/stable/sql-statement-create-user,
// https://docs.pingcap.com/tidb/stable/sql-statement-show-privileges,
// https://docs.pingcap.com/tidb/stable/tidb-resource-control-ru-groups): accounts, the privileges granted ON *.*, the resource group
// bound to a user (mysql.user.User_attributes), and the privilege checks the
// engine asks for. The SQL statements are in user_sql.go.

// staticPrivs are the static privileges tidbsim models, in mysql.user column
// order. ALL [PRIVILEGES] grants every one of them (CONFIG included,
// https://docs.pingcap.com/tidb/stable/sql-statement-show-privileges).
var staticPrivs = []string{"SELECT", "INSERT", "UPDATE", "DELETE", "CREATE", "DROP", "PROCESS", "SUPER", "CREATE USER", "CONFIG"}

// dynamicPrivs are the dynamic privileges tidbsim accepts in GRANT. TiDB lets
// SUPER stand in for any dynamic privilege outside security-enhanced mode, so
// a check for RESOURCE_GROUP_ADMIN passes for SUPER ("SUPER or
// RESOURCE_GROUP_ADMIN", https://docs.pingcap.com/tidb/stable/tidb-resource-control-ru-groups).
var dynamicPrivs = map[string]bool{
	"RESOURCE_GROUP_ADMIN":   true,
	"RESOURCE_GROUP_USER":    true,
	"SYSTEM_VARIABLES_ADMIN": true,
	"BACKUP_ADMIN":           true,
	"RESTORE_ADMIN":          true,
	"CONNECTION_ADMIN":       true,
	"DASHBOARD_CLIENT":       true,
}

func isStaticPriv(p string) bool {
	for _, s := range staticPrivs {
		if s == p {
			return true
		}
	}
	return false
}

// UserAccount is one row of mysql.user.
type UserAccount struct {
	User, Host string
	// AuthString is authentication_string: "" for an empty password, else
	// mysql_native_password's "*<40 hex>" (NativePasswordHash).
	AuthString string
	// Privs are the privileges granted ON *.* (upper case).
	Privs map[string]bool
	// Scoped are the privileges granted at the database (ON db.*) and table
	// (ON db.table) levels, keyed by the lower-case level ("mysql.*",
	// "mysql.user"): MySQL's mysql.db and mysql.tables_priv, which TiDB keeps
	// (https://dev.mysql.com/doc/refman/8.0/en/grant.html#grant-privilege-levels,
	// https://docs.pingcap.com/tidb/stable/privilege-management).
	Scoped      map[string]map[string]bool
	GrantOption bool
	// Attributes is User_attributes; nil is SQL NULL (root, created at
	// bootstrap). CREATE USER always stores an object, `{}` when empty (TiDB
	// executeCreateUser builds "{" + attributes + "}").
	Attributes map[string]any
}

func (u *UserAccount) clone() *UserAccount {
	c := *u
	c.Privs = make(map[string]bool, len(u.Privs))
	for k, v := range u.Privs {
		c.Privs[k] = v
	}
	c.Scoped = make(map[string]map[string]bool, len(u.Scoped))
	for lvl, ps := range u.Scoped {
		c.Scoped[lvl] = make(map[string]bool, len(ps))
		for k, v := range ps {
			c.Scoped[lvl][k] = v
		}
	}
	if u.Attributes != nil {
		c.Attributes = make(map[string]any, len(u.Attributes))
		for k, v := range u.Attributes {
			c.Attributes[k] = v
		}
	}
	return &c
}

// ResourceGroup is the group the user is bound to ("" when none,
// https://docs.pingcap.com/tidb/stable/sql-statement-alter-user).
func (u *UserAccount) ResourceGroup() string {
	if s, ok := u.Attributes["resource_group"].(string); ok {
		return s
	}
	return ""
}

// AttributesJSON renders User_attributes as TiDB prints a JSON column:
// `{"resource_group": "rg1"}` (a space after ':' and ','; corpus
// test-tidb-resource-group-test), ok=false for NULL.
func (u *UserAccount) AttributesJSON() (string, bool) {
	if u.Attributes == nil {
		return "", false
	}
	return renderJSON(u.Attributes), true
}

// Users is the cluster's account table. It is safe for concurrent use.
type Users struct {
	mu       sync.Mutex
	accounts []*UserAccount // creation order
}

// NewUsers returns the accounts of a freshly bootstrapped cluster: root@'%'
// with an empty password and every privilege (the default login).
func NewUsers() *Users {
	root := &UserAccount{User: "root", Host: "%", Privs: map[string]bool{}, GrantOption: true}
	for _, p := range staticPrivs {
		root.Privs[p] = true
	}
	return &Users{accounts: []*UserAccount{root}}
}

// hostMatches is MySQL's host matching for the patterns tidbsim models: '%'
// matches every host, otherwise exact (case-insensitive) match.
func hostMatches(pattern, host string) bool {
	return pattern == "%" || strings.EqualFold(pattern, host)
}

// find returns the account user@host exactly (host compared
// case-insensitively, as MySQL stores host names in lower case).
func (us *Users) findLocked(user, host string) *UserAccount {
	for _, a := range us.accounts {
		if a.User == user && strings.EqualFold(a.Host, host) {
			return a
		}
	}
	return nil
}

// Get returns a copy of the account user@host.
func (us *Users) Get(user, host string) (*UserAccount, bool) {
	us.mu.Lock()
	defer us.mu.Unlock()
	a := us.findLocked(user, host)
	if a == nil {
		return nil, false
	}
	return a.clone(), true
}

// Match returns the account a client user connecting from host logs in as: an
// exact host match first, then '%'.
func (us *Users) Match(user, host string) (*UserAccount, bool) {
	us.mu.Lock()
	defer us.mu.Unlock()
	if a := us.matchLocked(user, host); a != nil {
		return a.clone(), true
	}
	return nil, false
}

// matchLocked is Match's account itself (not a copy); nil when none.
func (us *Users) matchLocked(user, host string) *UserAccount {
	if a := us.findLocked(user, host); a != nil {
		return a
	}
	for _, a := range us.accounts {
		if a.User == user && hostMatches(a.Host, host) {
			return a
		}
	}
	return nil
}

// matchHolds reports whether the account Match finds for user@host exists
// and satisfies holds, evaluated under the lock on the account itself
// (a privilege check needs no copy).
func (us *Users) matchHolds(user, host string, holds func(*UserAccount) bool) bool {
	us.mu.Lock()
	defer us.mu.Unlock()
	a := us.matchLocked(user, host)
	return a != nil && holds(a)
}

// List returns copies of all accounts in creation order.
func (us *Users) List() []*UserAccount {
	us.mu.Lock()
	defer us.mu.Unlock()
	out := make([]*UserAccount, len(us.accounts))
	for i, a := range us.accounts {
		out[i] = a.clone()
	}
	return out
}

// BoundUser returns the first user bound to group, for DROP RESOURCE GROUP
// ("user [<user>] depends on the resource group to drop", pingcap/tidb#40716;
// pingcap/tidb@v8.5.1:pkg/ddl/executor.go DropResourceGroup): first in the
// privilege cache's order, the most specific host first, then by user name
// (pingcap/tidb@e4e814fdc0af:pkg/privilege/privileges/cache.go
// matchResoureGroup over the records SortUserTable sorted with
// compareUserRecord). A user without a group (root: User_attributes NULL)
// counts as bound to the empty name.
func (us *Users) BoundUser(group string) (string, bool) {
	us.mu.Lock()
	defer us.mu.Unlock()
	var bound []*UserAccount
	for _, a := range us.accounts {
		if a.ResourceGroup() == group {
			bound = append(bound, a)
		}
	}
	if len(bound) == 0 {
		return "", false
	}
	sort.SliceStable(bound, func(i, j int) bool {
		if c := compareHost(bound[i].Host, bound[j].Host); c != 0 {
			return c < 0
		}
		return bound[i].User < bound[j].User
	})
	return bound[0].User, true
}

// compareHost orders hosts as TiDB's privilege cache does (cache.go
// compareHost): more specific first; '%' after any other, ” after '%'; of
// two patterns ending in '%' the longer first.
func compareHost(x, y string) int {
	if x == y {
		return 0
	}
	if y == "%" {
		if x == "%" {
			return 0
		}
		return -1
	}
	if y == "" {
		if x == "" {
			return 0
		}
		return -1
	}
	xEnd, yEnd := strings.HasSuffix(x, "%"), strings.HasSuffix(y, "%")
	if xEnd || yEnd {
		switch {
		case !xEnd && yEnd:
			return -1
		case xEnd && !yEnd:
			return 1
		case len(x) > len(y):
			return -1
		}
		return 0
	}
	if x < y {
		return -1
	}
	return 1
}

// HasPrivilege reports whether account a holds at least one of privs. SUPER
// stands in for every dynamic privilege (TiDB outside SEM); static privileges
// other than SUPER need their own grant (CONFIG is not implied by SUPER,
// https://docs.pingcap.com/tidb/stable/sql-statement-show-privileges lists CONFIG as its own privilege).
func (a *UserAccount) HasPrivilege(privs ...string) bool {
	for _, p := range privs {
		p = strings.ToUpper(p)
		if p == "GRANT OPTION" && a.GrantOption {
			return true
		}
		if a.Privs[p] {
			return true
		}
		if dynamicPrivs[p] && a.Privs["SUPER"] {
			return true
		}
	}
	return false
}

// HasTablePrivilege reports whether account a holds priv on db.table at any
// level: globally (ON *.*), on the database (ON db.*) or on the table (ON
// db.table), MySQL's order of privilege checking
// (https://dev.mysql.com/doc/refman/8.0/en/request-access.html).
func (a *UserAccount) HasTablePrivilege(priv, db, table string) bool {
	priv = strings.ToUpper(priv)
	if a.Privs[priv] {
		return true
	}
	db, table = strings.ToLower(db), strings.ToLower(table)
	return a.Scoped[db+".*"][priv] || a.Scoped[db+"."+table][priv]
}

// PrivLevel is the ON clause of GRANT/REVOKE: *.* (global, DB and Table
// "*"), db.* or db.table.
type PrivLevel struct{ DB, Table string }

// Global reports whether l is ON *.*.
func (l PrivLevel) Global() bool { return l.DB == "*" && l.Table == "*" }

func (l PrivLevel) key() string { return strings.ToLower(l.DB + "." + l.Table) }

// tablePrivs are the static privileges that exist below the global level
// (MySQL's "database privileges" and "table privileges"); the others
// (PROCESS, SUPER, CREATE USER, CONFIG, every dynamic privilege) are global
// only, and granting them ON db.* or db.table is error 1221 (MySQL
// ER_WRONG_USAGE "Incorrect usage of DB GRANT and GLOBAL PRIVILEGES", which
// TiDB's executor/grant.go returns likewise).
var tablePrivs = map[string]bool{"SELECT": true, "INSERT": true, "UPDATE": true, "DELETE": true, "CREATE": true, "DROP": true}

// userSpecString is how TiDB prints a user in messages: 'u'@'h'.
func userSpecString(user, host string) string {
	return "'" + user + "'@'" + host + "'"
}

// UserSpec is user@host in an account statement.
type UserSpec struct {
	User, Host string
}

func (u UserSpec) String() string { return userSpecString(u.User, u.Host) }

// CreateUser adds an account. IF NOT EXISTS on an existing account gives Note
// 3163 "User 'u'@'h' already exists."; without it error 1396 "Operation CREATE
// USER failed for 'u'@'h'" (MySQL ER_CANNOT_USER / TiDB ErrUserAlreadyExists
// texts). group is nil when no RESOURCE GROUP clause was
// given; checks of the group (8250, 8249) are the caller's.
func (us *Users) CreateUser(spec UserSpec, ifNotExists bool, authString string, group *string) ([]Warning, error) {
	us.mu.Lock()
	defer us.mu.Unlock()
	if us.findLocked(spec.User, spec.Host) != nil {
		if ifNotExists {
			return []Warning{{Level: "Note", Code: 3163, Message: "User " + spec.String() + " already exists."}}, nil
		}
		return nil, NewError(1396, "HY000", "Operation CREATE USER failed for %s", spec)
	}
	a := &UserAccount{User: spec.User, Host: strings.ToLower(spec.Host), AuthString: authString, Privs: map[string]bool{}, Attributes: map[string]any{}}
	if group != nil {
		a.Attributes["resource_group"] = strings.ToLower(*group)
	}
	us.accounts = append(us.accounts, a)
	return nil, nil
}

// AlterUser changes an account: a new password when authString is non-nil,
// the bound group when group is non-nil (merged into User_attributes as TiDB's
// JSON_MERGE_PATCH does). A missing account is 1396; with IF EXISTS Note 3162.
func (us *Users) AlterUser(spec UserSpec, ifExists bool, authString, group *string) ([]Warning, error) {
	us.mu.Lock()
	defer us.mu.Unlock()
	a := us.findLocked(spec.User, spec.Host)
	if a == nil {
		if ifExists {
			return []Warning{{Level: "Note", Code: 3162, Message: "User " + spec.String() + " does not exist."}}, nil
		}
		return nil, NewError(1396, "HY000", "Operation ALTER USER failed for %s", spec)
	}
	if authString != nil {
		a.AuthString = *authString
	}
	if group != nil {
		if a.Attributes == nil {
			a.Attributes = map[string]any{}
		}
		a.Attributes["resource_group"] = strings.ToLower(*group)
	}
	return nil, nil
}

// DropUser removes accounts; all must exist unless ifExists (then Note 3162
// for each missing one). Nothing is dropped when one is missing without IF
// EXISTS: error 1396 naming the first missing account. TiDB's
// executeDropUser prints users here with UserIdentity.String(), i.e. without
// quotes: "Operation DROP USER failed for ghost@%", "User ghost@% does not
// exist." (CREATE/ALTER USER quote them: 'u'@'h').
func (us *Users) DropUser(specs []UserSpec, ifExists bool) ([]Warning, error) {
	us.mu.Lock()
	defer us.mu.Unlock()
	var warns []Warning
	for _, sp := range specs {
		if us.findLocked(sp.User, sp.Host) == nil {
			plain := sp.User + "@" + sp.Host
			if !ifExists {
				return nil, NewError(1396, "HY000", "Operation DROP USER failed for %s", plain)
			}
			warns = append(warns, Warning{Level: "Note", Code: 3162, Message: "User " + plain + " does not exist."})
		}
	}
	for _, sp := range specs {
		for i, a := range us.accounts {
			if a.User == sp.User && strings.EqualFold(a.Host, sp.Host) {
				us.accounts = append(us.accounts[:i], us.accounts[i+1:]...)
				break
			}
		}
	}
	return warns, nil
}

// Grant adds privileges ON *.* to existing accounts. A missing account is
// 1410 "You are not allowed to create a user with GRANT" (MySQL/TiDB
// ER_CANT_CREATE_USER_WITH_GRANT); an unknown dynamic privilege is 3929.
func (us *Users) Grant(privs []string, level PrivLevel, specs []UserSpec, withGrantOption bool) error {
	us.mu.Lock()
	defer us.mu.Unlock()
	expanded, err := expandPrivs(privs, level)
	if err != nil {
		return err
	}
	for _, sp := range specs {
		if us.findLocked(sp.User, sp.Host) == nil {
			return NewError(1410, "42000", "You are not allowed to create a user with GRANT")
		}
	}
	for _, sp := range specs {
		a := us.findLocked(sp.User, sp.Host)
		target := a.Privs
		if !level.Global() {
			if a.Scoped == nil {
				a.Scoped = map[string]map[string]bool{}
			}
			if a.Scoped[level.key()] == nil {
				a.Scoped[level.key()] = map[string]bool{}
			}
			target = a.Scoped[level.key()]
		}
		for _, p := range expanded {
			target[p] = true
		}
		if withGrantOption {
			a.GrantOption = true
		}
	}
	return nil
}

// Revoke removes privileges ON *.*; a missing account is 1141 "There is no
// such grant defined for user 'u' on host 'h'" (MySQL ER_NONEXISTING_GRANT).
func (us *Users) Revoke(privs []string, level PrivLevel, specs []UserSpec) error {
	us.mu.Lock()
	defer us.mu.Unlock()
	expanded, err := expandPrivs(privs, level)
	if err != nil {
		return err
	}
	for _, sp := range specs {
		if us.findLocked(sp.User, sp.Host) == nil {
			return NewError(1141, "42000", "There is no such grant defined for user '%s' on host '%s'", sp.User, sp.Host)
		}
	}
	for _, sp := range specs {
		a := us.findLocked(sp.User, sp.Host)
		target := a.Privs
		if !level.Global() {
			target = a.Scoped[level.key()]
		}
		for _, p := range expanded {
			delete(target, p)
		}
	}
	return nil
}

// expandPrivs resolves ALL [PRIVILEGES] at level and checks that every
// privilege exists at that level.
func expandPrivs(privs []string, level PrivLevel) ([]string, error) {
	var out []string
	for _, p := range privs {
		p = strings.ToUpper(p)
		switch {
		case (p == "ALL" || p == "ALL PRIVILEGES") && level.Global():
			out = append(out, staticPrivs...)
		case p == "ALL" || p == "ALL PRIVILEGES":
			for _, sp := range staticPrivs {
				if tablePrivs[sp] {
					out = append(out, sp)
				}
			}
		case !level.Global() && (isStaticPriv(p) || dynamicPrivs[p]) && !tablePrivs[p]:
			return nil, NewError(1221, "HY000", "Incorrect usage of DB GRANT and GLOBAL PRIVILEGES")
		case isStaticPriv(p) || dynamicPrivs[p]:
			out = append(out, p)
		default:
			return nil, NewError(3929, "HY000", "Dynamic privilege '%s' is not registered with the server.", p)
		}
	}
	return out, nil
}

// ---- JSON (User_attributes, JSON_EXTRACT, JSON_UNQUOTE) ----

// renderJSON prints a JSON value as TiDB prints a JSON column: compact, with
// ", " between elements and ": " after keys, object keys sorted.
func renderJSON(v any) string {
	var b strings.Builder
	writeJSON(&b, v)
	return b.String()
}

func writeJSON(b *strings.Builder, v any) {
	switch x := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		b.WriteByte('{')
		for i, k := range keys {
			if i > 0 {
				b.WriteString(", ")
			}
			writeJSONString(b, k)
			b.WriteString(": ")
			writeJSON(b, x[k])
		}
		b.WriteByte('}')
	case []any:
		b.WriteByte('[')
		for i, e := range x {
			if i > 0 {
				b.WriteString(", ")
			}
			writeJSON(b, e)
		}
		b.WriteByte(']')
	case string:
		writeJSONString(b, x)
	case json.Number:
		b.WriteString(x.String())
	case bool:
		if x {
			b.WriteString("true")
		} else {
			b.WriteString("false")
		}
	case nil:
		b.WriteString("null")
	default:
		enc, _ := json.Marshal(x)
		b.Write(enc)
	}
}

func writeJSONString(b *strings.Builder, s string) {
	enc, _ := json.Marshal(s)
	b.Write(enc)
}

func parseJSONDoc(s string) (any, error) {
	dec := json.NewDecoder(strings.NewReader(s))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, NewError(3140, "22032", "Invalid JSON text: %s", err.Error())
	}
	return v, nil
}

// JSONExtract is JSON_EXTRACT(doc, path) for the path forms `$`, `$.key`,
// `$."quoted key"` and `$[n]`, chained. It returns SQL NULL for a NULL
// argument or a path that matches nothing, else the matched value rendered as
// JSON (a string comes back quoted: `"rg1"`).
func JSONExtract(doc, path Value) (Value, error) {
	if doc.IsNull() || path.IsNull() {
		return Null, nil
	}
	v, err := parseJSONDoc(doc.String())
	if err != nil {
		return Null, err
	}
	steps, err := parseJSONPath(path.String())
	if err != nil {
		return Null, err
	}
	for _, st := range steps {
		switch {
		case st.key != nil:
			m, ok := v.(map[string]any)
			if !ok {
				return Null, nil
			}
			if v, ok = m[*st.key]; !ok {
				return Null, nil
			}
		default:
			arr, ok := v.([]any)
			if !ok || st.index >= len(arr) {
				return Null, nil
			}
			v = arr[st.index]
		}
	}
	return Str(renderJSON(v)), nil
}

type jsonStep struct {
	key   *string
	index int
}

// parseJSONPath parses the supported subset of MySQL JSON paths; anything else
// is error 3143 "Invalid JSON path expression".
func parseJSONPath(p string) ([]jsonStep, error) {
	bad := func() error {
		return NewError(3143, "42000", "Invalid JSON path expression. The error is around character position %d.", len(p))
	}
	p = strings.TrimSpace(p)
	if !strings.HasPrefix(p, "$") {
		return nil, bad()
	}
	rest := p[1:]
	var steps []jsonStep
	for rest != "" {
		switch rest[0] {
		case '.':
			rest = rest[1:]
			if strings.HasPrefix(rest, `"`) {
				end := strings.IndexByte(rest[1:], '"')
				if end < 0 {
					return nil, bad()
				}
				k := rest[1 : 1+end]
				steps = append(steps, jsonStep{key: &k})
				rest = rest[2+end:]
				continue
			}
			i := 0
			for i < len(rest) && (isIdentChar(rest[i])) {
				i++
			}
			if i == 0 {
				return nil, bad()
			}
			k := rest[:i]
			steps = append(steps, jsonStep{key: &k})
			rest = rest[i:]
		case '[':
			end := strings.IndexByte(rest, ']')
			if end < 0 {
				return nil, bad()
			}
			n := 0
			digits := strings.TrimSpace(rest[1:end])
			if digits == "" {
				return nil, bad()
			}
			for _, c := range digits {
				if c < '0' || c > '9' {
					return nil, bad()
				}
				n = n*10 + int(c-'0')
			}
			steps = append(steps, jsonStep{index: n})
			rest = rest[end+1:]
		default:
			return nil, bad()
		}
	}
	return steps, nil
}

// JSONUnquote is JSON_UNQUOTE(v): a JSON string literal loses its quotes and
// escapes; anything else is returned unchanged; NULL stays NULL.
func JSONUnquote(v Value) (Value, error) {
	if v.IsNull() {
		return Null, nil
	}
	s := v.String()
	if len(s) >= 2 && s[0] == '"' && s[len(s)-1] == '"' {
		var out string
		if err := json.Unmarshal([]byte(s), &out); err != nil {
			return Null, NewError(3140, "22032", "Invalid JSON text: %s", err.Error())
		}
		return Str(out), nil
	}
	return Str(s), nil
}

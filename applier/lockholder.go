package applier

import (
	"context"
	"database/sql"
	"fmt"
	"regexp"
	"strings"
	"time"
)

// Who holds the apply lock. TiDB does not say: IS_USED_LOCK answers 1, not
// the holder's connection id, to every session but the holder's (pingcap/tidb
// pkg/session/session.go, IsUsedAdvisoryLock: "TODO: Return actual owner
// pid"), and GET_LOCK needs no privilege, so any login can take
// 'tiform.apply' and hold every apply off until its timeout. So the
// connection that takes an apply's lock marks itself: it sets its
// tidb_session_alias (TiDB v7.4.0+), which INFORMATION_SCHEMA.PROCESSLIST and
// CLUSTER_PROCESSLIST show in SESSION_ALIAS. An apply that finds the lock
// taken reads the sessions so marked and names them; when the account may
// see every session (PROCESS) and none is marked, the holder is no tiform
// apply, and the refusal says so (docs/decisions/0017-apply-lock-holder.md).

// LockAlias is the tidb_session_alias of the connection that holds, or waits
// for, an apply's lock.
const LockAlias = "tiform-apply"

// markLockConn sets LockAlias on the lock connection c. A TiDB without
// tidb_session_alias (before v7.4.0) refuses it: the lock works as before,
// unmarked.
func markLockConn(ctx context.Context, c *sql.Conn) {
	_, _ = c.ExecContext(ctx, markStatement)
}

// markStatement marks the lock connection.
var markStatement = "SET SESSION tidb_session_alias = " + sqlString(LockAlias)

// lockHolder is a session marked LockAlias.
type lockHolder struct {
	Instance, User, Host string
	ID, Seconds          int64
}

// holderQueries read the sessions marked LockAlias other than the asking
// one: cluster-wide, else on the connected TiDB only (CLUSTER_PROCESSLIST
// hidden).
var holderQueries = []string{
	"SELECT INSTANCE, ID, USER, HOST, TIME FROM INFORMATION_SCHEMA.CLUSTER_PROCESSLIST WHERE SESSION_ALIAS = " + sqlString(LockAlias) + " AND ID <> CONNECTION_ID() ORDER BY TIME DESC, ID",
	"SELECT '' AS INSTANCE, ID, USER, HOST, TIME FROM INFORMATION_SCHEMA.PROCESSLIST WHERE SESSION_ALIAS = " + sqlString(LockAlias) + " AND ID <> CONNECTION_ID() ORDER BY TIME DESC, ID",
}

// processGrant matches a global grant that shows every session.
var processGrant = regexp.MustCompile(`(?i)^GRANT .*\b(PROCESS|ALL PRIVILEGES)\b.* ON \*\.\* TO `)

// holders is what an apply refused the lock knows of who holds it.
type holders struct {
	// sessions are the sessions marked LockAlias the account may see.
	sessions []lockHolder
	// seesAll: the account may see every session (PROCESS).
	seesAll bool
	// account is the apply's account as SHOW GRANTS names it
	// ('tiform_apply'@'%'); "" when unknown.
	account string
	// known is false when the marks cannot be read (a TiDB before v7.4.0).
	known bool
}

// lockHolders reads, on c (the lock connection, once GET_LOCK gave up), the
// sessions marked LockAlias, and whether the account sees every session
// (PROCESS) and its name.
func lockHolders(ctx context.Context, c *sql.Conn) holders {
	var (
		hs      []lockHolder
		seesAll bool
		account string
		ok      bool
	)
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	for _, q := range holderQueries {
		rows, err := c.QueryContext(ctx, q)
		if err != nil {
			continue
		}
		hs, err = scanHolders(rows)
		if err == nil {
			ok = true
			break
		}
	}
	if !ok {
		return holders{}
	}
	rows, err := c.QueryContext(ctx, "SHOW GRANTS")
	if err != nil {
		return holders{sessions: hs, known: true}
	}
	defer rows.Close()
	for rows.Next() {
		var g string
		if rows.Scan(&g) != nil {
			continue
		}
		if processGrant.MatchString(g) {
			seesAll = true
		}
		if _, to, found := strings.Cut(g, " TO "); found && account == "" {
			account = strings.TrimSpace(to)
		}
	}
	return holders{sessions: hs, seesAll: seesAll, account: account, known: true}
}

func scanHolders(rows *sql.Rows) ([]lockHolder, error) {
	defer rows.Close()
	var out []lockHolder
	for rows.Next() {
		var h lockHolder
		var inst, user, host sql.NullString
		var id, secs sql.NullInt64
		if err := rows.Scan(&inst, &id, &user, &host, &secs); err != nil {
			return nil, err
		}
		h.Instance, h.User, h.Host, h.ID, h.Seconds = inst.String, user.String, host.String, id.Int64, secs.Int64
		out = append(out, h)
	}
	return out, rows.Err()
}

// text says who holds the lock name.
func (h holders) text(name string) string {
	hs, seesAll, account, ok := h.sessions, h.seesAll, h.account, h.known
	me := account
	if me == "" {
		me = "this apply's account"
	}
	switch {
	case !ok:
		return fmt.Sprintf("another session holds the lock %q (this TiDB does not show which: tidb_session_alias, "+
			"v7.4.0+, marks a tiform apply's session)", name)
	case len(hs) > 0:
		var who []string
		for _, x := range hs {
			s := fmt.Sprintf("'%s'@'%s' (connection %d", x.User, x.Host, x.ID)
			if x.Instance != "" {
				s += " on " + x.Instance
			}
			s += fmt.Sprintf(", for %s)", time.Duration(x.Seconds)*time.Second)
			if account != "" && !strings.HasPrefix(account, "'"+x.User+"'@") {
				s += ", not " + me + ": any account can mark a session this way, check that it is a tiform apply"
			}
			who = append(who, s)
		}
		return fmt.Sprintf("another tiform apply holds the lock %q: %s", name, strings.Join(who, "; "))
	case seesAll:
		return fmt.Sprintf("a session that is not a tiform apply holds the lock %q: no session of the cluster is "+
			"marked as a tiform apply (tidb_session_alias %q), and GET_LOCK needs no privilege, so any account can "+
			"take the lock and hold every apply off. TiDB does not say which session holds a user-level lock: find it "+
			"in INFORMATION_SCHEMA.CLUSTER_PROCESSLIST and end it with KILL", name, LockAlias)
	}
	return fmt.Sprintf("the lock %q is held by a session that %s cannot see: no session of this account is marked as a "+
		"tiform apply, so the holder is a tiform apply of another account, a tiform before this version, or any "+
		"other session (GET_LOCK needs no privilege: any account can hold the lock off). Without the PROCESS "+
		"privilege apply cannot tell which: grant PROCESS to %s", name, me, me)
}

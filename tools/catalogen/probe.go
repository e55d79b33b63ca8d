package main

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"os/exec"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/go-sql-driver/mysql"

	"github.com/tiform/tiform/internal/realtidb"
	"github.com/tiform/tiform/internal/upstream"
)

// probeSysvars asks a real tidb-server what it does when each of its global
// and instance variables is set (every variable is listed with the scope the
// server gives it; those of scope NONE are read-only) (internal/upstream/probe.go says what is
// recorded and why): it starts bin with auto-tls, reads
// INFORMATION_SCHEMA.VARIABLES_INFO, and for every variable sends the
// candidate values of probeValues with SET GLOBAL over a plain connection
// (and over TLS where the plain one was refused), reading SHOW WARNINGS and
// SHOW GLOBAL VARIABLES after each, restoring the value it had.
func probeSysvars(bin string) ([]byte, error) {
	srv, err := realtidb.Start(bin, realtidb.Options{TLS: true})
	if err != nil {
		return nil, err
	}
	defer srv.Stop()
	ctx := context.Background()
	plain, err := probeConn(ctx, srv.DSN("root", ""))
	if err != nil {
		return nil, err
	}
	defer plain.Close()
	secure, err := probeConn(ctx, srv.DSN("root", "")+"&tls=skip-verify")
	if err != nil {
		return nil, err
	}
	defer secure.Close()
	vars, err := variablesInfo(ctx, plain)
	if err != nil {
		return nil, err
	}
	p := &upstream.Probe{Format: upstream.ProbeFormat, Generator: "tools/catalogen -tidb-server", Server: srv.Version,
		Source: binarySource(bin), Context: "one TiDB instance, store unistore"}
	for _, vi := range vars {
		switch {
		case vi.scope == "NONE": // read-only by scope: nothing to send
			p.Variables = append(p.Variables, &upstream.ProbeVariable{Name: vi.name, Scope: vi.scope, ReadOnly: true, Noop: vi.noop})
			continue
		case !strings.Contains(vi.scope, "GLOBAL") && !strings.Contains(vi.scope, "INSTANCE"):
			p.Variables = append(p.Variables, &upstream.ProbeVariable{Name: vi.name, Scope: vi.scope, Noop: vi.noop})
			continue
		}
		pv, err := probeVariable(ctx, plain, secure, vi)
		if err != nil {
			return nil, fmt.Errorf("probe %s: %w", vi.name, err)
		}
		p.Variables = append(p.Variables, pv)
	}
	out, err := json.MarshalIndent(p, "", " ")
	if err != nil {
		return nil, err
	}
	return append(out, '\n'), nil
}

// binarySource names the upstream commit bin was built from (tidb-server -V).
func binarySource(bin string) string {
	out, _ := exec.Command(bin, "-V").Output()
	for _, line := range strings.Split(string(out), "\n") {
		if h, ok := strings.CutPrefix(line, "Git Commit Hash: "); ok && len(h) >= 12 {
			return "pingcap/tidb@" + h[:12]
		}
	}
	return "pingcap/tidb (commit unknown)"
}

func probeConn(ctx context.Context, dsn string) (*sql.Conn, error) {
	db, err := sql.Open("mysql", dsn)
	if err != nil {
		return nil, err
	}
	return db.Conn(ctx)
}

// varInfo is a row of INFORMATION_SCHEMA.VARIABLES_INFO.
type varInfo struct {
	name, scope, current string
	// dflt is DEFAULT_VALUE: the value a new cluster of this build starts
	// with (pingcap/tidb pkg/executor/infoschema_reader.go,
	// setDataForVariablesInfo: the sysvar's Value through
	// GlobalSystemVariableInitialValue, which depends on the store).
	// Recorded for the variables SET GLOBAL can change only: a read-only
	// one's (datadir, socket, hostname) is the probe's own host and
	// directory, which no cluster shares.
	dflt               string
	min, max, possible sql.NullString
	noop               bool
}

func variablesInfo(ctx context.Context, c *sql.Conn) ([]varInfo, error) {
	rows, err := c.QueryContext(ctx, "SELECT VARIABLE_NAME, VARIABLE_SCOPE, DEFAULT_VALUE, CURRENT_VALUE, MIN_VALUE, MAX_VALUE, POSSIBLE_VALUES, IS_NOOP = 'YES' "+
		"FROM INFORMATION_SCHEMA.VARIABLES_INFO ORDER BY VARIABLE_NAME")
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []varInfo
	for rows.Next() {
		var v varInfo
		if err := rows.Scan(&v.name, &v.scope, &v.dflt, &v.current, &v.min, &v.max, &v.possible, &v.noop); err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, rows.Err()
}

// plainName is what the probe sends unquoted after SET GLOBAL.
var plainName = regexp.MustCompile(`^[a-z_][a-z0-9_]*(\.[a-z_][a-z0-9_]*)?$`)

// probeVariable sends vi's candidate values and records what the server
// did with each it did not store as sent.
func probeVariable(ctx context.Context, plain, secure *sql.Conn, vi varInfo) (*upstream.ProbeVariable, error) {
	pv := &upstream.ProbeVariable{Name: vi.name, Scope: vi.scope, Default: &vi.dflt, Noop: vi.noop}
	lo, hi, numeric := bounds(vi)
	if numeric {
		pv.Min, pv.Max = lo.String(), hi.String()
	}
	if !plainName.MatchString(vi.name) {
		return nil, fmt.Errorf("unexpected variable name %q", vi.name)
	}
	orig, err := showGlobal(ctx, plain, vi.name)
	if err != nil {
		return nil, err
	}
	for _, val := range probeValues(vi, orig) {
		out, err := setAndRead(ctx, plain, vi.name, val)
		if err != nil {
			return nil, err
		}
		if strings.HasPrefix(out.Error, "1238:") {
			pv.ReadOnly, pv.Outcomes = true, nil
			break
		}
		if out.Error != "" {
			if sec, err := setAndRead(ctx, secure, vi.name, val); err == nil && sec.Error == "" {
				out.SecureOnly = true
				if err := restore(ctx, secure, vi.name, orig); err != nil {
					return nil, err
				}
			}
		} else if err := restore(ctx, plain, vi.name, orig); err != nil {
			return nil, err
		}
		if n, ok := new(big.Int).SetString(val, 10); ok && numeric && out.Error == "" && sameText(out.Stored, val) &&
			(n.Cmp(lo) < 0 || n.Cmp(hi) > 0) {
			pv.Beyond = append(pv.Beyond, val)
		}
		if out.Error != "" || out.Warning != "" || !sameText(out.Stored, val) {
			if out.Error != "" || sameText(out.Stored, val) {
				out.Stored = ""
			}
			pv.Outcomes = append(pv.Outcomes, out)
		}
	}
	return pv, nil
}

// probeValues are the values sent to a variable: its current value (a
// read-only variable refuses even that), both booleans, each of an
// enumeration's values, and a number's bounds, their outer neighbours, 0,
// -1 and the current value's neighbours, each once and in that order.
func probeValues(vi varInfo, cur string) []string {
	seen := map[string]bool{}
	var out []string
	add := func(v string) {
		if !seen[strings.ToUpper(v)] {
			seen[strings.ToUpper(v)] = true
			out = append(out, v)
		}
	}
	add(cur)
	switch {
	case vi.possible.Valid && vi.possible.String != "":
		for _, v := range strings.Split(vi.possible.String, ",") {
			add(strings.TrimSpace(v))
		}
	case strings.EqualFold(cur, "ON") || strings.EqualFold(cur, "OFF"):
		add("ON")
		add("OFF")
	case vi.min.Valid && vi.max.Valid:
		lo, hi, ok := bounds(vi)
		if !ok {
			break
		}
		one := big.NewInt(1)
		cands := []*big.Int{lo, hi, new(big.Int).Sub(lo, one), new(big.Int).Add(hi, one), big.NewInt(0), big.NewInt(-1)}
		if c, ok := new(big.Int).SetString(cur, 10); ok {
			cands = append(cands, new(big.Int).Add(c, one), new(big.Int).Sub(c, one))
		}
		minInt, maxUint := big.NewInt(-1<<63), new(big.Int).SetUint64(1<<64-1)
		for _, c := range cands {
			if c.Cmp(minInt) >= 0 && c.Cmp(maxUint) <= 0 {
				add(c.String())
			}
		}
	}
	return out
}

// bounds are a number's MIN_VALUE and MAX_VALUE.
func bounds(vi varInfo) (lo, hi *big.Int, ok bool) {
	if !vi.min.Valid || !vi.max.Valid {
		return nil, nil, false
	}
	lo, ok1 := new(big.Int).SetString(vi.min.String, 10)
	hi, ok2 := new(big.Int).SetString(vi.max.String, 10)
	return lo, hi, ok1 && ok2
}

// setAndRead sends SET GLOBAL name = val on c and reads what followed.
func setAndRead(ctx context.Context, c *sql.Conn, name, val string) (upstream.Outcome, error) {
	out := upstream.Outcome{Value: val}
	sctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	_, err := c.ExecContext(sctx, "SET GLOBAL "+name+" = "+probeLiteral(val))
	var me *mysql.MySQLError
	switch {
	case errors.As(err, &me):
		out.Error = fmt.Sprintf("%d: %s", me.Number, me.Message)
		return out, nil
	case err != nil:
		return out, err
	}
	w, err := warnings(ctx, c)
	if err != nil {
		return out, err
	}
	out.Warning = w
	out.Stored, err = showGlobal(ctx, c, name)
	return out, err
}

// restore sets name back to the value SHOW GLOBAL VARIABLES showed first.
func restore(ctx context.Context, c *sql.Conn, name, orig string) error {
	if _, err := c.ExecContext(ctx, "SET GLOBAL "+name+" = "+probeLiteral(orig)); err != nil {
		var me *mysql.MySQLError
		if errors.As(err, &me) {
			return nil // a value that cannot be set back (tidb_external_ts never decreases); the next probe reads it anew
		}
		return err
	}
	return nil
}

// probeLiteral is val as SQL: a decimal integer unquoted, anything else a
// single-quoted string.
func probeLiteral(val string) string {
	if _, err := strconv.ParseInt(val, 10, 64); err == nil {
		return val
	}
	if _, err := strconv.ParseUint(val, 10, 64); err == nil {
		return val
	}
	return "'" + strings.NewReplacer(`\`, `\\`, `'`, `''`).Replace(val) + "'"
}

func showGlobal(ctx context.Context, c *sql.Conn, name string) (string, error) {
	var n, v string
	err := c.QueryRowContext(ctx, "SHOW GLOBAL VARIABLES WHERE Variable_name = '"+name+"'").Scan(&n, &v)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	return v, err
}

func warnings(ctx context.Context, c *sql.Conn) (string, error) {
	rows, err := c.QueryContext(ctx, "SHOW WARNINGS")
	if err != nil {
		return "", err
	}
	defer rows.Close()
	var ws []string
	for rows.Next() {
		var level, msg string
		var code int
		if err := rows.Scan(&level, &code, &msg); err != nil {
			return "", err
		}
		ws = append(ws, fmt.Sprintf("%d: %s", code, msg))
	}
	sort.Strings(ws)
	return strings.Join(ws, "; "), rows.Err()
}

// sameText reports whether the server stored val as sent: the same text in
// any case, the same number, or the same boolean (1 and ON).
func sameText(stored, val string) bool {
	if strings.EqualFold(stored, val) {
		return true
	}
	a, ok1 := new(big.Float).SetString(stored)
	b, ok2 := new(big.Float).SetString(val)
	if ok1 && ok2 {
		return a.Cmp(b) == 0
	}
	boolOf := map[string]string{"1": "ON", "ON": "ON", "TRUE": "ON", "0": "OFF", "OFF": "OFF", "FALSE": "OFF"}
	x, ok1 := boolOf[strings.ToUpper(stored)]
	y, ok2 := boolOf[strings.ToUpper(val)]
	return ok1 && ok2 && x == y
}

// writeOrCheckProbe writes the probe to path, or with check compares it.
func writeOrCheckProbe(data []byte, path string, check bool, read func(string) ([]byte, error), write func(string, []byte) error) error {
	if !check {
		return write(path, data)
	}
	old, err := read(path)
	if err != nil {
		return err
	}
	if !bytes.Equal(old, data) {
		return fmt.Errorf("%s is not what the tidb-server generates (%s); run make catalog and review the diff", path, firstDifference(old, data))
	}
	return nil
}

package cmd

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"os/user"
	"path/filepath"
	"strings"
	"time"

	"github.com/go-sql-driver/mysql"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/tiform/tiform/applier"
	"github.com/tiform/tiform/diag"
	"github.com/tiform/tiform/live"
	"github.com/tiform/tiform/planner"
	"github.com/tiform/tiform/schema"
	"github.com/tiform/tiform/state"
)

// connFlags say how to reach and read a cluster; every command that connects
// (plan, apply, check, state pull) takes them.
type connFlags struct {
	dsn            string
	caFile         string
	tlsMode        string
	connectTimeout time.Duration
	timeout        time.Duration
}

// bind adds --dsn (described by dsnHelp), --ca-file, --tls, --connect-timeout
// and --timeout.
func (f *connFlags) bind(fl *pflag.FlagSet, dsnHelp string) {
	fl.StringVar(&f.dsn, "dsn", "", dsnHelp)
	fl.StringVar(&f.caFile, "ca-file", "", "PEM CA file to verify the server certificate (implies TLS)")
	fl.StringVar(&f.tlsMode, "tls", "", "TLS mode overriding the DSN: true, skip-verify, preferred or false")
	fl.DurationVar(&f.connectTimeout, "connect-timeout", live.DefaultConnectTimeout, "time allowed to connect to each cluster")
	fl.DurationVar(&f.timeout, "timeout", 2*time.Minute, "time allowed to read each cluster")
}

// flagDSN is --dsn, else $TIFORM_DSN.
func (f *connFlags) flagDSN() string {
	if f.dsn != "" {
		return f.dsn
	}
	return os.Getenv("TIFORM_DSN")
}

// open connects to dsn with the flags' TLS and timeout settings.
func (f *connFlags) open(ctx context.Context, dsn string) (*sql.DB, error) {
	return live.Open(ctx, dsn, live.ConnOptions{ConnectTimeout: f.connectTimeout, TLS: f.tlsMode, CAFile: f.caFile})
}

// inspect connects to dsn and reads req within --timeout. Errors never carry
// the password (live.Open and live.Inspect redact).
func (f *connFlags) inspect(ctx context.Context, dsn string, req live.Request) (*state.Live, error) {
	l, db, err := f.inspectOpen(ctx, dsn, req)
	if db != nil {
		db.Close()
	}
	return l, err
}

// inspectOpen is inspect leaving the connection pool open for a later read
// (nil when the connection failed); the caller closes it.
func (f *connFlags) inspectOpen(ctx context.Context, dsn string, req live.Request) (*state.Live, *sql.DB, error) {
	ctx, cancel := context.WithTimeout(ctx, f.timeout)
	defer cancel()
	db, err := f.open(ctx, dsn)
	if err != nil {
		return nil, nil, err
	}
	l, err := live.Inspect(ctx, db, req)
	return l, db, err
}

// allowEnvFlag is --allow-env NAME (repeatable, comma-separated) and
// $TIFORM_ALLOW_ENV: the environment variables env() may read anywhere in the
// configuration (schema.Options.AllowEnv). Only where tiform runs can widen it,
// never the configuration (docs/decisions/0006-what-a-configuration-may-read.md).
type allowEnvFlag struct{ names []string }

const allowEnvVar = "TIFORM_ALLOW_ENV"

func (a *allowEnvFlag) bind(fl *pflag.FlagSet) {
	fl.StringSliceVar(&a.names, "allow-env", nil, "let env() read environment variable NAME anywhere in the configuration (repeatable; also $"+allowEnvVar+"=NAME,…); a cluster's dsn = env(\"NAME\") needs no flag")
}

// list is the flag's names and $TIFORM_ALLOW_ENV's.
func (a *allowEnvFlag) list() []string {
	out := append([]string(nil), a.names...)
	for _, n := range strings.Split(os.Getenv(allowEnvVar), ",") {
		if n = strings.TrimSpace(n); n != "" {
			out = append(out, n)
		}
	}
	return out
}

// learnSecrets records every cluster's DSN and every sensitive value in
// env.Secrets, so that nothing printed afterwards can show them (a server
// error quoting a value, say).
func learnSecrets(env *Env, d *state.Desired) {
	if d == nil {
		return
	}
	for _, dc := range d.Clusters {
		env.Secrets.AddDSN(dc.DSN)
		for _, s := range dc.Config {
			if s.Value.Sensitive {
				env.Secrets.Add(s.Value.Text)
			}
		}
		for _, v := range dc.Variables {
			if v.Value.Sensitive {
				env.Secrets.Add(v.Value.Text)
			}
		}
	}
}

// fleetFlags say which configuration a command reads and which of its
// clusters (plan, apply, check, state pull): every command that reads a fleet
// selects and reads it the same way (loadFleet, readFleet).
type fleetFlags struct {
	allowEnv    allowEnvFlag
	chdir       string
	vars        []string
	varFiles    []string
	clusters    []string
	labels      []string
	parallelism int
}

func (f *fleetFlags) bind(fl *pflag.FlagSet) {
	fl.StringVar(&f.chdir, "chdir", ".", "configuration directory: every *.hcl file in it is read")
	fl.StringArrayVar(&f.vars, "var", nil, "set an input variable: NAME=VALUE (repeatable)")
	fl.StringArrayVar(&f.varFiles, "var-file", nil, "read input variables from an HCL file of NAME = VALUE lines (repeatable)")
	fl.StringSliceVar(&f.clusters, "cluster", nil, "only these clusters of a fleet (repeatable or comma-separated)")
	fl.StringArrayVar(&f.labels, "label", nil, "only the clusters whose labels include KEY=VALUE (repeatable: all must match)")
	fl.IntVar(&f.parallelism, "parallelism", DefaultParallelism, "how many clusters to read at once")
	f.allowEnv.bind(fl)
}

// hasConfig reports whether --chdir holds a configuration (*.hcl files).
func (f *fleetFlags) hasConfig() bool {
	hcl, _ := filepath.Glob(filepath.Join(f.chdir, "*.hcl"))
	return len(hcl) > 0
}

// configFlags are shared by plan and apply: where the configuration is, how to
// reach the clusters, and how to read them.
type configFlags struct {
	connFlags
	fleetFlags
	fromSnapshot string
	allowPartial bool
}

func (f *configFlags) bind(c *cobra.Command) {
	fl := c.Flags()
	f.fleetFlags.bind(fl)
	f.connFlags.bind(fl, "cluster DSN (go-sql-driver form) for a configuration without a cluster block, or overriding a single cluster's dsn; default $TIFORM_DSN")
	fl.StringVar(&f.fromSnapshot, "from-snapshot", "", "plan against a snapshot file (tiform state pull) instead of connecting")
	fl.BoolVar(&f.allowPartial, "allow-partial", false, "plan even when part of the cluster could not be read (an instance down); the plan lists what was not read")
}

// loadConfig loads the configuration and selects plan's and apply's clusters.
func loadConfig(env *Env, f *configFlags, noColor bool) (*state.Desired, error) {
	return loadFleet(env, &f.fleetFlags, &f.connFlags, noColor)
}

// loadFleet loads the configuration of --chdir, prints its diagnostics
// (warnings too) to stderr, and keeps the clusters --cluster and --label
// select, in declaration order. Only the selected clusters' secrets are
// resolved. A --dsn overrides the dsn of the one selected cluster; with
// several it is refused (it could only name one). Errors end the command with
// exit 1.
func loadFleet(env *Env, f *fleetFlags, conn *connFlags, noColor bool) (*state.Desired, error) {
	vars, err := parseVarFlags(f.vars)
	if err != nil {
		return nil, exitCode(ExitError, err)
	}
	names, err := f.selection(vars)
	if err != nil {
		return nil, exitCode(ExitError, err)
	}
	d, diags := schema.Load(f.chdir, schema.Options{Vars: vars, VarFiles: f.varFiles, DefaultDSN: conn.flagDSN(), Clusters: names, AllowEnv: f.allowEnv.list()})
	learnSecrets(env, d)
	if len(diags) > 0 {
		_ = diag.Write(env.Stderr, diags, useColor(env.Stderr, noColor))
	}
	if diags.HasErrors() {
		return nil, exitCode(ExitError, &configError{diags: diags,
			msg: fmt.Sprintf("the configuration in %s has %s; nothing was read or changed", f.chdir, plural(len(diags.Errors()), "error"))})
	}
	if len(d.Clusters) == 0 {
		return nil, exitCode(ExitError, fmt.Errorf("no cluster to read: %s declares nothing", f.chdir))
	}
	if len(names) > 0 {
		var keep []*state.DesiredCluster
		for _, want := range names {
			dc, err := findCluster(d, want, "--cluster")
			if err != nil {
				return nil, exitCode(ExitError, err)
			}
			keep = append(keep, dc)
		}
		d.Clusters = keep
	}
	if conn.dsn != "" {
		if len(d.Clusters) > 1 {
			return nil, exitCode(ExitError, fmt.Errorf("--dsn names one cluster, and %s are selected (%s): choose one with --cluster NAME, or give each cluster its dsn in its cluster block",
				plural(len(d.Clusters), "cluster"), strings.Join(clusterNames(d.Clusters), ", ")))
		}
		d.Clusters[0].DSN = conn.dsn
	}
	return d, nil
}

// clusterNames lists the names of cs.
func clusterNames(cs []*state.DesiredCluster) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = c.Name
	}
	return out
}

// selection returns the clusters --cluster and --label select (nil: all).
// Labels are read from the configuration first without any secret (env()
// values unknown), so that only the selected clusters' secrets are needed.
func (f *fleetFlags) selection(vars map[string]string) ([]string, error) {
	if len(f.labels) == 0 {
		return f.clusters, nil
	}
	want, err := parseLabels(f.labels)
	if err != nil {
		return nil, err
	}
	d, diags := schema.Load(f.chdir, schema.Options{Vars: vars, VarFiles: f.varFiles, Offline: true, AllowEnv: f.allowEnv.list()})
	if diags.HasErrors() || d == nil {
		return f.clusters, nil // the real load below reports the errors
	}
	return selectClusters(d, f.clusters, want)
}

// findCluster returns the cluster called name, or an error for the flag that
// named it listing the clusters the configuration declares.
func findCluster(d *state.Desired, name, flag string) (*state.DesiredCluster, error) {
	var names []string
	for _, c := range d.Clusters {
		if c.Name == name {
			return c, nil
		}
		names = append(names, c.Name)
	}
	msg := fmt.Sprintf("%s %s: no such cluster (the configuration declares: %s)", flag, name, strings.Join(names, ", "))
	if s := suggestCluster(d, name); s != "" {
		msg += "; " + s
	}
	return nil, errors.New(msg)
}

// readLiveOpen reads what dc declares of one cluster, from the snapshot or
// by connecting, leaving open the connection pool it read over (nil from a
// snapshot or when the connection failed), for a later read of the same
// cluster; the caller closes it.
func readLiveOpen(ctx context.Context, f *configFlags, dc *state.DesiredCluster) (*state.Live, *sql.DB, error) {
	return readRequest(ctx, f, dc, live.RequestFor(dc))
}

// planRequest is what a plan of dc with o reads: the cluster's whole surface
// where the plan reports unmanaged drift (planner.ReportsUnmanaged), else
// what dc declares.
func planRequest(dc *state.DesiredCluster, o planner.Options) live.Request {
	if planner.ReportsUnmanaged(dc, o) {
		return live.SurfaceRequest(dc)
	}
	return live.RequestFor(dc)
}

// readRequest is readLiveOpen reading req (a plan's, or more).
func readRequest(ctx context.Context, f *configFlags, dc *state.DesiredCluster, req live.Request) (*state.Live, *sql.DB, error) {
	if f.fromSnapshot != "" {
		// FromSnapshot refuses a snapshot of another cluster and re-checks its
		// completeness for this configuration's managed keys.
		l, err := live.FromSnapshot(f.fromSnapshot, dc.Name, req)
		return l, nil, err
	}
	if dc.DSN == "" {
		return nil, nil, fmt.Errorf("cluster %q has no DSN: set dsn = env(\"…\") in its cluster block, pass --dsn, or set TIFORM_DSN (go-sql-driver form, e.g. user:password@tcp(host:4000)/)", dc.Name)
	}
	l, db, err := f.inspectOpen(ctx, dc.DSN, req)
	if err != nil {
		return nil, db, fmt.Errorf("cluster %q: %w", dc.Name, err)
	}
	return l, db, nil
}

// makePlan loads, reads every selected cluster concurrently and plans each.
// A cluster that cannot be read or planned (an incomplete read without
// --allow-partial included) gets a Failure in the plan, and the other
// clusters are planned as usual: the caller renders all, then decides.
//
// drift and unmanaged are plan's --drift and --unmanaged: a cluster whose
// plan reports unmanaged drift (planner.ReportsUnmanaged) is read whole
// (live.SurfaceRequest).
func makePlan(ctx context.Context, env *Env, f *configFlags, noColor, drift, unmanaged bool) (*state.Desired, *planner.Plan, error) {
	d, err := loadConfig(env, f, noColor)
	if err != nil {
		return nil, nil, err
	}
	if f.fromSnapshot != "" && len(d.Clusters) != 1 {
		return nil, nil, exitCode(ExitError, fmt.Errorf("--from-snapshot plans one cluster, and the configuration declares %d: choose one with --cluster NAME", len(d.Clusters)))
	}
	o := planner.Options{Now: time.Now(), AllowPartial: f.allowPartial, Drift: drift, Unmanaged: unmanaged}
	read := func(ctx context.Context, dc *state.DesiredCluster) (*state.Live, *sql.DB, error) {
		return readRequest(ctx, f, dc, planRequest(dc, o))
	}
	// A cluster plan that changes a plan-cache variable or the In-Memory
	// Engine shows the cluster's figures: read them (only then).
	p := planFleet(ctx, d, f.parallelism, read, readEvidence(f), o)
	return d, p, nil
}

func incompleteMessage(inc *planner.IncompleteError) error {
	var b strings.Builder
	fmt.Fprintf(&b, "cluster %q could not be read completely, so tiform cannot say whether it matches the configuration:\n", inc.Cluster)
	for _, r := range inc.Reasons {
		fmt.Fprintf(&b, "  - %s\n", r)
	}
	b.WriteString("Fix what is listed (bring an instance back, grant a privilege it names, or drop declarations this cluster cannot show, such as component config on TiDB Cloud) and plan again, or pass --allow-partial to plan over what could be read.")
	return errors.New(b.String())
}

// operator identifies who applies, for the audit log: the OS user and the DB
// user of the DSN. Never the password.
func operator(dsn string) applier.Operator {
	op := applier.Operator{}
	if u, err := user.Current(); err == nil {
		op.OSUser = u.Username
	}
	if h, err := os.Hostname(); err == nil {
		op.Host = h
	}
	if cfg, err := mysql.ParseDSN(dsn); err == nil {
		op.DBUser = cfg.User
	}
	return op
}

// auditLogEnv names the audit log when --audit-log is not given.
const auditLogEnv = "TIFORM_AUDIT_LOG"

// auditLogPath is where apply appends its audit log: --audit-log, else
// $TIFORM_AUDIT_LOG, else tiform/audit.log in the user's state directory
// ($XDG_STATE_HOME, else ~/.local/state: the XDG Base Directory
// specification, https://specifications.freedesktop.org/basedir-spec/latest/).
// Never inside the configuration directory, where `git add -A` would commit
// it and a CI checkout would lose it.
func auditLogPath(flag string) (string, error) {
	if flag != "" {
		return flag, nil
	}
	if p := os.Getenv(auditLogEnv); p != "" {
		return p, nil
	}
	// The specification ignores a relative XDG_STATE_HOME.
	if st := os.Getenv("XDG_STATE_HOME"); filepath.IsAbs(st) {
		return filepath.Join(st, "tiform", "audit.log"), nil
	}
	home, err := os.UserHomeDir()
	if err != nil || home == "" {
		return "", fmt.Errorf("apply: no place for the audit log: there is no home directory; pass --audit-log FILE or set %s", auditLogEnv)
	}
	return filepath.Join(home, ".local", "state", "tiform", "audit.log"), nil
}

// rollbackPath is where a failed apply of cluster writes its rollback plan.
func rollbackPath(dir, cluster string, many bool) string {
	if many {
		return filepath.Join(dir, "rollback-"+cluster+".tfplan")
	}
	return filepath.Join(dir, applier.DefaultRollbackPath)
}

package main

import (
	"go/ast"
	"regexp"
	"sort"
	"strings"

	"github.com/tiform/tiform/internal/upstream"
)

// The keys a config endpoint prints that are not settings: where and as
// what an instance runs (identity) and paths on its host. They come from
// upstream in three ways:
//
//   - the keys the server sets from its command line, which a deployment
//     gives each instance (TiUP's run scripts: pingcap/tiup
//     embed/templates/scripts/run_tikv.sh.tpl, run_pd.sh.tpl): TiKV's
//     components/server/src/setup.rs overwrite_config_with_cmd_args, PD's
//     server/config/config.go flag bindings (fs.StringVar before v7.1,
//     configutil.AdjustCommandLineString after);
//   - PD keys whose default Adjust takes from a command-line field
//     (metric.job is the member's name: AdjustString(&c.Metric.PushJob,
//     c.Name)), and the keys PD's join logic sets for a member that joins an
//     existing cluster (server/join/join.go PrepareJoinCluster:
//     initial-cluster, initial-cluster-state "existing" after a scale-out);
//   - the naming convention for paths (upstream.PathKey) and placement labels.
//
// A flag that tunes rather than places an instance (log level, TiKV's
// --capacity) stays a setting, as does a boolean one-off (PD's
// --force-new-cluster).

// flagSettings are the command-line keys that are settings.
var flagSettings = map[string]bool{"log.level": true, "log-level": true, "raftstore.capacity": true}

// labelKeys are the placement labels of one instance (TiKV --labels, PD's
// member labels): set per host in a TiUP topology.
var labelKeys = map[string]bool{"server.labels": true, "labels": true}

// classify sets the class of every key of one version.
func classify(keys map[string]*keyFacts, flagKeys []string) {
	flag := map[string]bool{}
	for _, k := range flagKeys {
		flag[k] = true
	}
	for key, kf := range keys {
		switch {
		case upstream.PathKey(key) && kf.kind == upstream.KindString:
			kf.class = upstream.ClassPath
		case flag[key] && !flagSettings[key] && kf.kind != upstream.KindBool, labelKeys[key]:
			kf.class = upstream.ClassIdentity
		}
	}
}

// tikvAssignment matches `config.server.advertise_addr = …` in
// overwrite_config_with_cmd_args.
var tikvAssignment = regexp.MustCompile(`\bconfig\.([a-z_][a-z0-9_.]*)\s*=[^=]`)

// tikvFlagKeys lists the keys TiKV's command line sets, as its config JSON
// names them: Rust field paths in kebab case, raft_store being serde-renamed
// "raftstore" (src/config/mod.rs TikvConfig). Paths that name no key of the
// version are reported.
func tikvFlagKeys(s *rustSnapshot, keys map[string]*keyFacts) []string {
	const path = "components/server/src/setup.rs"
	src, err := s.r.show(s.tag, path)
	if err != nil {
		s.warn(s.tag + ": " + path + ": " + err.Error())
		return nil
	}
	body := functionBody(string(src), "fn overwrite_config_with_cmd_args")
	var out []string
	for _, m := range tikvAssignment.FindAllStringSubmatch(body, -1) {
		segs := strings.Split(m[1], ".")
		for i, sg := range segs {
			if sg == "raft_store" {
				sg = "raftstore"
			}
			segs[i] = strings.ReplaceAll(sg, "_", "-")
		}
		key := strings.Join(segs, ".")
		if _, ok := keys[key]; !ok {
			s.warn(s.tag + ": " + path + ": command-line field " + m[1] + " names no config key")
			continue
		}
		out = append(out, key)
	}
	return out
}

// functionBody returns the text of the function whose header starts with
// sig, up to its closing brace at the start of a line; "" when absent.
func functionBody(src, sig string) string {
	i := strings.Index(src, sig)
	if i < 0 {
		return ""
	}
	rest := src[i:]
	if j := strings.Index(rest, "\n}"); j >= 0 {
		return rest[:j]
	}
	return rest
}

// pdFlagField matches a flag bound to a Config field: fs.StringVar(&cfg.F,
// "flag", …) before v7.1, configutil.AdjustCommandLineString(flagSet, &c.F,
// "flag") after.
var pdFlagField = regexp.MustCompile(`&(?:c|cfg)\.([A-Z][A-Za-z.]*),\s*"[a-zA-Z-]+"`)

// pdFlagKeys lists the keys PD's command line sets, resolving each Go field
// path through the json tags of server/config.Config.
func pdFlagKeys(s *pdSnapshot, keys map[string]*keyFacts) []string {
	const path = "server/config/config.go"
	src, err := s.r.show(s.tag, path)
	if err != nil {
		s.warn(s.tag + ": " + path + ": " + err.Error())
		return nil
	}
	p, err := s.pkg("server/config/")
	if err != nil {
		s.warn(err.Error())
		return nil
	}
	seen := map[string]bool{}
	var out []string
	fields := map[string]bool{}
	for _, m := range pdFlagField.FindAllStringSubmatch(string(src), -1) {
		fields[m[1]] = true
	}
	// a field Adjust defaults to a flag field's value is the member's too
	// (configutil.AdjustString(&c.Metric.PushJob, c.Name))
	for _, m := range pdAdjustFrom.FindAllStringSubmatch(string(src), -1) {
		if fields[m[2]] {
			fields[m[1]] = true
		}
	}
	// a member that joins gets its membership from the cluster
	if join, err := s.r.show(s.tag, "server/join/join.go"); err == nil {
		for _, m := range pdJoinField.FindAllStringSubmatch(string(join), -1) {
			fields[m[1]] = true
		}
	}
	for _, f := range sortedKeys(fields) {
		key, ok := s.jsonKey(p, "Config", strings.Split(f, "."))
		if !ok {
			continue // not a config field (Version, ConfigCheck)
		}
		if _, known := keys[key]; !known && !strings.HasPrefix(key, "log.") {
			s.warn(s.tag + ": " + path + ": flag field " + f + " names no config key")
			continue
		}
		if !seen[key] {
			seen[key] = true
			out = append(out, key)
		}
	}
	sort.Strings(out)
	return out
}

// jsonKey resolves a Go field path of a struct type of p to the key its
// json tags give, following struct types into other packages of the
// repository. Keys under a type from outside the repository (log.Config of
// pingcap/log) are named by their flag's field in kebab case, as that
// package's json tags name them (log.file.filename).
func (s *pdSnapshot) jsonKey(p *goPkg, typeName string, path []string) (string, bool) {
	ts, ok := p.types[typeName]
	if !ok {
		return "", false
	}
	st, ok := ts.Type.(*ast.StructType)
	if !ok {
		return "", false
	}
	for _, fd := range st.Fields.List {
		if len(fd.Names) == 0 || fd.Names[0].Name != path[0] {
			continue
		}
		name, _ := jsonTag(fd)
		if name == "" || name == "-" {
			return "", false
		}
		name = strings.ToLower(name)
		if len(path) == 1 {
			return name, true
		}
		var rest string
		switch t := fd.Type.(type) {
		case *ast.Ident:
			r, ok := s.jsonKey(p, t.Name, path[1:])
			if !ok {
				return "", false
			}
			rest = r
		case *ast.SelectorExpr:
			alias, _ := t.X.(*ast.Ident)
			if alias == nil {
				return "", false
			}
			dir, _ := importDir(p.typeOf[typeName], alias.Name)
			if dir == "" {
				rest = strings.ToLower(strings.Join(path[1:], "."))
				break
			}
			q, err := s.pkg(dir)
			if err != nil {
				return "", false
			}
			r, ok := s.jsonKey(q, t.Sel.Name, path[1:])
			if !ok {
				return "", false
			}
			rest = r
		default:
			return "", false
		}
		return name + "." + rest, true
	}
	return "", false
}

// pdJoinField matches a Config field PD's join logic assigns:
// cfg.InitialClusterState = embed.ClusterStateFlagExisting.
var pdJoinField = regexp.MustCompile(`\bcfg\.([A-Z][A-Za-z.]*)\s*=[^=]`)

// pdAdjustFrom matches an Adjust default taken from another field:
// configutil.AdjustString(&c.Metric.PushJob, c.Name).
var pdAdjustFrom = regexp.MustCompile(`[aA]djust\w+\(&c\.([A-Z][A-Za-z.]*),\s*c\.([A-Z][A-Za-z.]*)\)`)

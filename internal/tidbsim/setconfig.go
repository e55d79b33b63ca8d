package tidbsim

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// SET CONFIG (https://docs.pingcap.com/tidb/stable/dynamic-config). Statement-level
// problems are errors; everything that goes wrong on an instance is a warning
// 1105 and the statement succeeds (pingcap/tidb@v8.5.1:pkg/executor/set_config.go: SetConfigExec.Next
// appends each doRequest error with StmtCtx.AppendWarning; the docs show one
// such case, https://docs.pingcap.com/tidb/stable/dynamic-config#modify-tikv-configuration-dynamically).

func init() {
	RegisterStatement("SET CONFIG", execSetConfig)
}

// jsonScalar is the JSON value TiDB sends (pingcap/tidb@v8.5.1:pkg/executor/set_config.go ConvertConfigItem2JSON).
type jsonScalar struct {
	kind string // "string", "number", "bool"
	text string // string: raw text; number: JSON number text; bool: true/false
}

// convertConfigValue is ConvertConfigItem2JSON: SQL value → JSON scalar.
func convertConfigValue(v Value) (jsonScalar, error) {
	switch v.Kind {
	case KindString:
		return jsonScalar{"string", v.S}, nil
	case KindInt:
		if v.Bool {
			return jsonScalar{"bool", strconv.FormatBool(v.I != 0)}, nil
		}
		return jsonScalar{"number", strconv.FormatInt(v.I, 10)}, nil
	case KindFloat:
		return jsonScalar{"number", fmt.Sprintf("%v", v.F)}, nil
	case KindDecimal:
		return jsonScalar{"number", v.S}, nil
	case KindNull:
		return jsonScalar{}, ErrGeneric("can't set config to null")
	case KindDefault:
		return jsonScalar{}, ErrGeneric("Unknown DEFAULT for SET CONFIG")
	}
	return jsonScalar{}, ErrGeneric("unsupported config value type")
}

// SET CONFIG <type> <name> = <value> | SET CONFIG '<host:port>' <name> = <value>
func execSetConfig(s *Session, p *Parser) (*Result, error) {
	var typ, instance string
	if p.Peek().Kind == TokString {
		instance, _ = p.StringLit()
	} else {
		t, err := p.Ident()
		if err != nil {
			return nil, err
		}
		typ = t
	}
	name, err := parseConfigName(p)
	if err != nil {
		return nil, err
	}
	if !p.AcceptOp("=") && !p.AcceptOp(":=") {
		return nil, p.Errorf()
	}
	e, err := p.Expr()
	if err != nil {
		return nil, err
	}
	if err := p.End(); err != nil {
		return nil, err
	}
	// Privilege CONFIG (checked when the plan is built, before values;
	// pingcap/tidb@v8.5.1:pkg/planner/core/planbuilder.go buildSetConfig).
	if !s.HasPrivilege("CONFIG") {
		return nil, ErrSpecificAccessDenied("CONFIG")
	}
	val, err := e.Eval(&EvalContext{Session: s})
	if err != nil {
		return nil, err
	}
	// SetConfigExec.Open: type, instance, name lower-cased.
	typ = strings.ToLower(typ)
	instance = strings.ToLower(instance)
	name = strings.ToLower(name)
	if typ != "" {
		switch typ {
		case TypeTiKV, TypePD, TypeTiFlash:
		case TypeTiDB:
			return nil, ErrGeneric("TiDB doesn't support to change configs online, please use SQL variables")
		case "tso", "scheduling":
			return nil, ErrGeneric("%s doesn't support to change configs online", typ)
		default:
			return nil, ErrGeneric("unknown type %s", typ)
		}
		if typ == TypeTiFlash && !strings.HasPrefix(name, "raftstore-proxy.") {
			return nil, ErrGeneric("This command can only change config items begin with 'raftstore-proxy'. For other TiFlash config items, please update the config file directly. Your change to the config file will take effect immediately without a restart.")
		}
	}
	if instance != "" && !validInstance(s.Cluster, instance) {
		return nil, ErrGeneric("invalid instance %s", instance)
	}
	body, err := convertConfigValue(val)
	if err != nil {
		return nil, err
	}
	c := s.Cluster
	var targets []*Instance
	for _, in := range c.Instances {
		if typ != "" && in.Type != typ {
			continue
		}
		if instance != "" && in.Address != instance {
			continue
		}
		targets = append(targets, in)
	}
	if instance != "" && len(targets) == 0 {
		return nil, ErrGeneric("instance %s is not found in this cluster", instance)
	}
	// With no instance of the type the statement succeeds silently (derived
	// from SetConfigExec.Next).
	for _, in := range targets {
		if in.Type == TypeTiDB {
			return nil, ErrGeneric("TiDB doesn't support to change configs online, please use SQL variables")
		}
	}
	for _, in := range targets {
		c.contact(in) // TiDB posts to each instance in turn (SetConfigExec.Next)
		s.stmtContacts++
		if msg := c.applyConfigChange(in, name, body); msg != "" {
			s.AppendWarning(1105, "%s", msg)
		}
	}
	return nil, nil
}

// parseConfigName accepts `back-quoted.name` or dotted identifiers (log.level).
func parseConfigName(p *Parser) (string, error) {
	var parts []string
	for {
		t := p.Peek()
		switch t.Kind {
		case TokQuoted, TokIdent:
			p.Next()
			parts = append(parts, t.Text)
		default:
			return "", p.Errorf()
		}
		if !p.AcceptOp(".") {
			return strings.Join(parts, "."), nil
		}
	}
}

// validInstance is TiDB's isValidInstance: host:port with a resolvable host
// (pingcap/tidb@v8.5.1:pkg/executor/set_config.go). The emulator resolves literal IPv4 addresses, "localhost" and the
// host names its own instances use.
func validInstance(c *Cluster, s string) bool {
	host, port := splitHostPort(s)
	if host == "" || port == "" {
		return false
	}
	if _, err := strconv.Atoi(port); err != nil {
		return false
	}
	if host == "localhost" {
		return true
	}
	for _, in := range c.Instances {
		if h, _ := splitHostPort(in.Address); strings.EqualFold(h, host) {
			return true
		}
	}
	for _, part := range strings.Split(host, ".") {
		n, err := strconv.Atoi(part)
		if err != nil || n < 0 || n > 255 {
			return false
		}
	}
	return strings.Count(host, ".") == 3
}

// applyConfigChange sends one change to one instance and returns the warning
// message TiDB would append, or "" on success (SetConfigExec.Next, doRequest).
func (c *Cluster) applyConfigChange(in *Instance, name string, v jsonScalar) string {
	c.Mu.Lock()
	defer c.Mu.Unlock()
	if c.fault.Down[in.Address] {
		return connectionRefused("Post", in)
	}
	url := configURL(in)
	switch in.Type {
	case TypeTiKV:
		if body := tikvUpdate(in, in.cfg, name, v); body != "" {
			return fmt.Sprintf("bad request to %s: %s", url, body)
		}
	case TypeTiFlash:
		// The raftstore-proxy. prefix is stripped and the rest sent to the
		// proxy's /config (SetConfigExec, TiFlash branch); the proxy is TiKV code.
		if body := tikvUpdate(in, in.cfg, name, v); body != "" {
			return fmt.Sprintf("bad request to %s: %s", url, body)
		}
	case TypePD:
		if c.fault.PDTTL[name] {
			b, _ := json.Marshal("need to clean up TTL first for " + name)
			return fmt.Sprintf("bad request to %s: %s\n", url, b)
		}
		if body := pdUpdate(in.cfg, name, v); body != "" {
			return fmt.Sprintf("bad request to %s: %s", url, body)
		}
	}
	return ""
}

// tikvUpdate applies a change the way TiKV's status server `update_config`
// does (tikv/tikv@v8.5.1:src/server/status_server/mod.rs
// StatusServer::update_config) and returns the HTTP 500 body on failure:
// "failed to update, error: <Debug of error>".
func tikvUpdate(in *Instance, ic *instanceConfig, name string, v jsonScalar) string {
	fail := func(msg string) string { return "failed to update, error: " + msg }
	quoted := func(msg string) string { return fail(strconv.Quote(msg)) }
	// decode_json: every scalar becomes a string (status_server/mod.rs).
	raw := v.text
	it, ok := ic.items[name]
	if !ok {
		return quoted("unexpect fields: " + unknownField(ic, name))
	}
	if it.kind >= dString {
		return quoted("unexpect fields: " + snakeLeaf(name))
	}
	if it.static {
		return quoted(fmt.Sprintf("config %s can not be changed", snakeLeaf(name)))
	}
	// to_change_value: surrounding quotes trimmed, then parsed by type.
	raw = strings.Trim(raw, `"`)
	stored, ok := tikvParse(it, raw)
	if !ok {
		return quoted("failed to parse: " + raw)
	}
	// update_impl validates the whole updated config
	// (tikv/tikv@v8.5.1:src/config/mod.rs ConfigController::update_impl).
	old := ic.vals[name]
	ic.vals[name] = stored
	if msg := validateTiKV(ic, in.Version); msg != "" {
		ic.vals[name] = old
		return fail(msg)
	}
	if ic.fileChanges != nil {
		// Written back into the config file (ConfigController::update_impl →
		// TomlWriter::write_change; https://docs.pingcap.com/tidb/stable/dynamic-config#modify-tikv-configuration-dynamically).
		ic.fileChanges[name] = renderValue(it, stored)
	}
	return ""
}

// tikvParse is `to_change_value`: Duration → ReadableDuration, Size →
// ReadableSize, integers → Rust parse, bool → only "true"/"false"
// (tikv/tikv@v8.5.1:src/config/mod.rs).
func tikvParse(it *configItem, raw string) (string, bool) {
	switch it.kind {
	case kSize:
		b, err := parseReadableSize(raw)
		if err != nil {
			return "", false
		}
		return formatReadableSize(b), true
	case kDuration:
		d, err := parseReadableDuration(raw)
		if err != nil {
			return "", false
		}
		return formatReadableDuration(d), true
	case kU64:
		u, err := strconv.ParseUint(strings.TrimPrefix(raw, "+"), 10, 64)
		if err != nil {
			return "", false
		}
		return strconv.FormatUint(u, 10), true
	case kI64:
		n, err := strconv.ParseInt(strings.TrimPrefix(raw, "+"), 10, 64)
		if err != nil {
			return "", false
		}
		return strconv.FormatInt(n, 10), true
	case kF64:
		if _, err := strconv.ParseFloat(raw, 64); err != nil {
			return "", false
		}
		return raw, true
	case kBool:
		if raw != "true" && raw != "false" {
			return "", false
		}
		return raw, true
	case kEnum:
		for _, e := range it.enum {
			if e == raw {
				return raw, true
			}
		}
		return "", false
	}
	return raw, true
}

// unknownField is the snake_case name of the first path segment TiKV does not
// know ("unexpect fields: snap_io_max_bytes_per_sec", corpus messages.tsv).
func unknownField(ic *instanceConfig, name string) string {
	parts := strings.Split(name, ".")
	for i := 1; i <= len(parts); i++ {
		prefix := strings.Join(parts[:i], ".")
		known := false
		for _, n := range ic.names {
			if n == prefix || strings.HasPrefix(n, prefix+".") {
				known = true
				break
			}
		}
		if !known {
			return strings.ReplaceAll(parts[i-1], "-", "_")
		}
	}
	return snakeLeaf(name)
}

func snakeLeaf(name string) string {
	parts := strings.Split(name, ".")
	return strings.ReplaceAll(parts[len(parts)-1], "-", "_")
}

// pdSections are the prefixes PD's updateConfig accepts
// (tikv/pd@v8.5.1:server/api/config.go confHandler.updateConfig).
var pdSections = map[string]string{
	"schedule": "ScheduleConfig", "replication": "ReplicationConfig", "replication-mode": "ReplicationModeConfig",
	"pd-server": "PDServerConfig", "log": "Config", "keyspace": "KeyspaceConfig", "micro-service": "MicroServiceConfig",
}

// pdUpdate merges a change into PD's config the way PD's config handler does
// (JSON merged into Go structs, tikv/pd@v8.5.1:server/api/config.go,
// pkg/utils/jsonutil/jsonutil.go) and returns the HTTP 400 body on
// failure: PD renders the error message as a JSON string followed by a
// newline (corpus messages.tsv gh-tidb-23452).
func pdUpdate(ic *instanceConfig, name string, v jsonScalar) string {
	body := func(msg string) string {
		b, _ := json.Marshal(msg)
		return string(b) + "\n"
	}
	parts := strings.Split(name, ".")
	section, ok := pdSections[parts[0]]
	if !ok && name != "cluster-version" {
		return body(fmt.Sprintf("config prefix %s not found", parts[0]))
	}
	it, ok := ic.items[name]
	if !ok || it.static && name != "cluster-version" {
		// a key the update API does not accept (a nested key of an
		// AddKeyValue section): tikv/pd server/api/config.go updateConfig
		return body(fmt.Sprintf("config item %s not found", parts[len(parts)-1]))
	}
	// corpus messages.tsv gh-tidb-23452.
	if name == "replication.location-labels" && ic.vals["replication.enable-placement-rules"] == "true" {
		return body("cannot update LocationLabels when placement rules feature is enabled, please update rule instead")
	}
	field := section + "." + parts[len(parts)-1]
	stored, errMsg := pdDecode(it, field, v)
	if errMsg != "" {
		return body(errMsg)
	}
	ic.vals[name] = stored
	return ""
}

// pdDecode is encoding/json's behaviour for one field (derived from
// tikv/pd@v8.5.1:pkg/utils/jsonutil/jsonutil.go and Go's encoding/json;
// untested against a real PD):
// integers need an unquoted number, `,string` booleans a quoted
// "true"/"false", durations a string for time.ParseDuration.
func pdDecode(it *configItem, field string, v jsonScalar) (string, string) {
	cannot := func(goType string) string {
		what := v.kind
		if v.kind == "number" {
			what = "number " + v.text
		}
		return fmt.Sprintf("json: cannot unmarshal %s into Go struct field %s of type %s", what, field, goType)
	}
	switch it.kind {
	case pInt:
		if v.kind != "number" {
			return "", cannot("uint64")
		}
		n, err := strconv.ParseUint(v.text, 10, 64)
		if err != nil {
			return "", cannot("uint64")
		}
		return strconv.FormatUint(n, 10), ""
	case pFloat:
		if v.kind != "number" {
			return "", cannot("float64")
		}
		return v.text, ""
	case pBoolString:
		if v.kind != "string" {
			return "", "json: invalid use of ,string struct tag, trying to unmarshal unquoted value into bool"
		}
		if v.text != "true" && v.text != "false" {
			return "", fmt.Sprintf("json: invalid use of ,string struct tag, trying to unmarshal %q into bool", v.text)
		}
		return v.text, ""
	case pBool:
		if v.kind != "bool" {
			return "", cannot("bool")
		}
		return v.text, ""
	case pDuration:
		if v.kind != "string" {
			return "", "invalid syntax"
		}
		d, err := time.ParseDuration(v.text)
		if err != nil {
			return "", err.Error()
		}
		return formatPDDuration(d), ""
	case pString:
		if v.kind != "string" {
			return "", cannot("string")
		}
		return v.text, ""
	}
	return "", cannot("string")
}

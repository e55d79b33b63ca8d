package tidbsim

// SQL surface of the resource-group domain (issue 2 point 6,
// https://docs.pingcap.com/tidb/stable/tidb-resource-control-ru-groups):
//
//	CREATE RESOURCE GROUP [IF NOT EXISTS] name options
//	ALTER RESOURCE GROUP [IF EXISTS] name options
//	DROP RESOURCE GROUP [IF EXISTS] name
//	SHOW CREATE RESOURCE GROUP name
//	SET RESOURCE GROUP name                  (https://docs.pingcap.com/tidb/stable/sql-statement-set-resource-group)
//	SELECT CURRENT_RESOURCE_GROUP()          (https://docs.pingcap.com/tidb/stable/tidb-functions)
//	INFORMATION_SCHEMA.RESOURCE_GROUPS       (https://docs.pingcap.com/tidb/stable/information-schema-resource-groups)
//
// Order of checks, as in TiDB: syntax (1064), privilege (planner visitInfo:
// 1227 "SUPER or RESOURCE_GROUP_ADMIN", https://docs.pingcap.com/tidb/stable/tidb-resource-control-ru-groups), resource control switch (8250,
// executor), then the DDL's own checks.

type resourceGroupsKey struct{}
type sessionGroupKey struct{}

func clusterGroups(c *Cluster) *ResourceGroups {
	c.Mu.Lock()
	defer c.Mu.Unlock()
	return c.Ext(resourceGroupsKey{}).(*ResourceGroups)
}

// resourceControlEnabled reads tidb_enable_resource_control (GLOBAL).
func resourceControlEnabled(s *Session) bool {
	v, err := clusterVars(s.Cluster).GlobalValue(varTarget(s), "tidb_enable_resource_control")
	return err == nil && v == "ON"
}

func rgEnv(s *Session) RGEnv {
	return RGEnv{
		Version:   s.Instance.Version,
		Enabled:   resourceControlEnabled(s),
		BoundUser: clusterUsers(s.Cluster).BoundUser,
	}
}

func checkRGAdmin(s *Session) error {
	if !s.HasPrivilege("SUPER", "RESOURCE_GROUP_ADMIN") {
		return ErrSpecificAccessDenied("SUPER", "RESOURCE_GROUP_ADMIN")
	}
	return nil
}

func execRGDDL(kind RGStatementKind) StatementHandler {
	return func(s *Session, p *Parser) (*Result, error) {
		st, err := ParseRGStatement(p, kind, s.Instance.Version)
		if err != nil {
			return nil, err
		}
		if err := checkRGAdmin(s); err != nil {
			return nil, err
		}
		groups := clusterGroups(s.Cluster)
		var notes []Warning
		switch kind {
		case RGCreate:
			notes, err = groups.Create(rgEnv(s), st)
		case RGAlter:
			notes, err = groups.Alter(rgEnv(s), st)
		default:
			notes, err = groups.Drop(rgEnv(s), st)
		}
		if err != nil {
			return nil, err
		}
		appendWarnings(s, notes)
		return nil, nil
	}
}

// appendWarnings copies domain warnings/notes into the statement diagnostics.
func appendWarnings(s *Session, ws []Warning) {
	for _, w := range ws {
		if w.Level == "Note" {
			s.AppendNote(w.Code, "%s", w.Message)
		} else {
			s.AppendWarning(w.Code, "%s", w.Message)
		}
	}
}

// sessionGroup is the session's resource group: SET RESOURCE GROUP, else the
// group bound to the user when the session started (bindings affect new
// sessions only, https://docs.pingcap.com/tidb/stable/sql-statement-alter-user), else `default`.
func sessionGroup(s *Session) string {
	if g, ok := s.Ext(sessionGroupKey{}).(string); ok {
		return g
	}
	return DefaultResourceGroup
}

func init() {
	RegisterClusterInit(func(c *Cluster) { c.SetExt(resourceGroupsKey{}, NewResourceGroups()) })
	RegisterSessionInit(func(s *Session) {
		g := DefaultResourceGroup
		if a, ok := clusterUsers(s.Cluster).Match(s.User, s.Host); ok {
			if rg := a.ResourceGroup(); rg != "" && clusterGroups(s.Cluster).Exists(rg) {
				g = rg
			}
		}
		s.SetExt(sessionGroupKey{}, g)
	})
	RegisterStatement("CREATE RESOURCE GROUP", execRGDDL(RGCreate))
	RegisterStatement("ALTER RESOURCE GROUP", execRGDDL(RGAlter))
	RegisterStatement("DROP RESOURCE GROUP", execRGDDL(RGDrop))
	RegisterStatement("SHOW CREATE RESOURCE GROUP", func(s *Session, p *Parser) (*Result, error) {
		name, written, err := parseRGName(p)
		if err != nil {
			return nil, err
		}
		if err := p.End(); err != nil {
			return nil, err
		}
		g, ok := clusterGroups(s.Cluster).Get(name)
		if !ok {
			// raised while the SHOW executor runs: not in SHOW WARNINGS
			// (executionError)
			return nil, executionError{errRGNotExists(written)}
		}
		// Columns per corpus show_create_resource_group.txt; the first is
		// the name as the statement wrote it
		// (pingcap/tidb@e4e814fdc0af:pkg/executor/show.go
		// fetchShowCreateResourceGroup: ResourceGroupName.O).
		return &Result{
			Columns: []Column{{Name: "Resource_Group"}, {Name: "Create Resource Group"}},
			Rows:    [][]Value{{Str(written), Str(g.ShowCreate())}},
		}, nil
	})
	RegisterStatement("SET RESOURCE GROUP", func(s *Session, p *Parser) (*Result, error) {
		name, _, err := parseRGName(p)
		if err != nil {
			return nil, err
		}
		if err := p.End(); err != nil {
			return nil, err
		}
		// With tidb_resource_control_strict_mode ON (v8.2.0+,
		// https://docs.pingcap.com/tidb/stable/system-variables#tidb_resource_control_strict_mode-new-in-v820) SET
		// RESOURCE GROUP needs SUPER, RESOURCE_GROUP_ADMIN or
		// RESOURCE_GROUP_USER.
		if strict, err := clusterVars(s.Cluster).GlobalValue(varTarget(s), "tidb_resource_control_strict_mode"); err == nil && strict == "ON" {
			if !s.HasPrivilege("SUPER", "RESOURCE_GROUP_ADMIN", "RESOURCE_GROUP_USER") {
				return nil, ErrSpecificAccessDenied("SUPER", "RESOURCE_GROUP_ADMIN", "RESOURCE_GROUP_USER")
			}
		}
		if !clusterGroups(s.Cluster).Exists(name) {
			return nil, errRGNotExists(name)
		}
		if !resourceControlEnabled(s) {
			// SET RESOURCE GROUP gives warning 8250 when the feature is off
			// (https://docs.pingcap.com/tidb/stable/error-codes, 8250).
			s.AppendWarning(8250, "%s", ErrResourceControlDisabled().Message)
		}
		s.SetExt(sessionGroupKey{}, name)
		return nil, nil
	})
	RegisterFunction("CURRENT_RESOURCE_GROUP", func(s *Session, args []Value) (Value, error) {
		if len(args) != 0 {
			return Null, ErrWrongArgCount("current_resource_group")
		}
		return Str(sessionGroup(s)), nil
	})
	// NAME is NOT NULL (pingcap/tidb@e4e814fdc0af:pkg/infoschema/tables.go
	// tableResourceGroupsCols).
	cols := RGColumns()
	tcols := make([]Column, len(cols))
	for i, c := range cols {
		tcols[i] = Column{Name: c, NotNull: c == "NAME"}
	}
	RegisterTable(&Table{
		Schema: "information_schema", Name: "resource_groups", Columns: tcols,
		Rows: func(s *Session, _ *Filter) ([][]Value, error) {
			var rows [][]Value
			for _, g := range clusterGroups(s.Cluster).List() {
				rows = append(rows, g.InfoSchemaRow(s.Instance.Version))
			}
			return rows, nil
		},
	})
}

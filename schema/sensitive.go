package schema

import (
	"reflect"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/tiform/tiform/diag"
	"github.com/tiform/tiform/secret"
	"github.com/tiform/tiform/state"
)

// Sensitive values. An input variable marked sensitive carries a cty mark;
// cty and HCL propagate it through every expression, function and local that
// uses the value. eval strips the mark and records the expression's range;
// toValue then marks the setting built from that range (state.Value.Sensitive),
// which every view, plan file and log shows as "(sensitive)". A sensitive value
// used anywhere tiform cannot hide it (a resource group, a user, a label, an
// acknowledgement, a policy) is an error (checkSensitiveUses).

// sensitiveMark is the cty mark of a value derived from a sensitive variable.
type sensitiveMarkType struct{}

var sensitiveMark = sensitiveMarkType{}

// markSensitive marks the value of every variable declared sensitive.
func (l *loader) markSensitive() {
	for name, v := range l.vars {
		if val, ok := l.varVals[name]; ok && v.sensitive {
			l.varVals[name] = val.Mark(sensitiveMark)
		}
	}
}

// unmark strips v's marks, recording rng as a sensitive use when v carried
// the sensitive mark anywhere.
func (l *loader) unmark(v cty.Value, rng hcl.Range) cty.Value {
	if !v.ContainsMarked() {
		return v
	}
	u, marks := v.UnmarkDeep()
	if _, ok := marks[sensitiveMark]; ok {
		l.sensitiveUses = append(l.sensitiveUses, rng)
	}
	return u
}

// sensitiveWithin reports whether a sensitive use lies inside rng.
func (l *loader) sensitiveWithin(rng hcl.Range) bool {
	for _, r := range l.sensitiveUses {
		if within(r, rng) {
			return true
		}
	}
	return false
}

// allowSensitive records rng as a place where a sensitive value is hidden.
func (l *loader) allowSensitive(rng hcl.Range) {
	l.sensitiveOK = append(l.sensitiveOK, rng)
}

// within reports whether inner lies inside outer (same file).
func within(inner, outer hcl.Range) bool {
	return inner.Filename == outer.Filename && inner.Start.Byte >= outer.Start.Byte && inner.End.Byte <= outer.End.Byte
}

// checkSensitiveUses reports every sensitive value used outside a setting's
// value or a dsn.
func (l *loader) checkSensitiveUses() {
	seen := map[hcl.Range]bool{}
	for _, r := range l.sensitiveUses {
		ok := false
		for _, allowed := range l.sensitiveOK {
			if within(r, allowed) {
				ok = true
				break
			}
		}
		if ok || seen[r] {
			continue
		}
		seen[r] = true
		l.b.errorf(r, "a sensitive value is used where tiform cannot hide it",
			"A value that comes from a variable marked sensitive may be a setting's value (plans, plan files and logs then show \"(sensitive)\") or part of a dsn; "+
				"resource group names and options, users, labels, acknowledgements and policies are shown as they are.",
			"use a variable that is not marked sensitive here, or move the value to a setting")
	}
}

// checkNoDSNPassword refuses every declared value, name or label of the
// resolved clusters that contains the password of a DSN in use (any cluster's,
// or the default DSN): tiform would otherwise send it to the cluster as a
// setting and show it in the plan, the plan file and the audit log. The
// diagnostic points at the declaration and never shows the value.
func (l *loader) checkNoDSNPassword(clusters []*state.DesiredCluster) {
	var pws []string
	for _, dsn := range append(append([]string(nil), l.dsns...), l.opts.DefaultDSN) {
		for _, pw := range secret.DSNSecrets(dsn) {
			if len(pw) >= secret.MinLen {
				pws = append(pws, pw)
			}
		}
	}
	if len(pws) == 0 {
		return
	}
	reported := map[diag.SourceRange]bool{}
	for _, dc := range clusters {
		walkStrings(reflect.ValueOf(dc).Elem(), dc.Range, func(s string, at diag.SourceRange) {
			for _, pw := range pws {
				if strings.Contains(s, pw) && !reported[at] {
					reported[at] = true
					l.b.add(diag.Diagnostic{Severity: diag.Error, Range: at,
						Summary: "this value contains the password of a DSN in use",
						Detail: "tiform never sends a DSN's password to a cluster or shows it: it would be in the plan (a pull-request comment), " +
							"the plan file, the audit log and the statement sent. The value is not shown.",
						Hint: "remove the reference to the DSN or its password from this value"})
				}
			}
		})
	}
}

// walkStrings calls f with every string held by v (structs, slices, maps,
// pointers), except a field named DSN, and the source range of the nearest
// enclosing struct that has a Range field (else at).
func walkStrings(v reflect.Value, at diag.SourceRange, f func(string, diag.SourceRange)) {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			walkStrings(v.Elem(), at, f)
		}
	case reflect.String:
		f(v.String(), at)
	case reflect.Slice, reflect.Array:
		for i := 0; i < v.Len(); i++ {
			walkStrings(v.Index(i), at, f)
		}
	case reflect.Map:
		for _, k := range v.MapKeys() {
			walkStrings(k, at, f)
			walkStrings(v.MapIndex(k), at, f)
		}
	case reflect.Struct:
		if _, ok := v.Interface().(diag.SourceRange); ok {
			return // a range's file name is not a value
		}
		if rf := v.FieldByName("Range"); rf.IsValid() {
			if r, ok := rf.Interface().(diag.SourceRange); ok && !r.IsZero() {
				at = r
			}
		}
		t := v.Type()
		for i := 0; i < v.NumField(); i++ {
			if !t.Field(i).IsExported() || t.Field(i).Name == "DSN" {
				continue
			}
			walkStrings(v.Field(i), at, f)
		}
	}
}

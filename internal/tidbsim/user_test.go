package tidbsim

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestJSONExtractAndUnquote(t *testing.T) {
	doc := Str(`{"resource_group": "rg1", "n": 5, "nested": {"a": [1, "two", null]}, "sp ace": true}`)
	tests := []struct {
		path    Value
		want    Value
		unquote Value
		errCode uint16
	}{
		{path: Str("$.resource_group"), want: Str(`"rg1"`), unquote: Str("rg1")},
		{path: Str("$.n"), want: Str("5"), unquote: Str("5")},
		{path: Str("$.nested.a[1]"), want: Str(`"two"`), unquote: Str("two")},
		{path: Str("$.nested.a[2]"), want: Str("null"), unquote: Str("null")},
		{path: Str("$.nested"), want: Str(`{"a": [1, "two", null]}`), unquote: Str(`{"a": [1, "two", null]}`)},
		{path: Str(`$."sp ace"`), want: Str("true"), unquote: Str("true")},
		{path: Str("$.missing"), want: Null, unquote: Null},
		{path: Str("$.nested.a[9]"), want: Null, unquote: Null},
		{path: Null, want: Null, unquote: Null},
		{path: Str("resource_group"), errCode: 3143},
		{path: Str("$..x"), errCode: 3143},
	}
	for _, tt := range tests {
		got, err := JSONExtract(doc, tt.path)
		if tt.errCode != 0 {
			if sqlCode(err) != tt.errCode {
				t.Errorf("JSON_EXTRACT(%v) err = %v, want %d", tt.path, err, tt.errCode)
			}
			continue
		}
		if err != nil {
			t.Fatalf("JSON_EXTRACT(%v): %v", tt.path, err)
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("JSON_EXTRACT(%v) (-want +got):\n%s", tt.path, diff)
		}
		uq, err := JSONUnquote(got)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(tt.unquote, uq); diff != "" {
			t.Errorf("JSON_UNQUOTE(JSON_EXTRACT(%v)) (-want +got):\n%s", tt.path, diff)
		}
	}
	if got, _ := JSONExtract(Null, Str("$.a")); !got.IsNull() {
		t.Errorf("NULL document must give NULL")
	}
	if _, err := JSONExtract(Str("{bad"), Str("$.a")); sqlCode(err) != 3140 {
		t.Errorf("invalid JSON: %v", err)
	}
}

func TestUsersPrivileges(t *testing.T) {
	us := NewUsers()
	root, ok := us.Match("root", "10.1.2.3")
	if !ok || !root.HasPrivilege("CONFIG") || !root.HasPrivilege("RESOURCE_GROUP_ADMIN") {
		t.Fatalf("root must hold every privilege: %+v", root)
	}
	if _, err := us.CreateUser(UserSpec{User: "ops", Host: "%"}, false, "", nil); err != nil {
		t.Fatal(err)
	}
	if err := us.Grant([]string{"SUPER"}, PrivLevel{"*", "*"}, []UserSpec{{User: "ops", Host: "%"}}, false); err != nil {
		t.Fatal(err)
	}
	ops, _ := us.Match("ops", "127.0.0.1")
	// SUPER stands in for dynamic privileges, not for the static CONFIG.
	for _, tc := range []struct {
		privs []string
		want  bool
	}{
		{[]string{"SUPER"}, true},
		{[]string{"RESOURCE_GROUP_ADMIN"}, true},
		{[]string{"SYSTEM_VARIABLES_ADMIN"}, true},
		{[]string{"CONFIG"}, false},
		{[]string{"CREATE USER"}, false},
		{[]string{"CONFIG", "SUPER"}, true},
	} {
		if got := ops.HasPrivilege(tc.privs...); got != tc.want {
			t.Errorf("HasPrivilege(%v) = %v, want %v", tc.privs, got, tc.want)
		}
	}
	// ALL grants every static privilege, CONFIG included.
	if _, err := us.CreateUser(UserSpec{User: "dba", Host: "10.0.0.1"}, false, "", nil); err != nil {
		t.Fatal(err)
	}
	if err := us.Grant([]string{"ALL PRIVILEGES"}, PrivLevel{"*", "*"}, []UserSpec{{User: "dba", Host: "10.0.0.1"}}, false); err != nil {
		t.Fatal(err)
	}
	if dba, ok := us.Match("dba", "10.0.0.1"); !ok || !dba.HasPrivilege("CONFIG") {
		t.Errorf("dba@10.0.0.1 = %+v, %v", dba, ok)
	}
	if _, ok := us.Match("dba", "10.0.0.2"); ok {
		t.Errorf("dba@10.0.0.1 must not match another host")
	}
	// DROP USER of a list fails as a whole when one is missing.
	if _, err := us.DropUser([]UserSpec{{User: "ops", Host: "%"}, {User: "ghost", Host: "%"}}, false); sqlCode(err) != 1396 {
		t.Fatalf("err = %v", err)
	}
	if _, ok := us.Get("ops", "%"); !ok {
		t.Errorf("ops must survive a failed DROP USER")
	}
	// Bound users, first by creation order.
	g1, g2 := "rg1", "RG1"
	us.CreateUser(UserSpec{User: "a", Host: "%"}, false, "", &g1)
	us.CreateUser(UserSpec{User: "b", Host: "%"}, false, "", &g2)
	if u, ok := us.BoundUser("rg1"); !ok || u != "a" {
		t.Errorf("BoundUser = %q, %v", u, ok)
	}
	b, _ := us.Get("b", "%")
	if js, _ := b.AttributesJSON(); js != `{"resource_group": "rg1"}` {
		t.Errorf("group names are stored lower-case: %s", js)
	}
}

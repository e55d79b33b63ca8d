package main

import (
	"testing"

	"github.com/tiform/tiform/internal/upstream"
)

// The docs' description decides a variable's class: a string said to be a
// password, a key or a credential, or an external-storage URI; a policy
// about passwords is not one.
func TestSecretVariables(t *testing.T) {
	src := "## 变量参考\n\n" +
		"### `authentication_ldap_simple_bind_root_pwd` <span class=\"version-mark\">从 v7.1.0 版本开始引入</span>\n\n" +
		"- 作用域：GLOBAL\n- 类型：字符串\n- 默认值：\"\"\n- LDAP simple 身份验证中，TiDB 登录 LDAP Server 搜索用户时使用的密码。\n\n" +
		"### `tidb_cloud_storage_uri`\n\n- 作用域：GLOBAL\n- 默认值：`\"\"`\n" +
		"- 该变量用来指定全局排序中使用的 Amazon S3 云存储的 URI。更多详情，参考 [Amazon S3 的 URI 格式](/external-storage-uri.md#amazon-s3-uri-格式)。\n\n" +
		"### `password_history`\n\n- 作用域：GLOBAL\n- 类型：整数型\n- 该变量用于建立密码重用策略，使 TiDB 基于密码更改次数限制密码的重复使用。\n"
	got := secretVariables(src, "release-8.5")
	if s := got["authentication_ldap_simple_bind_root_pwd"]; s == nil || s.Reason != "the docs say its value is a password" || s.Source.Line != 8 {
		t.Errorf("LDAP password: %+v", s)
	}
	if s := got["tidb_cloud_storage_uri"]; s == nil || s.Source.Line != 14 {
		t.Errorf("cloud storage URI: %+v", s)
	}
	if s := got["password_history"]; s != nil {
		t.Errorf("a password policy is not a credential: %+v", s)
	}
}

// markSecrets marks string settings by name or description, never another
// kind.
func TestMarkSecretsByKind(t *testing.T) {
	span := func(kind string) []*upstream.Span { return []*upstream.Span{{Kind: kind}} }
	tbl := &upstream.Table{Settings: []*upstream.Setting{
		{Component: upstream.TiKV, Key: "security.encryption.master-key", Spans: span(upstream.KindString)},
		{Component: upstream.TiKV, Key: "gc.batch-keys", Spans: span(upstream.KindInt)},
		{Component: upstream.SysVar, Key: "validate_password", Spans: span(upstream.KindInt)},
	}}
	for _, s := range tbl.Settings {
		if reason, ok := nameSecret(s); ok {
			s.Secret = &upstream.Secret{Reason: reason}
		}
	}
	if tbl.Settings[0].Secret == nil || tbl.Settings[1].Secret != nil || tbl.Settings[2].Secret != nil {
		t.Errorf("marked: %+v %+v %+v", tbl.Settings[0].Secret, tbl.Settings[1].Secret, tbl.Settings[2].Secret)
	}
}

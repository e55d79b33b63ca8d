package schema

import (
	"fmt"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/tiform/tiform/catalog"
	"github.com/tiform/tiform/state"
)

// checkSecretValue refuses a credential written as text in the
// configuration: a setting of the secret class (catalog Setting.Secret: the
// LDAP bind passwords, tidb_cloud_storage_uri, TiKV's encryption master key)
// takes its value from an input variable marked sensitive, so that it is
// never committed with the files nor shown in a plan. An empty value (unset
// it) is fine. The value is masked in every snippet (as a DSN's password
// is), so the diagnostic does not repeat it.
func (l *loader) checkSecretValue(set catalog.Setting, what string, val state.Value, rng hcl.Range) {
	why := set.Secret()
	if why == "" || val.Sensitive || strings.TrimSpace(val.Text) == "" {
		return
	}
	l.secrets = append(l.secrets, val.Text)
	l.b.errorf(rng, fmt.Sprintf("%s holds a credential: its value may not be written in the configuration", what),
		fmt.Sprintf("%s is a secret-bearing setting (%s): a value written here would be committed with the files and shown in every plan.", what, why),
		`declare variable "NAME" { sensitive = true } and write `+what[strings.LastIndexByte(what, ' ')+1:]+` = var.NAME; give the value with TIFORM_VAR_NAME or --var-file where tiform runs`)
}

package importer

import (
	"fmt"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclwrite"
	"github.com/zclconf/go-cty/cty"

	"github.com/tiform/tiform/catalog"
)

// Credentials are never imported. A setting of the secret class
// (catalog.Setting.Secret) that is set on the cluster is declared from an
// input variable marked sensitive — `x = var.x`, with `variable "x" {
// sensitive = true }` in the same file and a comment saying where its value
// comes from — never with its value: live reads only its concealed form,
// and no file import writes may hold even that.

// secretValue is the imported form of text, a value of set read from the
// cluster, when set holds a credential: a reference to the sensitive
// variable varName (ok false when set holds none). A credential that is not
// set ("") is at its default and not imported.
func secretValue(set catalog.Setting, varName, holds, text string) (v value, secret, isSet bool) {
	if set.Secret() == "" {
		return value{}, false, false
	}
	if strings.TrimSpace(text) == "" {
		return value{}, true, false
	}
	// canon: the concealed form, equal across clusters only for one same
	// credential, which the baseline may then declare once.
	return value{lit: cty.StringVal(""), canon: set.Conceal(text), ref: varName, holds: holds, bare: true}, true, true
}

// secretNote is the report's note for a credential declared from a
// variable.
func secretNote(holds string) string {
	return holds + " holds a credential: it is declared from a sensitive input variable (see the file), never imported; give its value where tiform runs (TIFORM_VAR_<name>) before planning"
}

// secretVarName is the input variable a credential is declared from: the
// variable's name, or the config key's address with '.' and '-' as '_'.
func secretVarName(component, key string) string {
	n := key
	if component != "" {
		n = component + "_" + key
	}
	return strings.NewReplacer(".", "_", "-", "_").Replace(strings.ToLower(n))
}

// declareSecrets writes, at the top of body, the sensitive input variable of
// every credential ly declares, named with suffix ("_tokyo" in a cluster's
// file, so that two clusters' credentials stay apart), and points the
// references at them. It returns the names declared, for the report.
func declareSecrets(body *hclwrite.Body, ly *layer, suffix string) []string {
	refs := map[string]string{} // variable → what it holds
	rename := func(it item) item {
		if it.lit.ref == "" {
			return it
		}
		it.lit.ref += suffix
		refs[it.lit.ref] = it.lit.holds
		return it
	}
	for k, it := range ly.config {
		ly.config[k] = rename(it)
	}
	for n, it := range ly.vars {
		ly.vars[n] = rename(it)
	}
	names := make([]string, 0, len(refs))
	for n := range refs {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		comments(body,
			refs[n]+" holds a credential, set on the cluster: tiform does not import it.",
			fmt.Sprintf("Give it where tiform runs: TIFORM_VAR_%s=… or %s = \"…\" in a --var-file.", n, n))
		vb := body.AppendNewBlock("variable", []string{n}).Body()
		vb.SetAttributeValue("sensitive", cty.True)
		body.AppendNewline()
	}
	return names
}

// refTokens are the tokens of var.NAME.
func refTokens(name string) hclwrite.Tokens {
	return hclwrite.TokensForTraversal(hcl.Traversal{hcl.TraverseRoot{Name: "var"}, hcl.TraverseAttr{Name: name}})
}

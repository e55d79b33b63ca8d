// Command tiform manages TiDB cluster settings as code: HCL files declare TiKV/PD
// config, system variables and resource groups; `tiform plan` shows what would
// change on a live cluster and `tiform apply` changes it, guarded by
// version-aware rules.
package main

import (
	"os"

	"github.com/tiform/tiform/cmd"
)

func main() {
	os.Exit(cmd.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

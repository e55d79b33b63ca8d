package cmd

import (
	"fmt"

	"github.com/tiform/tiform/secret"
)

// checkOutPath refuses, before anything is read or written, a path where
// tiform would create a file or a directory (plan --out, state pull --out,
// import --out, --audit-log) when it holds a secret in use or looks like a
// DSN — one given by mistake, as `import --out "$TIFORM_DSN"`: the name
// would put the password on disk, in directory listings and in every later
// message that names the file. The path is not repeated in the error.
func checkOutPath(env *Env, flag, path string) error {
	_, holds := env.Secrets.Contains(path)
	if !holds && !secret.LooksLikeDSN(path) {
		return nil
	}
	return fmt.Errorf("%s: the path holds a password (it looks like a DSN, user:password@…), which a file or directory name would keep on disk; nothing was written: name a file or directory", flag)
}

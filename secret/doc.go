// Package secret owns what tiform treats as secret text and how it is kept out
// of everything tiform writes.
//
// It owns:
//   - DSNPassword and RedactDSN: finding the password in a DSN in every form a
//     person may give one, well-formed or not (go-sql-driver's
//     user:password@tcp(host:port)/, a URL mysql://user:password@host/, a DSN
//     missing its '/' or '@', a password holding '/' or '@'), and masking it,
//     or the whole text when no password can be located in a DSN-like string;
//   - Set, the secrets in use in one run (every DSN's password, values of
//     variables marked sensitive), with Mask, Contains and Writer: an
//     io.Writer that masks every secret of the set in what passes through it,
//     even when a secret is split across writes.
//
// It must not: import another tiform package, print or log anything, or keep a
// secret anywhere but in a Set's memory. Masking is the last line of defence:
// the layers above refuse to put a secret where it could be shown (a value
// equal to a DSN's password is refused at plan time), and Set masks whatever
// reaches an output anyway.
package secret

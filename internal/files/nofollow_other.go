//go:build !unix

package files

// oNoFollow: no O_NOFOLLOW here; OpenAppend checks with Lstat instead.
const oNoFollow = 0

// oNonBlock: none here.
const oNonBlock = 0

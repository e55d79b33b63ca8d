// Package input reads the files tiform is given as untrusted input:
// configuration and variable files, saved plans, snapshots, drift reports,
// topologies, the files file() reads, CA files.
//
// It owns:
//   - confinement: every file is opened through an os.Root — a
//     configuration's files through the configuration directory's (Dir), a
//     file named on the command line through the root of the directory that
//     holds it (ReadFile) — so that no path and no symbolic link leads out
//     (ErrOutside) and nothing of a file outside is read; ReadLinked, which
//     follows links, is for CA certificates only (their content never
//     reaches any output);
//   - that such a file is a regular file (a FIFO, a device such as /dev/zero
//     or a directory is refused at once: opening never blocks, reading never
//     runs forever);
//   - that it is no larger than its kind's limit (Limit: 16 MiB for
//     configuration and topologies, 64 MiB for plans, snapshots and drift
//     reports, overridable with TIFORM_MAX_CONFIG_SIZE, TIFORM_MAX_PLAN_SIZE
//     and TIFORM_MAX_REPORT_SIZE), with an error naming the file, its size,
//     the limit and how to raise it;
//   - reading it in memory bounded by that limit, even if it grows meanwhile.
//
// It must not: interpret what it reads, follow a path out of the root it
// confines a file to, or import another tiform package.
package input

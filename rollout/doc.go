// Package rollout runs one apply over the selected clusters of a fleet, the
// way Terraform's backend/local runs an operation for every command and view:
// the orchestration `tiform apply` drives, kept out of the cobra handlers.
//
// It owns:
//
//   - the apply of a configuration without a rollout (at once): every
//     selected cluster is held (applier.Hold: the lock, then the one read
//     under it), planned from that read, shown once, and applied without
//     reading it again (run.go);
//   - the apply of a configuration with a rollout (stages.go): the reviewed
//     plan of every cluster, then stage after stage each cluster held,
//     planned again from the read under its lock and applied only when that
//     plan is the one the rollout reviewed (its hash: cluster.go), the stop
//     conditions, the gate after each stage (gate.go: pause, no_drift,
//     plan_cache_hit_ratio, approval), and the change windows (windows.go);
//   - the state file (statefile.go) that apply --resume continues from;
//   - the progress of a rollout, in text and Markdown (progress.go); its
//     JSON lines are the audit log's events (views.ApplyEvent, written
//     through applier.Record).
//
// Which clusters a stage takes and whether a time is inside a window are
// state's rules (Rollout.Assign, AllowedAt); what a plan is, is the
// planner's; how a cluster is changed, the applier's. This package decides
// only the order, when to stop, and what to record.
//
// It must not:
//   - send SQL itself (the applier and live do), or read a cluster outside
//     the lock before applying it, but for the review of a rollout and a
//     gate's checks;
//   - apply a cluster whose plan is not the one reviewed (a different hash;
//     for a cluster a stopped rollout touched, anything but what is left of
//     its reviewed plan);
//   - apply a cluster outside its change windows unless --ignore-windows
//     gave a reason, which the audit log records;
//   - write a DSN or a value anywhere (the state file holds names, hashes
//     and addresses).
package rollout

#!/usr/bin/env bash
# make demo: start an emulated TiDB cluster, then plan → apply → plan on examples/quickstart.
# Usage: scripts/demo.sh [ADDR] [VERSION]   (ADDR 127.0.0.1:0 picks a free port)
set -euo pipefail
cd "$(dirname "$0")/.."

addr="${1:-127.0.0.1:0}"
ver="${2:-v8.5.1}"
example=examples/quickstart
log="$(mktemp -t tidbsim.XXXXXX.log)"

if [ -t 1 ] && [ -z "${NO_COLOR:-}" ]; then
  step() { printf '\n\033[1m==> %s\033[0m\n' "$*"; }
else
  step() { printf '\n==> %s\n' "$*"; }
fi

step "Starting an emulated TiDB $ver cluster (1 tidb, 3 tikv, 1 pd) with bin/tidbsim"
seed=()
[ -f "$example/cluster.seed.json" ] && seed=(--seed "$example/cluster.seed.json")
bin/tidbsim --addr "$addr" --version "$ver" --tikv 3 "${seed[@]}" >"$log" 2>&1 &
sim=$!
cleanup() {
  kill "$sim" 2>/dev/null || true
  wait "$sim" 2>/dev/null || true
  rm -f "$log"
}
trap cleanup EXIT INT TERM

# Wait for the one line tidbsim prints when it is ready.
for _ in $(seq 1 100); do
  if grep -q 'listening on' "$log" 2>/dev/null; then break; fi
  if ! kill -0 "$sim" 2>/dev/null; then cat "$log"; echo "tidbsim exited early" >&2; exit 1; fi
  sleep 0.1
done
head -n1 "$log"
listen="$(sed -n 's/.*listening on \([^ ]*\).*/\1/p' "$log" | head -n1)"
[ -n "$listen" ] || { cat "$log"; echo "tidbsim did not report its address" >&2; exit 1; }
export TIFORM_DSN="root@tcp(${listen})/"

step "tiform plan --chdir $example"
bin/tiform plan --chdir "$example"

step "tiform apply --auto-approve --chdir $example"
bin/tiform apply --auto-approve --chdir "$example"

step "tiform plan --chdir $example   (again: nothing left to do)"
bin/tiform plan --chdir "$example" --detailed-exitcode

step "Done. The emulator is stopped. Try it against your own cluster with TIFORM_DSN='user:…@tcp(host:4000)/'."

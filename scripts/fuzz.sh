#!/usr/bin/env bash
# make fuzz: run every fuzz target of the module, one at a time, each for
# FUZZTIME (default 1m), and print one line per target: package, target,
# time, executions, new corpus entries, result. A target that fails prints
# Go's report (the failing input is written under the package's
# testdata/fuzz/<target>/, where `make test` replays it from then on: commit
# it with the fix).
#
#   make fuzz                      # every target, 1 minute each
#   make fuzz FUZZTIME=5m          # longer
#   make fuzz FUZZ='List|Literal'  # only targets whose name matches
set -uo pipefail
cd "$(dirname "$0")/.."
go=${GO:-go}
fuzztime=${FUZZTIME:-1m}
pattern=${FUZZ:-.}
failed=0
printf '%-40s %-28s %8s %12s %6s %s\n' package target time execs new result
for pkg in $("$go" list ./...); do
	for target in $("$go" test -list '^Fuzz' "$pkg" 2>/dev/null | grep '^Fuzz'); do
		[[ $target =~ $pattern ]] || continue
		start=$(date +%s)
		out=$("$go" test -run '^$' -fuzz "^${target}\$" -fuzztime "$fuzztime" "$pkg" 2>&1)
		status=$?
		secs=$(($(date +%s) - start))
		last=$(grep -E '^fuzz: elapsed' <<<"$out" | tail -1)
		execs=$(sed -nE 's/.*execs: ([0-9]+).*/\1/p' <<<"$last")
		new=$(sed -nE 's/.*new interesting: ([0-9]+).*/\1/p' <<<"$last")
		result=ok
		if [[ $status -ne 0 ]]; then
			result=FAIL
			failed=1
		fi
		printf '%-40s %-28s %7ss %12s %6s %s\n' "${pkg#github.com/tiform/tiform/}" "$target" "$secs" "${execs:--}" "${new:--}" "$result"
		if [[ $result == FAIL ]]; then
			grep -vE '^fuzz: elapsed' <<<"$out" | sed 's/^/    /'
		fi
	done
done
exit $failed

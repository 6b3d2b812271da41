#!/usr/bin/env bash
# `npm test` on a busy machine: CPU burners (BURNERS of them, default 2: both cores of a two-core machine) spin for
# the whole run, started before it and stopped by their PIDs after it, whatever happens. Prints the load at the
# start, npm test's exit status and the wall time. Arguments go to vitest:
#   bench/busy-test.sh                      the whole suite
#   bench/busy-test.sh --project stack      one project
set -euo pipefail
cd "$(dirname "$0")/.."
node_bin=node
[ -x node_modules/.bin/node ] && node_bin="$PWD/node_modules/.bin/node"
burners=${BURNERS:-2}

pids=()
stop_burners () {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  pids=()
}
trap stop_burners EXIT INT TERM

for ((i = 0; i < burners; i++)); do
  "$node_bin" -e 'for (;;) {}' &
  pids+=("$!")
done
echo "busy-test: $burners CPU burners (pids ${pids[*]}) on $(nproc) cores; load average $(cut -d' ' -f1-3 /proc/loadavg)"

started=$(date +%s)
set +e
npm test -- "$@"
status=$?
set -e
elapsed=$(( $(date +%s) - started ))
stop_burners
printf 'busy-test: npm test %s exited %d after %dm%02ds wall time with %d burners\n' "$*" "$status" $((elapsed / 60)) $((elapsed % 60)) "$burners"
exit "$status"

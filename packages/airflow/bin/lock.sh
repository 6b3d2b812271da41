#!/usr/bin/env bash
# Regenerates the lock file of one Airflow version: every transitive package pinned with its hashes, resolved as
# the package index stood the day after that Airflow release was published (what Airflow's own constraints file
# of the release holds is close to that; the constraints files themselves are not reachable from here).
#
#   bash packages/airflow/bin/lock.sh 3.1.5 2025-12-13
#
# The resolver is uv, pinned here and installed into a throw-away virtual environment in the cache folder.
set -euo pipefail
version=${1:?usage: lock.sh AIRFLOW_VERSION CUTOFF_DATE (YYYY-MM-DD, the day after the release)}
cutoff=${2:?usage: lock.sh AIRFLOW_VERSION CUTOFF_DATE}
here=$(cd "$(dirname "$0")/.." && pwd)
cache=${SLIPWAY_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/slipway}
uv_version=0.13.9
tools="$cache/lock-tools"
if [ ! -x "$tools/bin/uv" ] || [ "$("$tools/bin/uv" --version | cut -d' ' -f2)" != "$uv_version" ]; then
  python3 -m venv "$tools"
  "$tools/bin/pip" install --quiet "uv==$uv_version"
fi
lock="$here/locks/apache-airflow-$version.txt"
printf 'apache-airflow==%s\npsycopg2-binary\nasyncpg\n' "$version" |
  "$tools/bin/uv" pip compile - --quiet --python-version 3.11 --python-platform x86_64-unknown-linux-gnu \
    --exclude-newer "${cutoff}T00:00:00Z" --generate-hashes --no-header --output-file "$lock"
{ printf '# apache-airflow %s with PostgreSQL support (psycopg2, asyncpg) for CPython 3.11 on x86-64 Linux, resolved as of %s\n' "$version" "$cutoff"
  printf '# by packages/airflow/bin/lock.sh %s %s; install with packages/airflow/bin/install.sh\n' "$version" "$cutoff"
  cat "$lock"; } > "$lock.new"
mv "$lock.new" "$lock"
echo "lock: $lock ($(grep -c '==' "$lock") packages)"

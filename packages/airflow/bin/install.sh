#!/usr/bin/env bash
# Installs Apache Airflow from its committed lock file into a virtual environment of its own in the cache folder
# (outside the repository). Idempotent: an environment installed from the same lock file is kept as it is.
#
#   bash packages/airflow/bin/install.sh [VERSION]     # default: $AIRFLOW_VERSION, else 3.1.5
#
# Prints the environment's folder on its last line. Exits 3 (and says why) when this machine cannot install it:
# no python3.11 or the package index cannot be reached — callers report the real-Airflow tests as skipped then.
set -euo pipefail
version=${1:-${AIRFLOW_VERSION:-3.1.5}}
here=$(cd "$(dirname "$0")/.." && pwd)
lock="$here/locks/apache-airflow-$version.txt"
cache=${SLIPWAY_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/slipway}
venv="$cache/airflow/$version"
started=$(date +%s)

if [ ! -f "$lock" ]; then
  echo "airflow install: no lock file for $version (have: $(cd "$here/locks" && ls | sed 's/apache-airflow-//; s/\.txt$//' | tr '\n' ' '))" >&2
  exit 2
fi
python=${AIRFLOW_PYTHON:-$(command -v python3.11 || command -v python3 || true)}
if [ -z "$python" ] || [ "$("$python" -c 'import sys; print("%d.%d" % sys.version_info[:2])')" != 3.11 ]; then
  echo "airflow install: skipped — the lock files are for CPython 3.11 and this machine has ${python:-no python3}" >&2
  exit 3
fi

stamp="$venv/.slipway-lock.sha256"
want=$(sha256sum "$lock" | cut -d' ' -f1)
if [ -x "$venv/bin/airflow" ] && [ "$(cat "$stamp" 2>/dev/null)" = "$want" ]; then
  echo "airflow install: apache-airflow $version already installed from its lock ($(( $(date +%s) - started )) s)" >&2
  echo "$venv"
  exit 0
fi

echo "airflow install: installing apache-airflow $version from $(basename "$lock") into $venv" >&2
rm -rf "$venv"
mkdir -p "$(dirname "$venv")"
"$python" -m venv "$venv"
if ! "$venv/bin/pip" install --quiet --disable-pip-version-check --no-deps --require-hashes -r "$lock" >&2; then
  rm -rf "$venv"
  echo "airflow install: skipped — pip could not install the lock (is the package index reachable?)" >&2
  exit 3
fi
echo "$want" > "$stamp"
echo "airflow install: apache-airflow $version installed in $(( $(date +%s) - started )) s" >&2
echo "$venv"

#!/usr/bin/env bash
# Builds the `helm` command line from its Go module proxy release into the cache folder (outside the repository),
# as build.sh builds kube-apiserver: the version is pinned by the committed helm/go.mod and helm/go.sum (helm.sh/helm/v4
# as a tool). The chart's tests (test/real/chart-*.test.ts) run it against the real API server.
# Idempotent: when a hash of those inputs, the Go version and the build flags matches what was built, it only says so.
# Prints the version and the build time on stderr and the folder of the binary on its last line. Exits 3 (and says
# why) when this machine cannot build it (no Go, a Go too old, no module proxy): the chart's tests report skipped then.
# A compile failure is a real failure (exit 1).
#
#   bash packages/kubernetes/bin/build-helm.sh
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
cache=${SLIPWAY_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/slipway}
say () { echo "helm build: $*" >&2; }
started=$(date +%s)

# shellcheck source=packages/kubernetes/bin/go-tools.sh
. "$here/bin/go-tools.sh"
helm_version=$(module_version "$here/helm/go.mod" helm.sh/helm/v4)
if [ -z "$helm_version" ]; then
  say "the pinned version cannot be read from helm/go.mod"
  exit 1
fi
out="$cache/helm/$helm_version"

require_go "$here/helm/go.mod" "helm $helm_version is"

# the version stamp `helm version` prints, as helm's own release build sets it
ldflags="-s -w -X helm.sh/helm/v4/internal/version.version=$helm_version -X helm.sh/helm/v4/internal/version.gitTreeState=clean"
inputs=$( (cd "$here" && cat helm/go.mod helm/go.sum; echo "$go_version $ldflags") | sha256sum | cut -d' ' -f1)
stamp="$out/inputs.sha256"
if [ -x "$out/bin/helm" ] && [ "$(cat "$stamp" 2>/dev/null)" = "$inputs" ]; then
  say "helm $helm_version ($go_version) already built in $out/bin ($(( $(date +%s) - started )) s)"
  echo "$out/bin"
  exit 0
fi

# two cores: two compile jobs at a time
export GOFLAGS="-p=2 -buildvcs=false -mod=readonly" CGO_ENABLED=0
say "fetching the modules of helm $helm_version"
# listing the packages a build needs fetches exactly their modules
if ! (cd "$here/helm" && go list -deps helm.sh/helm/v4/cmd/helm >/dev/null); then
  say "skipped — the modules of helm cannot be fetched (is the Go module proxy reachable?)"
  exit 3
fi

mkdir -p "$out/bin"
rm -f "$stamp"
say "building helm $helm_version with $go_version"
begun=$(date +%s)
if [ -x /usr/bin/time ] && /usr/bin/time -f '' true 2>/dev/null; then
  (cd "$here/helm" && /usr/bin/time -f 'helm build: largest process %M KiB' \
    go build -trimpath -ldflags="$ldflags" -o "$out/bin/helm.new" helm.sh/helm/v4/cmd/helm >&2)
else
  (cd "$here/helm" && go build -trimpath -ldflags="$ldflags" -o "$out/bin/helm.new" helm.sh/helm/v4/cmd/helm >&2)
fi
say "helm: built in $(( $(date +%s) - begun )) s"
mv "$out/bin/helm.new" "$out/bin/helm"
echo "$inputs" > "$stamp"
printf 'helm %s\n%s\n' "$helm_version" "$go_version" > "$out/versions.txt"
say "helm $helm_version built with $go_version in $(( $(date +%s) - started )) s into $out/bin"
echo "$out/bin"

#!/usr/bin/env bash
# Builds a real kube-apiserver and the etcd it stores in, from the Go module proxy, into the cache folder (outside
# the repository). The versions are pinned by the committed go.mod and go.sum files beside this script:
#   apiserver/go.mod  k8s.io/kubernetes as a tool; its staging modules (which the kubernetes module names by local
#                     paths its archive does not carry) replaced by the published modules of the same release
#   etcd/go.mod       go.etcd.io/etcd/server/v3, started by our own small main.go (etcd/main.go)
# Idempotent: when a hash of those inputs, the Go version and the build flags matches what was built, it only says
# so (seconds). Prints the versions and the build time on stderr and the folder of the binaries on its last line.
# Exits 3 (and says why) when this machine cannot build them (no Go, a Go too old, no module proxy): callers report
# the real-Kubernetes tests as skipped then. A compile failure is a real failure (exit 1).
#
#   bash packages/kubernetes/bin/build.sh
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
cache=${SLIPWAY_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/slipway}
say () { echo "kubernetes build: $*" >&2; }
started=$(date +%s)

# shellcheck source=packages/kubernetes/bin/go-tools.sh
. "$here/bin/go-tools.sh"
kube_version=$(module_version "$here/apiserver/go.mod" k8s.io/kubernetes)
etcd_version=$(module_version "$here/etcd/go.mod" go.etcd.io/etcd/server/v3)
if [ -z "$kube_version" ] || [ -z "$etcd_version" ]; then
  say "the pinned versions cannot be read from apiserver/go.mod and etcd/go.mod"
  exit 1
fi
out="$cache/kubernetes/$kube_version"

require_go "$here/apiserver/go.mod" "kube-apiserver $kube_version and etcd $etcd_version are"

# what the build depends on: a change to any of it builds again
ldflags="-s -w -X k8s.io/component-base/version.gitVersion=$kube_version -X k8s.io/component-base/version.gitMajor=$(echo "$kube_version" | cut -d. -f1 | tr -d v) -X k8s.io/component-base/version.gitMinor=$(echo "$kube_version" | cut -d. -f2) -X k8s.io/component-base/version.gitTreeState=clean -X k8s.io/client-go/pkg/version.gitVersion=$kube_version"
inputs=$( (cd "$here" && cat apiserver/go.mod apiserver/go.sum etcd/go.mod etcd/go.sum etcd/main.go; echo "$go_version $ldflags") | sha256sum | cut -d' ' -f1)
stamp="$out/inputs.sha256"
if [ -x "$out/bin/kube-apiserver" ] && [ -x "$out/bin/etcd" ] && [ "$(cat "$stamp" 2>/dev/null)" = "$inputs" ]; then
  say "kube-apiserver $kube_version and etcd $etcd_version ($go_version) already built in $out/bin ($(( $(date +%s) - started )) s)"
  echo "$out/bin"
  exit 0
fi

# two cores: two compile jobs at a time
export GOFLAGS="-p=2 -buildvcs=false -mod=readonly"
say "fetching the modules of kube-apiserver $kube_version and etcd $etcd_version"
for target in 'apiserver k8s.io/kubernetes/cmd/kube-apiserver' 'etcd .'; do
  set -- $target
  # listing the packages a build needs fetches exactly their modules
  if ! (cd "$here/$1" && go list -deps "$2" >/dev/null); then
    say "skipped — the modules of $1 cannot be fetched (is the Go module proxy reachable?)"
    exit 3
  fi
done

mkdir -p "$out/bin"
rm -f "$stamp"
timed () { # label command… — runs it, saying its time and, where GNU time is present, its largest process
  local label=$1; shift
  local begun; begun=$(date +%s)
  if [ -x /usr/bin/time ] && /usr/bin/time -f '' true 2>/dev/null; then
    /usr/bin/time -f "kubernetes build: $label: largest process %M KiB" "$@" >&2
  else
    "$@" >&2
  fi
  say "$label: built in $(( $(date +%s) - begun )) s"
}
say "building etcd $etcd_version with $go_version"
(cd "$here/etcd" && timed etcd go build -trimpath -ldflags='-s -w' -o "$out/bin/etcd.new" .)
say "building kube-apiserver $kube_version with $go_version (a cold build takes many minutes on two cores)"
(cd "$here/apiserver" && timed kube-apiserver go build -trimpath -ldflags="$ldflags" -o "$out/bin/kube-apiserver.new" k8s.io/kubernetes/cmd/kube-apiserver)
mv "$out/bin/etcd.new" "$out/bin/etcd"
mv "$out/bin/kube-apiserver.new" "$out/bin/kube-apiserver"
echo "$inputs" > "$stamp"
printf 'kube-apiserver %s\netcd %s\n%s\n' "$kube_version" "$etcd_version" "$go_version" > "$out/versions.txt"
say "kube-apiserver $kube_version and etcd $etcd_version built with $go_version in $(( $(date +%s) - started )) s into $out/bin"
echo "$out/bin"

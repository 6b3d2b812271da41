# shellcheck shell=bash
# Shared by build.sh and build-helm.sh (sourced, not run): reading a pinned version from a go.mod, and the check that
# this machine's Go can build what a go.mod names. Both expect a `say` function printing to stderr.

# module_version GO_MOD MODULE → the version GO_MOD requires of MODULE (empty when it names none)
module_version () {
  awk -v m="$2" '$1 == m { print $2; exit } $1 == "require" && $2 == m { print $3; exit }' "$1"
}

# require_go GO_MOD WHAT → sets go_version; exits 3 (callers report their tests skipped) when there is no Go on the
# PATH, or when it is older than GO_MOD's `go` line and GOTOOLCHAIN=local forbids fetching the newer one
require_go () {
  if ! command -v go >/dev/null 2>&1; then
    say "skipped — no Go toolchain on PATH ($2 built from source)"
    exit 3
  fi
  go_version=$(go env GOVERSION)
  local need
  need=$(awk '$1 == "go" { print $2; exit }' "$1")
  if [ "$(printf '%s\n%s\n' "go$need" "$go_version" | sort -V | head -n 1)" != "go$need" ] && [ "${GOTOOLCHAIN:-auto}" = local ]; then
    say "skipped — $go_version is older than the go$need that $2 needs"
    exit 3
  fi
}

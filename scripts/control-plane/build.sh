#!/usr/bin/env bash
# Builds the control plane's binaries (etcd, kube-apiserver, kube-controller-manager) from this
# module's go.mod/go.sum into a per-machine cache, once: a binary already in the cache is kept.
# Prints the bin directory on stdout (everything else goes to stderr).
#
# Everything comes through the Go module proxy; nothing else is downloaded.
# Env: FLOWOPS_CACHE (default ~/.cache/flowops), CONTROL_PLANE_COMPONENTS (default: all three).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"

bin=$(control_plane_bin_dir)
mkdir -p "$bin"
components=${CONTROL_PLANE_COMPONENTS:-etcd kube-apiserver kube-controller-manager}

# Two test runs may start at once on a fresh machine: the lock makes the second wait for the
# first's build instead of building the same thing twice on 2 cores.
exec 9>"$bin/.build.lock"
flock 9

cd "$here"

# The build environment, set once before the first build. Small binaries (no symbol tables, no
# local paths) and a build that leaves a core to the others on the machine. CGO is off: the
# release builds of these components are static too. Only the module proxy, checked against
# go.sum: no fallback to fetching from version control (`direct`), no toolchain download.
go_env_ready=
prepare_go_env() {
  [ -n "$go_env_ready" ] && return 0
  local reason
  reason=$("$here/check-go.sh") || { echo "control-plane: cannot build here: $reason" >&2; exit 1; }
  export CGO_ENABLED=0 GOMAXPROCS=${GOMAXPROCS:-2} GOTOOLCHAIN=local
  GOPROXY=$(go env GOPROXY); GOPROXY=${GOPROXY%,direct}; GOPROXY=${GOPROXY%|direct}
  if [ "$GOPROXY" = direct ] || [ "$GOPROXY" = off ]; then echo "control-plane: GOPROXY=$GOPROXY: set it to a Go module proxy" >&2; exit 1; fi
  export GOPROXY GOFLAGS="-trimpath -buildvcs=false -mod=readonly"
  go_env_ready=1
}

for component in $components; do
  package=$(control_plane_package "$component")
  ldflags="-s -w $(control_plane_version_ldflags "$component")"
  # What the binary was built with sits beside it: a changed recipe (go.mod is already in the
  # folder's name) builds it again instead of keeping a stale one. Go is needed only for what is
  # missing: a machine with a filled cache runs without it.
  recipe="$package $ldflags"
  if [ -x "$bin/$component" ] && [ "$(cat "$bin/.$component.recipe" 2>/dev/null)" = "$recipe" ]; then continue; fi
  prepare_go_env
  echo "control-plane: building $component ($package) into $bin" >&2
  start=$(date +%s)
  go build -p 2 -ldflags="$ldflags" -o "$bin/.$component.tmp" "$package" >&2
  mv "$bin/.$component.tmp" "$bin/$component"
  echo "$recipe" > "$bin/.$component.recipe"
  echo "control-plane: built $component in $(( $(date +%s) - start ))s" >&2
done
echo "$bin"

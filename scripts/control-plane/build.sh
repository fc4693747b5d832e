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

build_components "$here" "$bin" $components
echo "$bin"

#!/usr/bin/env bash
# Builds the CNCF distribution registry (github.com/distribution/distribution/v3, the registry
# Docker Hub, GHCR and Harbor descend from) through the Go module proxy into the per-machine cache,
# once, and prints the binary's path. registry/ is cmd/registry with only the filesystem and
# in-memory storage and htpasswd auth, pinned by its go.mod/go.sum. test/real/oci-source.test.ts
# pushes artifacts to it and has a FlowSource follow them, so FlowOps' distribution client is
# checked against the reference server; .ci/run hands the path to it as FLOWOPS_REGISTRY.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
version=v3.0.0
dir="${FLOWOPS_CACHE:-$HOME/.cache/flowops}/registry-$version"
mkdir -p "$dir/bin"
exec 9>"$dir/.build.lock"
flock 9
if [ ! -x "$dir/bin/registry" ]; then
  (cd "$here/registry" && GOFLAGS=-mod=mod GOTOOLCHAIN=local go build -trimpath -o "$dir/bin/registry.tmp" . >&2)
  mv "$dir/bin/registry.tmp" "$dir/bin/registry"
fi
echo "$dir/bin/registry"

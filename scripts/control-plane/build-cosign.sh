#!/usr/bin/env bash
# Builds the real cosign (github.com/sigstore/cosign/v2, Sigstore's signing tool) through the Go
# module proxy into the per-machine cache, once, and prints the binary's path. The cosign test
# (test/real/oci-cosign.test.ts) signs artifacts pushed to the real registry with
# `cosign sign --key`, so FlowOps' keyed verification is checked against what users' own tool
# writes; .ci/run hands the path to it as FLOWOPS_COSIGN. GOMODCACHE and GOCACHE are the go
# command's own, so a warm module cache is reused.
set -euo pipefail
version=v2.6.5
dir="${FLOWOPS_CACHE:-$HOME/.cache/flowops}/cosign-$version"
mkdir -p "$dir/bin"
exec 9>"$dir/.build.lock"
flock 9
if [ ! -x "$dir/bin/cosign" ]; then
  GOBIN="$dir/bin" GOFLAGS=-mod=mod GOTOOLCHAIN=local go install -trimpath "github.com/sigstore/cosign/v2/cmd/cosign@$version" >&2
fi
echo "$dir/bin/cosign"

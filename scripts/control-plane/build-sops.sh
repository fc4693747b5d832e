#!/usr/bin/env bash
# Builds the real sops (github.com/getsops/sops, which Debian does not package) through the Go
# module proxy into the per-machine cache, once, and prints the binary's path. The SOPS tests
# (test/gitops/sops.test.ts) encrypt with it, so FlowOps' decryption is checked against what
# users' own tool writes; .ci/run hands the path to them as FLOWOPS_SOPS.
set -euo pipefail
version=v3.11.0
dir="${FLOWOPS_CACHE:-$HOME/.cache/flowops}/sops-$version"
mkdir -p "$dir/bin"
exec 9>"$dir/.build.lock"
flock 9
if [ ! -x "$dir/bin/sops" ]; then
  GOBIN="$dir/bin" GOFLAGS=-mod=mod go install "github.com/getsops/sops/v3/cmd/sops@$version" >&2
fi
echo "$dir/bin/sops"

#!/usr/bin/env bash
# check-go.sh [MODULE_DIR]: exits 0 when this machine can build that module (default: the control
# plane's own; flux/ is the other): a `go` on PATH at least as new as its go.mod's `go` line
# (Debian's golang-go may be older; no newer toolchain is downloaded, GOTOOLCHAIN=local).
# Otherwise prints why not, on one line, and exits 1. Used by .ci/run and test/real's globalSetup.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
command -v go >/dev/null 2>&1 || { echo "go is not on PATH"; exit 1; }
module_dir=$(cd "${1:-$here}" && pwd)
need=$(sed -n 's/^go \([0-9.]*\)$/\1/p' "$module_dir/go.mod")
have=$(GOTOOLCHAIN=local go env GOVERSION); have=${have#go}
# sort -V puts the older first: usable when the needed version sorts first (or they are equal).
if [ "$(printf '%s\n%s\n' "$need" "$have" | sort -V | head -n1)" != "$need" ]; then
  echo "go $have is older than go $need that ${module_dir#"$(cd "$here/../.." && pwd)/"}/go.mod needs"
  exit 1
fi

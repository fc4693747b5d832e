#!/usr/bin/env bash
# Builds the real Gitea (code.gitea.io/gitea) through the Go module proxy into the per-machine
# cache, once, and prints the folder it is in (bin/gitea, and share/ with the templates and
# options a build without the `bindata` tag reads at run time). test/real/gitea-forge.test.ts runs
# it as the forge FlowOps' commit statuses and pull-request previews talk to.
#
# v1.26.0 is the newest release whose module path is still code.gitea.io/gitea (from 1.27 it is
# gitea.dev, which the module proxy does not serve). Gitea's go.mod has replace directives, so it
# is built as the main module from its own source (what `go mod download` fetched), not with
# `go install …@version`. CGO is on for its SQLite driver (the `sqlite` tag): the tests run it on
# a SQLite file, as a small install would.
#
# `--if-cached` prints the folder only when the build is already there and exits 1 otherwise:
# .ci/run uses it so that a machine with an empty cache does not pay for the build (about 47 min
# measured on a loaded 2-core machine, beside other builds) unless FLOWOPS_BUILD_GITEA=1.
set -euo pipefail
version=v1.26.0
dir="${FLOWOPS_CACHE:-$HOME/.cache/flowops}/gitea-$version"
if [ "${1:-}" = --if-cached ]; then
  [ -x "$dir/bin/gitea" ] && [ -d "$dir/share/templates" ] && { echo "$dir"; exit 0; }
  echo "Gitea $version is not in $dir" >&2
  exit 1
fi
mkdir -p "$dir"
exec 9>"$dir/.build.lock"
flock 9
if [ ! -x "$dir/bin/gitea" ]; then
  export GOTOOLCHAIN=local GOMAXPROCS=${GOMAXPROCS:-2}
  src=$(cd /tmp && GOFLAGS=-mod=mod go mod download -json "code.gitea.io/gitea@$version" |
    node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>console.log(JSON.parse(s).Dir))')
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
  cp -r "$src/." "$work/"
  chmod -R u+w "$work"
  (
    cd "$work"
    CGO_ENABLED=1 GOFLAGS="-trimpath -buildvcs=false -mod=readonly" go build \
      -tags 'sqlite sqlite_unlock_notify' -ldflags "-s -w -X main.Version=${version#v}" -o "$dir/bin/gitea.partial" . >&2
  )
  rm -rf "$dir/share" && mkdir -p "$dir/share"
  cp -r "$work/templates" "$work/options" "$dir/share/"
  [ -d "$work/public" ] && cp -r "$work/public" "$dir/share/"
  mv "$dir/bin/gitea.partial" "$dir/bin/gitea"
fi
echo "$dir"

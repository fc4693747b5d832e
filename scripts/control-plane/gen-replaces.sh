#!/usr/bin/env bash
# Regenerates the `replace` lines of go.mod for a k8s.io/kubernetes release.
#
# k8s.io/kubernetes points its staging modules (k8s.io/api, k8s.io/apiserver, …) at ./staging
# with `replace` directives, which Go ignores when kubernetes is a dependency, and it requires
# them at v0.0.0. So a module that builds kubernetes' commands must replace each staging module
# by its published release: kubernetes v1.X.Y ↔ k8s.io/<staging> v0.X.Y. The list of staging
# modules is read from kubernetes' own go.mod, fetched through the Go module proxy.
#
# Usage: ./gen-replaces.sh v1.34.4   (run in this folder; then `go mod tidy`)
set -euo pipefail
cd "$(dirname "$0")"
version=${1:?usage: gen-replaces.sh v1.X.Y}
staging_version="v0.${version#v1.}"
gomod=$(go mod download -json "k8s.io/kubernetes@${version}" | sed -n 's/.*"GoMod": "\(.*\)",/\1/p')
[ -f "$gomod" ] || { echo "gen-replaces: no go.mod for k8s.io/kubernetes@${version}" >&2; exit 1; }
go mod edit -require="k8s.io/kubernetes@${version}"
for module in $(sed -n 's|^[[:space:]]*\(k8s.io/[a-z0-9-]*\) => \./staging/.*|\1|p' "$gomod"); do
  go mod edit -replace="${module}=${module}@${staging_version}"
done
echo "gen-replaces: k8s.io/kubernetes ${version}, staging modules at ${staging_version}"

#!/usr/bin/env bash
# Builds Flux's source-controller and kustomize-controller from flux/go.mod into the per-machine
# cache beside the control plane's, once, and puts their CRDs (from the same module versions, as
# the module proxy serves them) in its crds/ folder. Prints the cache folder (bin/, crds/).
#
# test/real/flux.test.ts runs them as local processes against the real control plane.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"

dir=$(flux_dir)
mkdir -p "$dir/bin" "$dir/crds"
exec 9>"$dir/.build.lock"
flock 9

build_components "$flux_module_dir" "$dir/bin" source-controller kustomize-controller

# The CRDs of exactly the versions built: each controller's config/crd/bases, from the module cache
# (go mod download fetches the module zip through the proxy and checks it against go.sum).
for component in source-controller kustomize-controller; do
  module=$(control_plane_package "$component")
  version=$(control_plane_module_version "$module" "$flux_module_dir/go.mod")
  stamp="$dir/crds/.$component-$version"
  [ -f "$stamp" ] && continue
  module_root=$(cd "$flux_module_dir" && GOTOOLCHAIN=local GOFLAGS=-mod=readonly go mod download -json "$module@$version" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
  [ -d "$module_root/config/crd/bases" ] || { echo "flux: no config/crd/bases in $module@$version" >&2; exit 1; }
  cp "$module_root"/config/crd/bases/*.yaml "$dir/crds/"
  chmod 644 "$dir"/crds/*.yaml
  touch "$stamp"
done
echo "$dir"

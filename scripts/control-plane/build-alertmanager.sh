#!/usr/bin/env bash
# Builds Prometheus Alertmanager (cmd/alertmanager at the release alertmanager/go.mod pins) into
# the per-machine cache beside the control plane's, once. Prints the cache folder (bin/).
#
# test/real/notify-alertmanager.test.ts runs it as a local process and reads /api/v2/alerts.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"

dir=$(alertmanager_dir)
mkdir -p "$dir/bin"
exec 9>"$dir/.build.lock"
flock 9

build_components "$alertmanager_module_dir" "$dir/bin" alertmanager
echo "$dir"

#!/usr/bin/env bash
# Stops the control plane that up.sh started in DIR: SIGTERM to all of its processes at once (its
# state is for tests and thrown away, so there is nothing to drain in order), SIGKILL to any still
# running after 10 s. DIR and its state are left in place.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
dir=${1:?usage: down.sh DIR}

pids=()
for name in kube-controller-manager kube-apiserver etcd; do
  [ -f "$dir/$name.pid" ] || continue
  pid=$(cat "$dir/$name.pid")
  # Only if that pid still is our component (a stale pid file must not kill a stranger).
  if tr '\0' ' ' < "/proc/$pid/cmdline" 2>/dev/null | grep -q -- "/$name "; then
    kill -TERM "$pid" 2>/dev/null && pids+=("$pid")
  fi
  rm -f "$dir/$name.pid"
done
all_gone() {
  local pid
  for pid in "${pids[@]}"; do kill -0 "$pid" 2>/dev/null && return 1; done
  return 0
}
[ ${#pids[@]} -eq 0 ] && exit 0
wait_until 10 "the control plane to stop" all_gone || kill -KILL "${pids[@]}" 2>/dev/null
exit 0

#!/usr/bin/env bash
# Stops the control plane that up.sh started in DIR: the controller-manager, the apiserver, then
# etcd (SIGTERM, then SIGKILL after 10 s). DIR and its state are left in place.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
dir=${1:?usage: down.sh DIR}

for name in kube-controller-manager kube-apiserver etcd; do
  pidfile="$dir/$name.pid"
  [ -f "$pidfile" ] || continue
  pid=$(cat "$pidfile")
  if kill -0 "$pid" 2>/dev/null; then
    kill -TERM "$pid" 2>/dev/null
    gone() { ! kill -0 "$pid" 2>/dev/null; }
    wait_until 10 "$name to stop" gone || kill -KILL "$pid" 2>/dev/null
  fi
  rm -f "$pidfile"
done

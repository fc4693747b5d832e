#!/bin/sh
# in-cluster-namespace.sh NAMESPACE SCRATCH_DIR COMMAND [ARG...]
#
# Runs COMMAND out of cluster but with the one in-cluster file controller-runtime needs for leader
# election, /var/run/secrets/kubernetes.io/serviceaccount/namespace, holding NAMESPACE. Flux's
# controllers (and any controller-runtime operator without a --leader-election-namespace flag) exit
# with "unable to find leader election namespace: not running in-cluster" without it.
#
# The file exists only in a private mount namespace of COMMAND's own: /run is overlaid with a tmpfs
# mounted on SCRATCH_DIR (an empty directory the caller owns and removes), so nothing is written to
# the host's /run. Needs root (CAP_SYS_ADMIN) and unshare(1). COMMAND is exec'd: its pid is the pid
# this script was started with, so a signal to it reaches COMMAND itself.
set -eu
if [ "$#" -lt 3 ]; then
  echo "usage: $0 NAMESPACE SCRATCH_DIR COMMAND [ARG...]" >&2
  exit 2
fi
# The values reach the inner shell as arguments, never as shell text.
exec unshare --mount --propagation private sh -eu -c '
  ns=$1 scratch=$2
  shift 2
  mount -t tmpfs -o size=1m,mode=0700 flowops-in-cluster "$scratch"
  mkdir "$scratch/upper" "$scratch/work"
  mount -t overlay overlay -o "lowerdir=/run,upperdir=$scratch/upper,workdir=$scratch/work" /run
  mkdir -p /run/secrets/kubernetes.io/serviceaccount
  printf %s "$ns" > /run/secrets/kubernetes.io/serviceaccount/namespace
  exec "$@"
' in-cluster-namespace "$@"

#!/usr/bin/env bash
# Starts a real Kubernetes control plane with its state in DIR, like controller-runtime's envtest:
# etcd, kube-apiserver and (unless CONTROL_PLANE_CONTROLLER_MANAGER=0) kube-controller-manager
# running only the controllers that need no nodes (garbage collector, namespace, ServiceAccounts).
# No kubelet, no scheduler: no pod ever runs. Builds the binaries first if they are missing.
#
# Writes DIR/kubeconfig (admin, group system:masters) and DIR/env (ports, bin dir); exits 0 once
# /readyz answers 200 (and, with the controller-manager, once it has made ServiceAccount default).
# Stop with down.sh DIR.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
dir=${1:?usage: up.sh DIR}
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)

if alive "$dir" kube-apiserver; then echo "control-plane: already running in $dir" >&2; exit 0; fi

bin=$("$here/build.sh")
"$here/certs.sh" "$dir"
pki="$dir/pki"

# If any step below fails, what was started is stopped again: no stray etcd after a failed up.
trap 'status=$?; [ $status -ne 0 ] && "$here/down.sh" "$dir" >/dev/null 2>&1; exit $status' EXIT

fail() { # fail NAME MESSAGE: the message and the end of the component's log
  echo "control-plane: $2" >&2
  [ -f "$dir/$1.log" ] && tail -n 30 "$dir/$1.log" >&2
  exit 1
}

etcd_port=$(free_port)
etcd_peer_port=$(free_port)
apiserver_port=$(free_port)
server="https://127.0.0.1:$apiserver_port"

# etcd: plain HTTP on loopback (only the apiserver talks to it), no fsync (test data is thrown away).
start_component "$dir" etcd "$bin/etcd" \
  --name=control-plane --data-dir="$dir/etcd" \
  --listen-client-urls="http://127.0.0.1:$etcd_port" --advertise-client-urls="http://127.0.0.1:$etcd_port" \
  --listen-peer-urls="http://127.0.0.1:$etcd_peer_port" --initial-advertise-peer-urls="http://127.0.0.1:$etcd_peer_port" \
  --initial-cluster="control-plane=http://127.0.0.1:$etcd_peer_port" \
  --unsafe-no-fsync --log-level=warn
wait_until 30 "etcd /health" curl -fsS "http://127.0.0.1:$etcd_port/health" || fail etcd "etcd did not become healthy"

# CONTROL_PLANE_AUDIT=1: every request's verb, user and response code in DIR/audit.log (JSON lines),
# to see what a client got refused without guessing from its own logs.
audit_flags=()
if [ "${CONTROL_PLANE_AUDIT:-0}" = 1 ]; then
  printf 'apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n- level: Metadata\n' > "$dir/audit-policy.yaml"
  audit_flags=(--audit-policy-file="$dir/audit-policy.yaml" --audit-log-path="$dir/audit.log")
fi

start_component "$dir" kube-apiserver "$bin/kube-apiserver" "${audit_flags[@]}" \
  --etcd-servers="http://127.0.0.1:$etcd_port" \
  --bind-address=127.0.0.1 --advertise-address=127.0.0.1 --secure-port="$apiserver_port" \
  --tls-cert-file="$pki/apiserver.crt" --tls-private-key-file="$pki/apiserver.key" \
  --client-ca-file="$pki/ca.crt" \
  --authorization-mode=Node,RBAC \
  --service-account-issuer=https://kubernetes.default.svc.cluster.local \
  --service-account-key-file="$pki/sa.pub" --service-account-signing-key-file="$pki/sa.key" \
  --service-cluster-ip-range=10.96.0.0/12 \
  --allow-privileged=true --profiling=false \
  --cert-dir="$dir/apiserver-certs"
curl_admin() { curl -fsS --cacert "$pki/ca.crt" --cert "$pki/admin.crt" --key "$pki/admin.key" "$@"; }
ready() { alive "$dir" kube-apiserver && [ "$(curl_admin "$server/readyz")" = ok ]; }
wait_until 90 "kube-apiserver /readyz" ready || fail kube-apiserver "kube-apiserver did not become ready at $server"

write_kubeconfig "$dir/kubeconfig" "$server" "$pki" admin admin

if [ "${CONTROL_PLANE_CONTROLLER_MANAGER:-1}" != 0 ] && [ -x "$bin/kube-controller-manager" ]; then
  write_kubeconfig "$dir/controller-manager.kubeconfig" "$server" "$pki" controller-manager system:kube-controller-manager
  # Only controllers that make sense without nodes. The workload controllers (deployment,
  # statefulset, …) are left out on purpose: they would create Pods that never run and own the
  # workloads' status, which the tests set by hand as envtest users do.
  start_component "$dir" kube-controller-manager "$bin/kube-controller-manager" \
    --kubeconfig="$dir/controller-manager.kubeconfig" \
    --authentication-kubeconfig="$dir/controller-manager.kubeconfig" \
    --authorization-kubeconfig="$dir/controller-manager.kubeconfig" \
    --controllers=garbage-collector-controller,namespace-controller,serviceaccount-controller,serviceaccount-token-controller,clusterrole-aggregation-controller,root-ca-certificate-publisher-controller \
    --use-service-account-credentials=true \
    --service-account-private-key-file="$pki/sa.key" --root-ca-file="$pki/ca.crt" \
    --leader-elect=false --bind-address=127.0.0.1 --secure-port=0
  # The ServiceAccount controller creating `default` in namespace default shows it is working.
  started() { alive "$dir" kube-controller-manager && curl_admin "$server/api/v1/namespaces/default/serviceaccounts/default"; }
  wait_until 60 "kube-controller-manager (ServiceAccount default/default)" started || fail kube-controller-manager "kube-controller-manager did not start"
fi

cat > "$dir/env" <<ENV
CONTROL_PLANE_SERVER=$server
CONTROL_PLANE_ETCD=http://127.0.0.1:$etcd_port
CONTROL_PLANE_BIN=$bin
CONTROL_PLANE_CONTROLLER_MANAGER=$(alive "$dir" kube-controller-manager && echo 1 || echo 0)
ENV
echo "control-plane: ready at $server (kubeconfig: $dir/kubeconfig)" >&2

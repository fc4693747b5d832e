# Shared by build.sh, up.sh and down.sh: where the binaries live and what they are built from.
# Sourced, not run.

control_plane_module_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

# The version of a required module as go.mod pins it (no `go` needed, so down.sh works anywhere).
control_plane_module_version() {
  sed -n "s|^[[:space:]]*$1 \(v[^ ]*\).*|\1|p" "$control_plane_module_dir/go.mod" | head -n1
}

# One cache folder per pinned pair of versions: changing go.mod builds anew, never mixes binaries.
control_plane_version() {
  echo "kubernetes-$(control_plane_module_version k8s.io/kubernetes)-etcd-$(control_plane_module_version go.etcd.io/etcd/server/v3)"
}

control_plane_bin_dir() {
  echo "${FLOWOPS_CACHE:-$HOME/.cache/flowops}/control-plane/$(control_plane_version)/bin"
}

# The version stamp Kubernetes' own release build puts in (hack/lib/version.sh): without it the
# server reports v0.0.0-master, which kubectl cannot parse and Helm's kubeVersion checks refuse.
control_plane_version_ldflags() {
  case "$1" in
    kube-*)
      local v minor pkg flags=""
      v=$(control_plane_module_version k8s.io/kubernetes)
      minor=${v#v1.}; minor=${minor%%.*}
      for pkg in k8s.io/component-base/version k8s.io/client-go/pkg/version; do
        flags="$flags -X $pkg.gitVersion=$v -X $pkg.gitMajor=1 -X $pkg.gitMinor=$minor -X $pkg.gitTreeState=clean"
      done
      echo "${flags# }" ;;
  esac
}

control_plane_package() {
  case "$1" in
    etcd) echo go.etcd.io/etcd/server/v3 ;;
    kube-apiserver) echo k8s.io/kubernetes/cmd/kube-apiserver ;;
    kube-controller-manager) echo k8s.io/kubernetes/cmd/kube-controller-manager ;;
    *) echo "control-plane: unknown component $1" >&2; return 1 ;;
  esac
}

# A port nothing listens on now, on 127.0.0.1 (the kernel picks it; node is there for FlowOps).
free_port() {
  node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})'
}

# wait_until SECONDS WHAT COMMAND...: polls COMMAND until it succeeds; fails after the deadline.
wait_until() {
  local deadline=$(( $(date +%s) + $1 )) what=$2
  shift 2
  until "$@" >/dev/null 2>&1; do
    if [ "$(date +%s)" -ge "$deadline" ]; then echo "control-plane: timed out waiting for $what" >&2; return 1; fi
    sleep 0.2
  done
}

# start_component DIR NAME BINARY ARGS...: runs it detached in its own session (so down.sh can stop
# it and its children), logging to DIR/NAME.log, its pid in DIR/NAME.pid.
start_component() {
  local dir=$1 name=$2
  shift 2
  setsid "$@" >"$dir/$name.log" 2>&1 < /dev/null &
  echo $! > "$dir/$name.pid"
}

# alive DIR NAME: the component's process is still running.
alive() { [ -f "$1/$2.pid" ] && kill -0 "$(cat "$1/$2.pid")" 2>/dev/null; }

# A kubeconfig for a client certificate, with everything embedded so it can be copied anywhere.
write_kubeconfig() { # write_kubeconfig FILE SERVER PKI CERT_NAME USER
  local b64="base64 -w0"
  cat > "$1" <<KUBECONFIG
apiVersion: v1
kind: Config
clusters:
- name: control-plane
  cluster:
    server: $2
    certificate-authority-data: $($b64 < "$3/ca.crt")
users:
- name: $5
  user:
    client-certificate-data: $($b64 < "$3/$4.crt")
    client-key-data: $($b64 < "$3/$4.key")
contexts:
- name: $5
  context: { cluster: control-plane, user: $5 }
current-context: $5
KUBECONFIG
  chmod 600 "$1"
}

# Shared by build.sh, up.sh and down.sh: where the binaries live and what they are built from.
# Sourced, not run.

control_plane_module_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

# The version of a required module as go.mod pins it (no `go` needed, so down.sh works anywhere).
# control_plane_module_version MODULE [GO_MOD]: GO_MOD defaults to the control plane's own.
control_plane_module_version() {
  sed -n "s|^[[:space:]]*$1 \(v[^ ]*\).*|\1|p" "${2:-$control_plane_module_dir/go.mod}" | head -n1
}

# One cache folder per pinned pair of versions: changing go.mod builds anew, never mixes binaries.
control_plane_version() {
  echo "kubernetes-$(control_plane_module_version k8s.io/kubernetes)-etcd-$(control_plane_module_version go.etcd.io/etcd/server/v3)"
}

control_plane_bin_dir() {
  echo "${FLOWOPS_CACHE:-$HOME/.cache/flowops}/control-plane/$(control_plane_version)/bin"
}

# Flux's controllers come from a module of their own (flux/go.mod says why), cached beside it.
flux_module_dir="$control_plane_module_dir/flux"
flux_version() {
  local m="$flux_module_dir/go.mod"
  echo "flux-source-controller-$(control_plane_module_version github.com/fluxcd/source-controller "$m")-kustomize-controller-$(control_plane_module_version github.com/fluxcd/kustomize-controller "$m")"
}
flux_dir() { echo "${FLOWOPS_CACHE:-$HOME/.cache/flowops}/control-plane/$(flux_version)"; }

# Alertmanager (the notification tests' receiver) from a module of its own too, cached beside them.
alertmanager_module_dir="$control_plane_module_dir/alertmanager"
alertmanager_dir() {
  local v
  v=$(control_plane_module_version github.com/prometheus/alertmanager "$alertmanager_module_dir/go.mod")
  echo "${FLOWOPS_CACHE:-$HOME/.cache/flowops}/control-plane/alertmanager-$v"
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
    source-controller) echo github.com/fluxcd/source-controller ;;
    kustomize-controller) echo github.com/fluxcd/kustomize-controller ;;
    alertmanager) echo github.com/prometheus/alertmanager/cmd/alertmanager ;;
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

# build_components MODULE_DIR BIN_DIR COMPONENT...: builds each component that is missing in
# BIN_DIR (or was built by another recipe) from MODULE_DIR's go.mod/go.sum. Go is needed only for
# what is missing: a machine with a filled cache runs without it.
build_components() {
  local module_dir=$1 bin=$2 component package ldflags recipe start
  shift 2
  (
  cd "$module_dir"
  # The build environment, set once before the first build. Small binaries (no symbol tables, no
  # local paths) and a build that leaves a core to the others on the machine. CGO is off: the
  # release builds of these components are static too. Only the module proxy, checked against
  # go.sum: no fallback to fetching from version control (`direct`), no toolchain download.
  go_env_ready=
  prepare_go_env() {
    [ -n "$go_env_ready" ] && return 0
    local reason
    reason=$("$control_plane_module_dir/check-go.sh" "$module_dir") || { echo "control-plane: cannot build here: $reason" >&2; exit 1; }
    export CGO_ENABLED=0 GOMAXPROCS=${GOMAXPROCS:-2} GOTOOLCHAIN=local
    GOPROXY=$(go env GOPROXY); GOPROXY=${GOPROXY%,direct}; GOPROXY=${GOPROXY%|direct}
    if [ "$GOPROXY" = direct ] || [ "$GOPROXY" = off ]; then echo "control-plane: GOPROXY=$GOPROXY: set it to a Go module proxy" >&2; exit 1; fi
    export GOPROXY GOFLAGS="-trimpath -buildvcs=false -mod=readonly"
    go_env_ready=1
  }

  for component in "$@"; do
    package=$(control_plane_package "$component")
    ldflags="-s -w $(control_plane_version_ldflags "$component")"
    # What the binary was built with sits beside it: a changed recipe (go.mod is already in the
    # folder's name) builds it again instead of keeping a stale one.
    recipe="$package $ldflags"
    if [ -x "$bin/$component" ] && [ "$(cat "$bin/.$component.recipe" 2>/dev/null)" = "$recipe" ]; then continue; fi
    prepare_go_env
    echo "control-plane: building $component ($package) into $bin" >&2
    start=$(date +%s)
    go build -p 2 -ldflags="$ldflags" -o "$bin/.$component.tmp" "$package" >&2
    mv "$bin/.$component.tmp" "$bin/$component"
    echo "$recipe" > "$bin/.$component.recipe"
    echo "control-plane: built $component in $(( $(date +%s) - start ))s" >&2
  done
  )
}

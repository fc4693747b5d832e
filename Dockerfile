# syntax=docker/dockerfile:1
# FlowOps image: `flowops run` (leader-elected controllers) and `flowops worker` (reconcile workers).
# The build stage bundles the CLI into dist/ and the web view into ui/dist (`npm run build`, with
# the dev dependencies); the image is production node_modules + bin/ + dist/ + ui/dist + the
# vendored OpenAPI schemas + package*.json, plus the helm and kustomize binaries that `template`
# steps run and python3/bash for `script` steps. With no src/ beside it, bin/flowops.js runs dist/.
#
#   docker build -t ghcr.io/flowops/flowops:0.1.0 .
#   docker buildx build --platform linux/amd64,linux/arm64 -t ghcr.io/flowops/flowops:0.1.0 .
#
# test/packaging/dockerfile.test.ts checks that every COPY source exists and that the entrypoint
# runs from a clean production install (no Docker engine is needed for that).

ARG NODE_IMAGE=node:20-bookworm-slim

# ---- tools: official helm 4 and kustomize 5 release archives, checksum-verified ----------------
FROM debian:bookworm-slim AS tools
ARG TARGETARCH
ARG HELM_VERSION=v4.1.4
ARG KUSTOMIZE_VERSION=v5.7.1
# Optional pinned sha256 of the archives for $TARGETARCH. When empty, the checksum the project
# publishes next to the archive is used (helm: <archive>.sha256sum; kustomize: checksums.txt).
# Pin these in a release pipeline so a compromised download host cannot swap both files.
ARG HELM_SHA256=
ARG KUSTOMIZE_SHA256=
RUN apt-get update \
 && apt-get install -y --no-install-recommends ca-certificates curl \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /tools
SHELL ["/bin/bash", "-o", "pipefail", "-c"]
RUN arch="${TARGETARCH:-$(dpkg --print-architecture)}" \
 && helm_tgz="helm-${HELM_VERSION}-linux-${arch}.tar.gz" \
 && curl -fsSLo "${helm_tgz}" "https://get.helm.sh/${helm_tgz}" \
 && sum="${HELM_SHA256:-$(curl -fsSL "https://get.helm.sh/${helm_tgz}.sha256sum" | awk '{print $1}')}" \
 && echo "${sum}  ${helm_tgz}" | sha256sum -c - \
 && tar -xzf "${helm_tgz}" --strip-components=1 "linux-${arch}/helm" \
 && kz_tgz="kustomize_${KUSTOMIZE_VERSION}_linux_${arch}.tar.gz" \
 && kz_base="https://github.com/kubernetes-sigs/kustomize/releases/download/kustomize%2F${KUSTOMIZE_VERSION}" \
 && curl -fsSLo "${kz_tgz}" "${kz_base}/${kz_tgz}" \
 && sum="${KUSTOMIZE_SHA256:-$(curl -fsSL "${kz_base}/checksums.txt" | awk -v f="${kz_tgz}" '$2 == f {print $1}')}" \
 && test -n "${sum}" \
 && echo "${sum}  ${kz_tgz}" | sha256sum -c - \
 && tar -xzf "${kz_tgz}" kustomize \
 && chmod 0755 helm kustomize \
 && ./helm version --short && ./kustomize version

# ---- build: dist/ (the CLI bundled by esbuild) and ui/dist (Vite), with the dev dependencies ----
FROM ${NODE_IMAGE} AS build
RUN apt-get update \
 && apt-get install -y --no-install-recommends ca-certificates python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json tsconfig.json ./
COPY scripts ./scripts
COPY bin ./bin
COPY src ./src
COPY ui ./ui
RUN npm ci --no-audit --no-fund \
 && test -f dist/main.js && test -f ui/dist/index.html

# ---- deps: production node_modules -----------------------------------------------------------
FROM ${NODE_IMAGE} AS deps
# better-sqlite3 downloads a prebuilt binary in its install script; the toolchain is the fallback
# for platforms without one. None of it reaches the runtime stage.
RUN apt-get update \
 && apt-get install -y --no-install-recommends ca-certificates python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /app
# The root postinstall (scripts/install-tools.mjs) runs too; it exits quietly because the
# devDependency holding kubectl/helm is not installed with --omit=dev. So does `prepare`
# (scripts/build.mjs), which has no src/ here and leaves the building to the build stage.
COPY package.json package-lock.json ./
COPY scripts ./scripts
RUN npm ci --omit=dev --no-audit --no-fund \
 && npm cache clean --force

# ---- runtime ---------------------------------------------------------------------------------
FROM ${NODE_IMAGE}
# python3 + bash: `script` steps. tini: PID 1 that reaps the grandchildren script steps may leave
# behind and forwards SIGTERM to node (which releases the lease / the current job).
# ca-certificates: TLS for scripts and tools. No git: sources use isomorphic-git.
RUN apt-get update \
 && apt-get install -y --no-install-recommends bash ca-certificates python3 tini \
 && rm -rf /var/lib/apt/lists/* \
 && groupadd --gid 65532 flowops \
 && useradd --uid 65532 --gid 65532 --home-dir /home/flowops --create-home --shell /usr/sbin/nologin flowops \
 && mkdir -p /data \
 && chown 65532:65532 /data
COPY --from=tools /tools/helm /tools/kustomize /usr/local/bin/
WORKDIR /app
# Application files stay root-owned: the process cannot modify its own code.
COPY --from=deps /app/node_modules ./node_modules
COPY package.json package-lock.json ./
COPY bin ./bin
COPY --from=build /app/dist ./dist
COPY --from=build /app/ui/dist ./ui/dist
COPY src/apiserver/openapi/vendor ./src/apiserver/openapi/vendor
# The root filesystem is read-only in the shipped manifests; /tmp and /data are emptyDir volumes.
# helm keeps its cache/config under the XDG dirs.
ENV NODE_ENV=production \
    HOME=/home/flowops \
    XDG_CACHE_HOME=/tmp/.cache \
    XDG_CONFIG_HOME=/tmp/.config \
    XDG_DATA_HOME=/tmp/.local/share \
    FLOWOPS_HELM=/usr/local/bin/helm \
    FLOWOPS_KUSTOMIZE=/usr/local/bin/kustomize
USER 65532:65532
EXPOSE 8080 8081
ENTRYPOINT ["/usr/bin/tini", "--", "node", "/app/bin/flowops.js"]
CMD ["run"]

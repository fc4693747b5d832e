// The embedded server's defaults, in a module of their own so the CLI can show them in --help
// without loading the server.

/** kube-apiserver's secure port, where kubectl users expect an API server. */
export const DEFAULT_PORT = 6443;
/**
 * The Kubernetes version whose API the embedded server follows: /version reports it unless told
 * otherwise, and the vendored OpenAPI schemas (scripts/gen-openapi.ts) are this release's. The real
 * tier (scripts/control-plane) runs the same kube-apiserver.
 */
export const KUBERNETES_VERSION = '1.34.4';
export const DEFAULT_KUBERNETES_VERSION = KUBERNETES_VERSION;
/** Where Services' cluster IPs come from (kube-apiserver's --service-cluster-ip-range default). */
export const DEFAULT_SERVICE_CIDR = '10.96.0.0/12';
/** How long an Event is kept after its last write (kube-apiserver's --event-ttl default). */
export const DEFAULT_EVENT_TTL_MS = 60 * 60 * 1000;

/** Stored objects the server keeps in memory, most recently used first, and the MiB of their JSON at most. */
export const DEFAULT_STORAGE_CACHE_OBJECTS = 10_000;
export const DEFAULT_STORAGE_CACHE_MIB = 64;

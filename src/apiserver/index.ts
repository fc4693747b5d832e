import { mkdirSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { CrdAdmission } from './crd/crd-admission.js';
import {
  DEFAULT_EVENT_TTL_MS,
  DEFAULT_KUBERNETES_VERSION,
  DEFAULT_PORT,
  DEFAULT_SERVICE_CIDR,
} from './server-defaults.js';
import { CrdController } from './crd/crd-controller.js';
import { CustomResourceAdmission } from './crd/cr-admission.js';
import { BuiltinValidation } from './objects/builtin-validation.js';
import { BuiltinDefaulting, DefaultAdmissionPlugins, ServiceAllocation } from './defaults/index.js';
import { BuiltinFieldAdmission } from './openapi/builtin-field-admission.js';
import { EventAdmission } from './objects/event-admission.js';
import { ReplicasValidation } from './validation/replicas.js';
import { ServiceAllocator, type ServiceSource } from './defaults/service-allocator.js';
import { ServiceCidr } from './defaults/service-cidr.js';
import { Discovery } from './http/discovery.js';
import { GarbageCollector } from './gc/garbage-collector.js';
import { EventExpiry } from './events/event-ttl.js';
import { OpenApiV3 } from './http/openapi.js';
import { AdmissionChain } from './admission/index.js';
import { AdmissionConfigStorage } from './admission/config-storage.js';
import { ServiceAccountToken } from './admission/service-account-token.js';
import { DefaultServiceAccounts } from './controllers/default-service-accounts.js';
import { BuiltinAdmissionPlugins } from './admission/plugins/index.js';
import { createHttpServer, sharePort, type HttpContext } from './http/server.js';
import { createAuth, type AuthOptions } from './auth/index.js';
import { ObjectStore } from './objects/object-store.js';
import { ResourceRegistry } from './registry/resource-registry.js';
import { openSqliteBackend, type Backend, type CacheLimits } from './storage/index.js';
import type { WatchSettings } from './http/watch.js';
import { DEFAULT_WATCH_MEMORY, WatchBudget, type WatchMemoryLimits } from './http/watch-budget.js';
import { terminatedWatchersCounter } from './http/watch-metrics.js';
import { requestCounter } from './http/request-metrics.js';
import type { Registry } from 'prom-client';
import { storageKey, type JsonObject } from './registry/types.js';
import type { CsrSigner } from './auth/csr-signing.js';
import { ensureBootstrapObjects } from './bootstrap/ensure.js';
import { IpAddressRecords } from './bootstrap/ip-address-records.js';
import { keepGoing, stderrLoopFault, type LoopFault } from '../log/keep-going.js';

export interface ApiServerOptions {
  host?: string;
  port?: number;
  dataDir: string;
  /** What /version reports, e.g. "1.34.4"; the kubectl dispatcher picks its binary by the minor. */
  kubernetesVersion?: string;
  /** Revisions kept behind the current one when compacting. */
  compactRetain?: number;
  compactIntervalMs?: number;
  watch?: Partial<WatchSettings>;
  /** Memory watch responses may hold for clients that read slower than the server writes. */
  watchMemory?: Partial<WatchMemoryLimits>;
  /** Where the server's own metrics go (`apiserver_terminated_watchers_total`); none when absent. */
  metrics?: Registry;
  onInternalError?: (err: unknown, req: IncomingMessage) => void;
  /** Hears of a throw in a background loop (GC, aggregation, event expiry, compaction…); default: stderr. */
  onBackgroundError?: LoopFault;
  /** Serve only the API groups this accepts (e.g. the view API server: `*.view.dcontroller.io`); all are stored as usual. */
  serveGroup?: (group: string) => boolean;
  /** PEM key and certificate: serve HTTPS; client certificates signed by clientCa authenticate (CN user, O groups). */
  tls?: { key: string; cert: string; clientCa?: string };
  /** The CA's files, to sign approved CSRs of the built-in signers (kubernetes.io/kube-apiserver-client, …). */
  csrSigner?: CsrSigner;
  /** With tls: plain HTTP on the same port too, for the routes browsers and git reach (see sharePort). */
  plainHttpToo?: boolean;
  /** Authentication and RBAC; without it every request is allowed (the in-process test servers). */
  auth?: AuthOptions;
  /** How long an Event is kept after its last write (kube-apiserver's `--event-ttl`, default 1 h). */
  eventTtlMs?: number;
  /** How much of the store stays in memory (default DEFAULT_CACHE_LIMITS); reads past it go to SQLite. */
  storageCache?: Partial<CacheLimits>;
  /** Where Services' cluster IPs come from (`--service-cidr`); the `kubernetes` Service has its first address. */
  serviceCidr?: string;
  /**
   * A `default` ServiceAccount in every namespace, as kube-controller-manager keeps (on unless false:
   * the ServiceAccount admission plugin refuses a Pod whose account does not exist).
   */
  defaultServiceAccounts?: boolean;
}

export type ExtraRoute = (req: IncomingMessage, res: ServerResponse, url: URL) => Promise<boolean> | boolean;

export interface ApiServer {
  readonly url: string;
  /** Where the plain-HTTP routes (web view, Git, metrics) are: url itself unless plainHttpToo. */
  readonly httpUrl: string;
  readonly host: string;
  readonly port: number;
  readonly registry: ResourceRegistry;
  readonly objects: ObjectStore;
  readonly store: Backend;
  /**
   * Mounts handlers beside the Kubernetes API on the same listener. They see a request before the
   * API server's authentication (the web view and Git have guards of their own) unless
   * `behindAuth`: then, as kube-apiserver's /metrics, only an authenticated user whom RBAC allows
   * the path (a nonResourceURL) reaches it.
   */
  addRoute(route: ExtraRoute, opts?: { behindAuth?: boolean }): void;
  close(): Promise<void>;
}

export { DEFAULT_KUBERNETES_VERSION, DEFAULT_PORT, DEFAULT_SERVICE_CIDR };
const SYSTEM_NAMESPACES = ['default', 'kube-system', 'kube-public', 'kube-node-lease'];

export class DataDirError extends Error {}

export async function startApiServer(opts: ApiServerOptions): Promise<ApiServer> {
  const host = opts.host ?? '127.0.0.1';
  const serviceCidr = new ServiceCidr(opts.serviceCidr ?? DEFAULT_SERVICE_CIDR);
  let store: Backend;
  try {
    mkdirSync(opts.dataDir, { recursive: true });
    store = openSqliteBackend(join(opts.dataDir, 'state.db'), opts.storageCache);
  } catch (e) {
    const code = (e as { code?: string }).code;
    const why = code === 'SQLITE_BUSY' ? 'it is in use by another FlowOps API server' : (e as Error).message;
    throw new DataDirError(`cannot use data directory ${opts.dataDir}: ${why}`);
  }
  const registry = new ResourceRegistry();
  const objects = new ObjectStore(store, opts.onBackgroundError ?? stderrLoopFault);
  const services = new ServiceAllocator(serviceCidr, storedServices(registry, objects));
  objects.onWrite(services.onWrite, 'service-allocator');
  objects.addAdmission(new BuiltinFieldAdmission());
  objects.addAdmission(new EventAdmission());
  objects.addAdmission(new BuiltinDefaulting());
  // v1's defaults of the admissionregistration kinds come before their validation, as decoding gives them.
  objects.addAdmission(new AdmissionConfigStorage());
  const plugins = new BuiltinAdmissionPlugins(objects, registry);
  objects.addAdmission(plugins.before);
  const namespaces = registry.builtin('', 'v1', 'namespaces');
  objects.addAdmission(
    new BuiltinValidation((name) => {
      const ns = objects.getStored(namespaces, undefined, name) ? objects.get(namespaces, undefined, name) : undefined;
      const labels = ns?.metadata;
      return labels && typeof labels === 'object' && !Array.isArray(labels) && typeof labels.labels === 'object'
        ? (labels.labels as JsonObject)
        : undefined;
    }),
  );
  objects.addAdmission(new ReplicasValidation());
  objects.addStorageStep(new DefaultAdmissionPlugins());
  objects.addStorageStep(new ServiceAccountToken(objects, registry));
  objects.addStorageStep(plugins.after);
  objects.addStorageStep(new ServiceAllocation(services));
  objects.addAdmission(new CrdAdmission(registry));
  objects.addAdmission(new CustomResourceAdmission());
  const crds = new CrdController(registry, objects);
  objects.onWrite(crds.onWrite, 'crd-controller');
  crds.loadAll();
  const gc = new GarbageCollector(registry, objects);
  objects.onWrite(gc.onWrite, 'garbage-collector');
  gc.start();
  const eventExpiry = new EventExpiry(
    objects,
    registry.lookup('', 'v1', 'events')!,
    opts.eventTtlMs ?? DEFAULT_EVENT_TTL_MS,
  );
  objects.onWrite(eventExpiry.onWrite, 'event-expiry');
  eventExpiry.loadAll();
  eventExpiry.start();
  ensureNamespaces(registry, objects);
  if (opts.defaultServiceAccounts !== false) {
    const accounts = new DefaultServiceAccounts(registry, objects);
    objects.onWrite(accounts.onWrite, 'default-service-accounts');
    accounts.backfill();
  }
  const ipRecords = new IpAddressRecords(registry, objects);
  objects.onWrite(ipRecords.onWrite, 'ip-address-records');
  ipRecords.backfill();
  const clientCa = opts.tls?.clientCa;
  ensureBootstrapObjects(registry, objects, { serviceCidr: serviceCidr.cidr, ...(clientCa ? { clientCa } : {}) });

  let address = `${host}:${opts.port ?? DEFAULT_PORT}`;
  const version = opts.kubernetesVersion ?? DEFAULT_KUBERNETES_VERSION;
  const [major, minor] = version.split('.');
  const extraRoutes: ExtraRoute[] = [];
  const authenticatedRoutes: ExtraRoute[] = [];
  const auth = opts.auth ? await createAuth(opts.auth, registry, objects) : undefined;
  const countRequest = requestCounter(opts.metrics);
  const ctx: HttpContext = {
    registry,
    objects,
    watch: { bookmarkIntervalMs: 60_000, defaultTimeoutSeconds: 1800, ...opts.watch },
    watchBudget: new WatchBudget(
      { ...DEFAULT_WATCH_MEMORY, ...opts.watchMemory },
      terminatedWatchersCounter(opts.metrics),
    ),
    discovery: new Discovery(registry, () => address),
    openapi: new OpenApiV3(registry),
    admission: new AdmissionChain(objects, registry),
    versionInfo: {
      major,
      minor,
      gitVersion: `v${version}`,
      gitCommit: 'flowops-embedded',
      gitTreeState: 'clean',
      buildDate: '2026-01-01T00:00:00Z',
      goVersion: 'go1.24.12',
      compiler: 'gc',
      platform: 'linux/amd64',
    },
    extraRoutes,
    authenticatedRoutes,
    onInternalError: opts.onInternalError ?? ((err) => console.error(err)),
    ...(opts.serveGroup ? { serveGroup: opts.serveGroup } : {}),
    ...(opts.tls ? { tls: opts.tls } : {}),
    ...(auth ? { auth } : {}),
    ...(countRequest ? { countRequest } : {}),
    ...(opts.csrSigner ? { csrSigner: opts.csrSigner } : {}),
  };
  const server: Server = createHttpServer(ctx);
  const { tls: _tls, ...plainCtx } = ctx;
  const plain = opts.tls && opts.plainHttpToo ? createHttpServer(plainCtx) : undefined;
  const listener = plain ? sharePort(server, plain) : server;
  await new Promise<void>((resolve, reject) => {
    listener.once('error', reject);
    listener.listen(opts.port ?? DEFAULT_PORT, host, () => {
      listener.off('error', reject);
      resolve();
    });
  }).catch((e: unknown) => {
    eventExpiry.stop();
    store.close();
    throw e;
  });
  const port = (listener.address() as AddressInfo).port;
  address = `${host}:${port}`;
  ensureKubernetesService(registry, objects, serviceCidr, port);
  const retain = opts.compactRetain ?? 10_000;
  const compact = (): void => store.compact(store.currentRevision() - retain);
  const compactEvery = opts.compactIntervalMs ?? 60_000;
  const compactor = setInterval(() => void keepGoing('compactor', objects.onFault, compact), compactEvery);
  compactor.unref();

  const hostPort = `${host.includes(':') ? `[${host}]` : host}:${port}`;
  const url = `${opts.tls ? 'https' : 'http'}://${hostPort}`;
  return {
    url,
    httpUrl: plain ? `http://${hostPort}` : url,
    host,
    port,
    registry,
    objects,
    store,
    addRoute: (r, o) => void (o?.behindAuth ? authenticatedRoutes : extraRoutes).push(r),
    close: async () => {
      clearInterval(compactor);
      eventExpiry.stop();
      gc.stop();
      // Watches end gracefully (their chunked responses are finished), then idle sockets close.
      store.endWatches();
      const servers = plain ? [server, plain] : [server];
      await new Promise<void>((resolve) => {
        listener.close(() => resolve());
        for (const s of servers) s.closeIdleConnections();
        setTimeout(() => {
          for (const s of servers) s.closeAllConnections();
        }, 2000).unref();
      });
      store.close();
    },
  };
}

function ensureNamespaces(registry: ResourceRegistry, objects: ObjectStore): void {
  const nsType = registry.lookup('', 'v1', 'namespaces')!;
  for (const name of SYSTEM_NAMESPACES) {
    if (!objects.getStored(nsType, undefined, name)) {
      // Labelled with its name by the Namespace defaulting, like every namespace.
      const ns: JsonObject = { apiVersion: 'v1', kind: 'Namespace', metadata: { name } };
      objects.create(nsType, undefined, ns);
    }
  }
}

function storedServices(registry: ResourceRegistry, objects: ObjectStore): ServiceSource {
  return {
    list: () => {
      const t = registry.lookup('', 'v1', 'services')!;
      return objects.list(t, undefined).items.map((text) => {
        const object = JSON.parse(text) as JsonObject;
        const meta = object.metadata as JsonObject;
        return { key: storageKey(t, String(meta.namespace), String(meta.name)), object };
      });
    },
  };
}

/**
 * The `kubernetes` Service in `default`, at the service CIDR's first address, pointing at this
 * server's port: what kube-apiserver's controlplane reconciler keeps (pkg/controlplane/controller/kubernetesservice).
 */
function ensureKubernetesService(
  registry: ResourceRegistry,
  objects: ObjectStore,
  cidr: ServiceCidr,
  port: number,
): void {
  const t = registry.lookup('', 'v1', 'services')!;
  const ports = [{ name: 'https', port: 443, protocol: 'TCP', targetPort: port }];
  const current = objects.getStored(t, 'default', 'kubernetes');
  if (!current) {
    objects.create(t, 'default', {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: {
        name: 'kubernetes',
        namespace: 'default',
        labels: { component: 'apiserver', provider: 'kubernetes' },
      },
      spec: { clusterIP: cidr.apiServerIP, ports, sessionAffinity: 'None', type: 'ClusterIP' },
    });
    return;
  }
  const svc = JSON.parse(current.value) as JsonObject;
  const spec = svc.spec as JsonObject;
  if (JSON.stringify(spec.ports) === JSON.stringify(ports)) return;
  spec.ports = ports;
  objects.update(t, 'default', 'kubernetes', svc);
}

// faces:begin (scripts/faces.ts writes this block: what other parts import from this one)
export { VIEW_GROUP_SUFFIX, isViewGroup } from './crd/view-groups.js';
export { parseResourcePath } from './http/request-info.js';
export { sendJson } from './http/respond.js';
export { errors } from './http/status.js';
export type { Admission, Operation, WriteOptions } from './objects/object-store.js';
export type { JsonObject, ResourceType } from './registry/types.js';
// faces:end

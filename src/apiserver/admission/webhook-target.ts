import type { ObjectStore } from '../objects/object-store.js';
import type { ResourceRegistry } from '../registry/resource-registry.js';
import type { JsonObject, JsonValue } from '../registry/types.js';
import { type WebhookTarget, WebhookCallError } from './webhook-client.js';

/**
 * Where a webhook's clientConfig points: its url, or its service resolved through the Service's
 * port to one ready address of its Endpoints (kube-apiserver's ServiceResolver with
 * --enable-aggregator-routing; here the endpoints are the only route; as upstream, they may not be loopback addresses). The URL
 * shown in errors stays https://name.namespace.svc:port/path, and TLS checks that name.
 */
const isMap = (v: JsonValue | undefined): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);

export function webhookTarget(
  cc: JsonObject,
  timeoutSeconds: number,
  objects: ObjectStore,
  registry: ResourceRegistry,
): WebhookTarget {
  const bundle = typeof cc.caBundle === 'string' ? cc.caBundle : '';
  const ca = bundle ? Buffer.from(bundle, 'base64').toString('utf8') : undefined;
  const base = { timeoutSeconds, ...(ca ? { ca } : {}) };
  if (typeof cc.url === 'string') return { ...base, url: new URL(cc.url) };
  const svc = isMap(cc.service) ? cc.service : {};
  const name = String(svc.name ?? '');
  const namespace = String(svc.namespace ?? '');
  const port = typeof svc.port === 'number' ? svc.port : 443;
  const path = typeof svc.path === 'string' ? svc.path : '';
  const url = new URL(`https://${name}.${namespace}.svc:${port}${path}`);
  const { host, targetPort } = resolveService(objects, registry, namespace, name, port);
  return { ...base, url, connectHost: host, connectPort: targetPort };
}

function resolveService(
  objects: ObjectStore,
  registry: ResourceRegistry,
  namespace: string,
  name: string,
  port: number,
): { host: string; targetPort: number } {
  const get = (plural: string): JsonObject | undefined => {
    const t = registry.lookup('', 'v1', plural);
    const s = t ? objects.getStored(t, namespace, name) : undefined;
    return s ? (JSON.parse(s.value) as JsonObject) : undefined;
  };
  const service = get('services');
  if (!service) throw new WebhookCallError(`failed to call webhook: service "${name}" not found`);
  const spec = isMap(service.spec) ? service.spec : {};
  const ports = Array.isArray(spec.ports) ? spec.ports.filter(isMap) : [];
  const svcPort = ports.find((p) => p.port === port);
  if (!svcPort) {
    throw new WebhookCallError(`failed to call webhook: no service port ${port} found for service "${name}"`);
  }
  const endpoints = get('endpoints');
  const subsets = endpoints && Array.isArray(endpoints.subsets) ? endpoints.subsets.filter(isMap) : [];
  for (const subset of subsets) {
    const addresses = Array.isArray(subset.addresses) ? subset.addresses.filter(isMap) : [];
    const epPorts = Array.isArray(subset.ports) ? subset.ports.filter(isMap) : [];
    const epPort = epPorts.find((p) => (svcPort.name ? p.name === svcPort.name : true));
    const ip = addresses[0]?.ip;
    if (typeof ip === 'string' && typeof epPort?.port === 'number') return { host: ip, targetPort: epPort.port };
  }
  throw new WebhookCallError(`failed to call webhook: no endpoints available for service "${name}"`);
}

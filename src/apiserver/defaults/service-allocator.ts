import { ApiError, errors, type StatusCause } from '../http/status.js';
import type { Operation } from '../objects/object-store.js';
import type { JsonObject, JsonValue, ResourceType } from '../registry/types.js';
import type { StoreEvent } from '../storage/index.js';
import { existingObject, objectAt, objectsIn } from './fields.js';
import type { ServiceCidr } from './service-cidr.js';

/** `--service-node-port-range`'s default. */
export const NODE_PORT_RANGE = { min: 30000, max: 32767 };

/** What one Service holds, by storage key. */
interface Holding {
  ips: string[];
  nodePorts: number[];
}

/** The Services stored now, for the allocator to read what is taken (it never lists them itself after the first time). */
export interface ServiceSource {
  list(): Array<{ key: string; object: JsonObject }>;
}

/**
 * What kube-apiserver's Service REST storage does on top of defaulting
 * (pkg/registry/core/service/storage/alloc.go, single-stack IPv4): ipFamilies and ipFamilyPolicy,
 * a clusterIP (and clusterIPs) from the service CIDR, node ports for NodePort and LoadBalancer
 * Services (and a healthCheckNodePort for externalTrafficPolicy Local); on update what the client
 * left out is kept from the stored object (patchAllocatedValues) and a set cluster IP may not
 * change. An address or port is never given to two Services: what is taken is what the stored
 * Services hold, kept current from every write (a deleted Service frees its own). A requested one
 * outside the range or taken is a 422 naming the field.
 */
export class ServiceAllocator {
  private holdings: Map<string, Holding> | undefined;
  private readonly ipOwner = new Map<string, string>();
  private readonly portOwner = new Map<number, string>();

  constructor(
    private readonly cidr: ServiceCidr,
    private readonly source: ServiceSource,
  ) {}

  /** Write listener: keeps what is taken current. */
  readonly onWrite = (t: ResourceType, e: StoreEvent, obj: JsonObject): void => {
    if (t.custom || t.group !== '' || t.kind !== 'Service' || !this.holdings) return;
    this.release(e.key);
    if (e.type !== 'delete') this.hold(e.key, obj);
  };

  allocate(t: ResourceType, key: string, op: Operation, obj: JsonObject, old: JsonObject | undefined): void {
    this.load();
    const name = String(objectAt(obj, 'metadata').name ?? '');
    const spec = objectAt(obj, 'spec');
    const oldSpec = old && op === 'UPDATE' ? existingObject(old, 'spec') : undefined;
    if (oldSpec) dropTypeDependentFields(spec, oldSpec);
    const causes: StatusCause[] = [];
    if (spec.type === 'ExternalName') {
      if (typeof spec.clusterIP === 'string' && spec.clusterIP !== '') {
        causes.push({
          reason: 'FieldValueForbidden',
          message: 'Forbidden: may not be set for ExternalName services',
          field: 'spec.clusterIPs',
        });
      }
    } else {
      if (oldSpec && oldSpec.type !== 'ExternalName') keepClusterIPs(spec, oldSpec);
      this.clusterIPs(key, spec, oldSpec, causes);
    }
    if (!causes.length) this.nodePorts(key, spec, oldSpec, causes);
    if (causes.length) throw errors.invalid(t, name, causes);
  }

  private clusterIPs(key: string, spec: JsonObject, oldSpec: JsonObject | undefined, causes: StatusCause[]): void {
    const given = typeof spec.clusterIP === 'string' ? spec.clusterIP : '';
    const list = Array.isArray(spec.clusterIPs)
      ? spec.clusterIPs.filter((x): x is string => typeof x === 'string')
      : [];
    if (given && list.length && list[0] !== given) {
      causes.push(invalidValue('spec.clusterIPs', list, 'must match first value of clusterIP when both are specified'));
      return;
    }
    const requested = given || list[0] || '';
    const headless = requested === 'None';
    // initIPFamilyFields: single-stack IPv4; a headless Service without a selector asks for dual stack.
    const selector = existingObject(spec, 'selector');
    if (spec.ipFamilyPolicy == null)
      spec.ipFamilyPolicy =
        headless && (!selector || Object.keys(selector).length === 0) ? 'RequireDualStack' : 'SingleStack';
    if (
      spec.ipFamilyPolicy === 'RequireDualStack' &&
      !(headless && (!selector || Object.keys(selector).length === 0))
    ) {
      causes.push(
        invalidValue(
          'spec.ipFamilyPolicy',
          'RequireDualStack',
          'this cluster is not configured for dual-stack services',
        ),
      );
      return;
    }
    const families = Array.isArray(spec.ipFamilies) ? spec.ipFamilies : [];
    if (families.some((f) => f !== 'IPv4')) {
      const i = families.findIndex((f) => f !== 'IPv4');
      causes.push(invalidValue(`spec.ipFamilies[${i}]`, families[i] ?? null, 'not configured on this cluster'));
      return;
    }
    spec.ipFamilies = ['IPv4'];
    if (list.length > 1) {
      causes.push(
        invalidValue(
          'spec.clusterIPs',
          list,
          'this cluster is not configured for dual-stack services: only one cluster IP may be given',
        ),
      );
      return;
    }
    if (
      oldSpec &&
      typeof oldSpec.clusterIP === 'string' &&
      oldSpec.clusterIP &&
      oldSpec.type !== 'ExternalName' &&
      requested !== oldSpec.clusterIP
    ) {
      // validateUpgradeDowngradeClusterIPs shows the whole list as the value.
      causes.push(invalidValue('spec.clusterIPs[0]', list.length ? list : [requested], 'may not change once set'));
      return;
    }
    let ip = requested;
    if (headless) ip = 'None';
    else if (!ip) {
      const free = this.freeIP();
      if (!free)
        throw new ApiError(
          500,
          'InternalError',
          'Internal error occurred: failed to allocate a serviceIP: range is full',
        );
      ip = free;
    } else if (!isIPv4Text(ip)) {
      causes.push(
        invalidValue('spec.clusterIPs[0]', ip, 'must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)'),
      );
      return;
    } else if (!this.cidr.contains(ip)) {
      // kube-apiserver v1.34's ServiceCIDR allocator (ipallocator.ErrMismatchedNetwork); the network
      // and broadcast addresses of the range get the same answer.
      causes.push(
        invalidValue(
          'spec.clusterIPs',
          [ip],
          `failed to allocate IP ${ip}: the provided network does not match the current range`,
        ),
      );
      return;
    } else if (this.ipOwner.has(ip) && this.ipOwner.get(ip) !== key) {
      causes.push(
        invalidValue('spec.clusterIPs', [ip], `failed to allocate IP ${ip}: provided IP is already allocated`),
      );
      return;
    }
    spec.clusterIP = ip;
    spec.clusterIPs = [ip];
  }

  private nodePorts(key: string, spec: JsonObject, oldSpec: JsonObject | undefined, causes: StatusCause[]): void {
    const ports = objectsIn(spec, 'ports');
    if (!needsNodePorts(spec)) return;
    if (oldSpec && needsNodePorts(oldSpec)) keepNodePorts(ports, objectsIn(oldSpec, 'ports'));
    // A port number serves one Service, but TCP and UDP of the same Service may share it.
    const mine = new Set<number>();
    ports.forEach((p, i) => {
      const n = p.nodePort;
      if (n == null || n === 0) return;
      const field = `spec.ports[${i}].nodePort`;
      if (typeof n !== 'number' || !Number.isInteger(n)) causes.push(invalidValue(field, n, 'must be an integer'));
      else if (n < NODE_PORT_RANGE.min || n > NODE_PORT_RANGE.max) {
        causes.push(
          invalidValue(
            field,
            n,
            `provided port is not in the valid range. The range of valid ports is ${NODE_PORT_RANGE.min}-${NODE_PORT_RANGE.max}`,
          ),
        );
      } else if (this.portOwner.has(n) && this.portOwner.get(n) !== key)
        causes.push(invalidValue(field, n, 'provided port is already allocated'));
      else mine.add(n);
    });
    if (causes.length) return;
    for (const p of ports) {
      if (p.nodePort != null && p.nodePort !== 0) continue;
      const n = this.freePort(mine);
      if (n === undefined)
        throw new ApiError(
          500,
          'InternalError',
          'Internal error occurred: failed to allocate a nodePort: range is full',
        );
      p.nodePort = n;
      mine.add(n);
    }
    if (spec.type === 'LoadBalancer' && spec.externalTrafficPolicy === 'Local') {
      if (oldSpec?.healthCheckNodePort && !spec.healthCheckNodePort)
        spec.healthCheckNodePort = oldSpec.healthCheckNodePort;
      if (!spec.healthCheckNodePort) spec.healthCheckNodePort = this.freePort(mine) ?? 0;
    }
  }

  private freeIP(): string | undefined {
    // KEP-3070: dynamic addresses come from above the static band first, so that addresses people
    // pick by hand (low in the range) are rarely taken. Offset 1 is the kubernetes Service's.
    const usable = this.cidr.size - 2;
    const staticBand = Math.min(Math.max(16, Math.floor(this.cidr.size / 16)), 256);
    const pick = (lo: number, hi: number): string | undefined => {
      const span = hi - lo + 1;
      if (span <= 0) return undefined;
      const start = Math.floor(Math.random() * span);
      for (let i = 0; i < span; i++) {
        const ip = this.cidr.at(lo + ((start + i) % span));
        if (!this.ipOwner.has(ip)) return ip;
      }
      return undefined;
    };
    return pick(staticBand + 1, usable) ?? pick(2, Math.min(staticBand, usable));
  }

  private freePort(alsoTaken: Set<number>): number | undefined {
    const span = NODE_PORT_RANGE.max - NODE_PORT_RANGE.min + 1;
    const start = Math.floor(Math.random() * span);
    for (let i = 0; i < span; i++) {
      const n = NODE_PORT_RANGE.min + ((start + i) % span);
      if (!this.portOwner.has(n) && !alsoTaken.has(n)) return n;
    }
    return undefined;
  }

  private load(): void {
    if (this.holdings) return;
    this.holdings = new Map();
    for (const { key, object } of this.source.list()) this.hold(key, object);
  }

  private hold(key: string, obj: JsonObject): void {
    const spec = existingObject(obj, 'spec') ?? {};
    const ips = (Array.isArray(spec.clusterIPs) ? spec.clusterIPs : [spec.clusterIP]).filter(
      (ip): ip is string => typeof ip === 'string' && isIPv4Text(ip),
    );
    const nodePorts = objectsIn(spec, 'ports')
      .map((p) => p.nodePort)
      .concat(spec.healthCheckNodePort ?? [])
      .filter((n): n is number => typeof n === 'number' && n > 0);
    this.holdings!.set(key, { ips, nodePorts });
    for (const ip of ips) this.ipOwner.set(ip, key);
    for (const n of nodePorts) this.portOwner.set(n, key);
  }

  private release(key: string): void {
    const h = this.holdings!.get(key);
    if (!h) return;
    this.holdings!.delete(key);
    for (const ip of h.ips) if (this.ipOwner.get(ip) === key) this.ipOwner.delete(ip);
    for (const n of h.nodePorts) if (this.portOwner.get(n) === key) this.portOwner.delete(n);
  }
}

/** patchAllocatedValues: an update that leaves out the cluster IP keeps the stored one. */
/**
 * The Service REST storage's update (pkg/registry/core/service/storage/storage.go): patchAllocatedValues
 * keeps the allocated clusterIP and clusterIPs a client left out, then normalizeClusterIPs reads what an
 * old client meant by the singular field: a changed clusterIP with clusterIPs as they were becomes
 * clusterIPs of that one IP, which validation then refuses as a change of clusterIPs[0].
 */
function keepClusterIPs(spec: JsonObject, oldSpec: JsonObject): void {
  const strings = (v: JsonValue | undefined): string[] =>
    Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
  const oldIP = typeof oldSpec.clusterIP === 'string' ? oldSpec.clusterIP : '';
  const oldIPs = strings(oldSpec.clusterIPs);
  if (!spec.clusterIP && oldIP) spec.clusterIP = oldIP;
  if (strings(spec.clusterIPs).length === 0 && oldIPs.length > 0) spec.clusterIPs = [...oldIPs];
  const ip = typeof spec.clusterIP === 'string' ? spec.clusterIP : '';
  const same = (): boolean => {
    const now = strings(spec.clusterIPs);
    return now.length === oldIPs.length && now.every((x, i) => x === oldIPs[i]);
  };
  if (oldIP === ip) return;
  if (oldIP && !ip && same()) delete spec.clusterIPs;
  if (same()) spec.clusterIPs = [ip];
}

/** patchAllocatedValues: a port left without a nodePort keeps the one its (port, protocol) had. */
function keepNodePorts(ports: JsonObject[], oldPorts: JsonObject[]): void {
  const used = new Set(ports.map((p) => p.nodePort).filter((n) => typeof n === 'number' && n > 0));
  const byPort = new Map(oldPorts.map((p) => [`${String(p.port)}/${String(p.protocol ?? 'TCP')}`, p.nodePort]));
  for (const p of ports) {
    if (p.nodePort != null && p.nodePort !== 0) continue;
    const previous = byPort.get(`${String(p.port)}/${String(p.protocol ?? 'TCP')}`);
    if (typeof previous === 'number' && previous > 0 && !used.has(previous)) p.nodePort = previous;
  }
}

function needsNodePorts(spec: JsonObject): boolean {
  return spec.type === 'NodePort' || (spec.type === 'LoadBalancer' && spec.allocateLoadBalancerNodePorts !== false);
}

function isIPv4Text(ip: string): boolean {
  return /^(?:(?:0|[1-9]\d{0,2})\.){3}(?:0|[1-9]\d{0,2})$/.test(ip) && ip.split('.').every((p) => Number(p) <= 255);
}

/** The value as kube-apiserver v1.34's field.Invalid shows it: a quoted string, a list as JSON (["10.96.0.5"]), a number. */
function goValue(v: JsonValue): string {
  if (Array.isArray(v)) return JSON.stringify(v);
  return typeof v === 'string' ? JSON.stringify(v) : String(v);
}

function invalidValue(field: string, value: JsonValue, why: string): StatusCause {
  return { reason: 'FieldValueInvalid', message: `Invalid value: ${goValue(value)}: ${why}`, field };
}

/**
 * dropTypeDependentFields (pkg/registry/core/service/storage/storage.go): a type change that no
 * longer needs what was allocated drops it, as long as the client left it as it was.
 */
function dropTypeDependentFields(spec: JsonObject, oldSpec: JsonObject): void {
  const same = (k: string) => JSON.stringify(spec[k] ?? null) === JSON.stringify(oldSpec[k] ?? null);
  if (oldSpec.type !== 'ExternalName' && spec.type === 'ExternalName') {
    for (const k of ['clusterIP', 'clusterIPs', 'ipFamilies', 'ipFamilyPolicy']) if (same(k)) delete spec[k];
  }
  if (needsNodePorts(oldSpec) && !needsNodePorts(spec)) {
    const old = new Set(objectsIn(oldSpec, 'ports').map((p) => p.nodePort));
    for (const p of objectsIn(spec, 'ports')) if (old.has(p.nodePort)) delete p.nodePort;
  }
  if (
    oldSpec.healthCheckNodePort &&
    !(spec.type === 'LoadBalancer' && spec.externalTrafficPolicy === 'Local') &&
    same('healthCheckNodePort')
  ) {
    delete spec.healthCheckNodePort;
  }
}

import { isConflict, type KubeClient, type KubeObject } from '../kube/index.js';
import type { Logger } from '../log/index.js';
import { ControlLoop, type SimulatedController } from './control-loop.js';
import { SIMULATOR_FIELD_MANAGER, type ObjectWriter } from './object-writer.js';
import { isActive, isDeleting, isPodReady, labelsMatch } from './pods.js';
import { keyOf, splitKey, type SharedInformer } from './shared-informers.js';
import type { Pod } from './types.js';

/** The label the endpoints controller puts on the Endpoints it manages (1.33+), so it removes only those. */
const MANAGED_BY = 'endpoints.kubernetes.io/managed-by';
const CONTROLLER = 'endpoint-controller';

export interface ServicePort {
  name?: string;
  port: number;
  targetPort?: number | string;
  protocol?: string;
  appProtocol?: string;
}

export interface Service extends KubeObject {
  spec?: {
    selector?: Record<string, string>;
    type?: string;
    ports?: ServicePort[];
    publishNotReadyAddresses?: boolean;
  };
}

interface Address {
  ip: string;
  targetRef: { kind: 'Pod'; name: string; namespace: string | undefined; uid: string | undefined };
}

/**
 * The endpoints controller: a Service with a selector gets an Endpoints object of its name listing
 * the simulated pods it selects (Ready ones in `addresses`, others in `notReadyAddresses`), with
 * each port's targetPort resolved against the pod (a named port by the container's port name).
 * Nothing listens on those addresses. Selector-less Services keep the Endpoints their owner writes.
 */
export class EndpointsController implements SimulatedController {
  readonly loop: ControlLoop;

  constructor(
    private readonly kube: KubeClient,
    private readonly services: SharedInformer,
    private readonly pods: SharedInformer,
    private readonly endpoints: SharedInformer,
    private readonly writer: ObjectWriter,
    log: Logger,
  ) {
    this.loop = new ControlLoop('endpoints', log, (key) => this.reconcile(key));
    services.addListener({ changed: (svc) => this.loop.enqueue(keyOf(svc)) });
    endpoints.addListener({
      changed: (ep, _old, deleted) => {
        if (deleted) this.writer.forget(ep);
        this.loop.enqueue(keyOf(ep));
      },
    });
    pods.addListener({ changed: (pod, old) => enqueueSelecting(this.services, this.loop, pod, old) });
  }

  private async reconcile(key: string): Promise<void> {
    const [ns, name] = splitKey(key);
    const svc = this.services.get(ns, name) as Service | undefined;
    const ep = this.endpoints.get(ns, name);
    if (!svc || isDeleting(svc)) {
      if (ep && ep.metadata.labels?.[MANAGED_BY] === CONTROLLER)
        await this.kube.delete({ apiVersion: 'v1', kind: 'Endpoints', namespace: ns, name });
      return;
    }
    if (!hasEndpoints(svc)) return;
    const selected = endpointPods(svc, this.pods);
    const subsets = subsetsFor(svc, selected);
    const labels = { ...svc.metadata.labels, [MANAGED_BY]: CONTROLLER };
    if (!ep) {
      const created: KubeObject = {
        apiVersion: 'v1',
        kind: 'Endpoints',
        metadata: { name, namespace: ns, labels },
        ...(subsets.length ? { subsets } : {}),
      };
      try {
        await this.kube.create(created, { fieldManager: SIMULATOR_FIELD_MANAGER });
      } catch (e) {
        if (!isConflict(e)) throw e; // created by an earlier sync the cache has not shown yet
      }
      return;
    }
    await this.writer.merge(ep, { metadata: { labels }, subsets: subsets.length ? subsets : null });
  }
}

/** Whether the endpoints controllers manage this Service's endpoints: it selects pods and is not an ExternalName. */
export function hasEndpoints(svc: Service): boolean {
  return !!svc.spec?.selector && Object.keys(svc.spec.selector).length > 0 && svc.spec.type !== 'ExternalName';
}

/** The active pods with an IP that the Service selects. */
export function endpointPods(svc: Service, pods: SharedInformer): Pod[] {
  return (pods.list() as Pod[]).filter(
    (p) =>
      p.metadata.namespace === svc.metadata.namespace &&
      selects(svc, p) &&
      isActive(p) &&
      typeof p.status?.podIP === 'string' &&
      p.status.podIP !== '',
  );
}

export function selects(svc: Service, pod: KubeObject): boolean {
  const sel = svc.spec?.selector;
  return !!sel && Object.keys(sel).length > 0 && labelsMatch(sel, pod.metadata.labels);
}

/** A pod changed: every Service that selects it, or selected it before the change, is enqueued. */
export function enqueueSelecting(
  services: SharedInformer,
  loop: ControlLoop,
  pod: KubeObject,
  old: KubeObject | undefined,
): void {
  for (const p of old ? [pod, old] : [pod]) {
    for (const svc of services.list() as Service[])
      if (svc.metadata.namespace === p.metadata.namespace && selects(svc, p)) loop.enqueue(keyOf(svc));
  }
}

/** Pods grouped by how the Service's ports resolve on them (one subset per distinct port set, as the real controller repacks them). */
function subsetsFor(svc: Service, pods: Pod[]): Array<Record<string, unknown>> {
  const groups = new Map<string, { ports: Array<Record<string, unknown>>; ready: Address[]; notReady: Address[] }>();
  for (const pod of pods) {
    const ports = (svc.spec?.ports ?? []).flatMap((p) => {
      const port = resolveTargetPort(p, pod);
      return port === undefined
        ? []
        : [
            {
              ...(p.name ? { name: p.name } : {}),
              port,
              protocol: p.protocol ?? 'TCP',
              ...(p.appProtocol ? { appProtocol: p.appProtocol } : {}),
            },
          ];
    });
    const id = JSON.stringify(ports);
    let g = groups.get(id);
    if (!g) groups.set(id, (g = { ports, ready: [], notReady: [] }));
    const address: Address = {
      ip: pod.status!.podIP as string,
      targetRef: { kind: 'Pod', name: pod.metadata.name!, namespace: pod.metadata.namespace, uid: pod.metadata.uid },
    };
    (svc.spec?.publishNotReadyAddresses || isPodReady(pod) ? g.ready : g.notReady).push(address);
  }
  const byIp = (a: Address, b: Address): number => a.ip.localeCompare(b.ip, undefined, { numeric: true });
  return [...groups.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([, g]) => ({
      ...(g.ready.length ? { addresses: g.ready.sort(byIp) } : {}),
      ...(g.notReady.length ? { notReadyAddresses: g.notReady.sort(byIp) } : {}),
      ...(g.ports.length ? { ports: g.ports } : {}),
    }));
}

export function resolveTargetPort(p: ServicePort, pod: Pod): number | undefined {
  const target = p.targetPort ?? p.port;
  if (typeof target === 'number') return target;
  if (/^\d+$/.test(target)) return Number(target);
  for (const c of pod.spec?.containers ?? []) {
    const found = ((c.ports ?? []) as Array<{ name?: string; containerPort: number }>).find((cp) => cp.name === target);
    if (found) return found.containerPort;
  }
  return undefined;
}

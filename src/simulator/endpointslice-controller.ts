import { createHash } from 'node:crypto';
import { isConflict, type KubeClient, type KubeObject } from '../kube/index.js';
import type { Logger } from '../log/index.js';
import { ControlLoop, type SimulatedController } from './control-loop.js';
import {
  endpointPods,
  enqueueSelecting,
  hasEndpoints,
  resolveTargetPort,
  type Service,
} from './endpoints-controller.js';
import { SIMULATOR_FIELD_MANAGER, type ObjectWriter } from './object-writer.js';
import { isDeleting, isPodReady } from './pods.js';
import { keyOf, splitKey, type SharedInformer } from './shared-informers.js';
import type { Pod } from './types.js';

/** The labels the real endpointslice controller puts on its slices (discovery/v1 well-known labels). */
const SERVICE_NAME = 'kubernetes.io/service-name';
const MANAGED_BY = 'endpointslice.kubernetes.io/managed-by';
const CONTROLLER = 'endpointslice-controller.k8s.io';

/**
 * The endpointslice controller: a Service with a selector gets discovery.k8s.io/v1 EndpointSlices
 * listing the simulated pods it selects, one slice per set of resolved ports (as the real controller
 * splits them), with ready/serving conditions from the pods' Ready condition. A Service selecting
 * no pod keeps one empty slice, the real controller's placeholder. Slices are named
 * `<service>-<hash of the port set>` rather than generated, so a restart finds them again.
 */
export class EndpointSliceController implements SimulatedController {
  readonly loop: ControlLoop;

  constructor(
    private readonly kube: KubeClient,
    private readonly services: SharedInformer,
    private readonly pods: SharedInformer,
    private readonly slices: SharedInformer,
    private readonly writer: ObjectWriter,
    log: Logger,
  ) {
    this.loop = new ControlLoop('endpointslices', log, (key) => this.reconcile(key));
    services.addListener({ changed: (svc) => this.loop.enqueue(keyOf(svc)) });
    slices.addListener({
      changed: (slice, _old, deleted) => {
        if (deleted) this.writer.forget(slice);
        const svc = slice.metadata.labels?.[SERVICE_NAME];
        if (svc && slice.metadata.labels?.[MANAGED_BY] === CONTROLLER)
          this.loop.enqueue(`${slice.metadata.namespace ?? ''}/${svc}`);
      },
    });
    pods.addListener({ changed: (pod, old) => enqueueSelecting(this.services, this.loop, pod, old) });
  }

  private async reconcile(key: string): Promise<void> {
    const [ns, name] = splitKey(key);
    const svc = this.services.get(ns, name) as Service | undefined;
    const existing = this.slices
      .list()
      .filter(
        (s) =>
          s.metadata.namespace === ns &&
          s.metadata.labels?.[SERVICE_NAME] === name &&
          s.metadata.labels?.[MANAGED_BY] === CONTROLLER,
      );
    const desired = svc && !isDeleting(svc) && hasEndpoints(svc) ? slicesFor(svc, endpointPods(svc, this.pods)) : [];
    for (const slice of existing) {
      if (!desired.some((d) => d.metadata.name === slice.metadata.name))
        await this.kube.delete({
          apiVersion: 'discovery.k8s.io/v1',
          kind: 'EndpointSlice',
          namespace: ns,
          name: slice.metadata.name!,
        });
    }
    for (const want of desired) {
      const have = existing.find((s) => s.metadata.name === want.metadata.name);
      if (have) {
        await this.writer.merge(have, {
          metadata: { labels: want.metadata.labels },
          endpoints: want.endpoints,
          ports: want.ports ?? null,
        });
        continue;
      }
      try {
        await this.kube.create(want, { fieldManager: SIMULATOR_FIELD_MANAGER });
      } catch (e) {
        if (!isConflict(e)) throw e; // created by an earlier sync the cache has not shown yet
      }
    }
  }
}

function slicesFor(svc: Service, pods: Pod[]): KubeObject[] {
  const groups = new Map<
    string,
    { ports: Array<Record<string, unknown>>; endpoints: Array<Record<string, unknown>> }
  >();
  for (const pod of pods) {
    const ports = (svc.spec?.ports ?? []).flatMap((p) => {
      const port = resolveTargetPort(p, pod);
      return port === undefined
        ? []
        : [
            {
              name: p.name ?? '',
              port,
              protocol: p.protocol ?? 'TCP',
              ...(p.appProtocol ? { appProtocol: p.appProtocol } : {}),
            },
          ];
    });
    const id = JSON.stringify(ports);
    let g = groups.get(id);
    if (!g) groups.set(id, (g = { ports, endpoints: [] }));
    const ready = isPodReady(pod);
    g.endpoints.push({
      addresses: [pod.status!.podIP as string],
      conditions: { ready: ready || svc.spec?.publishNotReadyAddresses === true, serving: ready, terminating: false },
      ...(typeof pod.spec?.nodeName === 'string' ? { nodeName: pod.spec.nodeName } : {}),
      targetRef: { kind: 'Pod', name: pod.metadata.name, namespace: pod.metadata.namespace, uid: pod.metadata.uid },
    });
  }
  if (!groups.size) groups.set('placeholder', { ports: [], endpoints: [] });
  const name = svc.metadata.name!;
  const byIp = (a: Record<string, unknown>, b: Record<string, unknown>): number =>
    String((a.addresses as string[])[0]).localeCompare(String((b.addresses as string[])[0]), undefined, {
      numeric: true,
    });
  return [...groups.entries()].map(([id, g]) => ({
    apiVersion: 'discovery.k8s.io/v1',
    kind: 'EndpointSlice',
    metadata: {
      name: `${name}-${createHash('sha256').update(id).digest('hex').slice(0, 5)}`,
      namespace: svc.metadata.namespace,
      labels: { ...svc.metadata.labels, [SERVICE_NAME]: name, [MANAGED_BY]: CONTROLLER },
      ownerReferences: [
        { apiVersion: 'v1', kind: 'Service', name, uid: svc.metadata.uid!, controller: true, blockOwnerDeletion: true },
      ],
    },
    addressType: 'IPv4',
    endpoints: g.endpoints.sort(byIp),
    ...(g.ports.length ? { ports: g.ports } : {}),
  }));
}

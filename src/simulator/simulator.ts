import type { KubeClient } from '../kube/index.js';
import { DEFAULT_POD_START_MS } from './defaults.js';
import type { Logger } from '../log/index.js';
import type { SimulatedController } from './control-loop.js';
import { ControllerRevisions } from './controller-revisions.js';
import { CronJobController } from './cronjob-controller.js';
import { DaemonSetController } from './daemonset-controller.js';
import { DeploymentController } from './deployment-controller.js';
import { EndpointsController } from './endpoints-controller.js';
import { EndpointSliceController } from './endpointslice-controller.js';
import { JobController } from './job-controller.js';
import { SimulatedKubelet } from './kubelet.js';
import { LoadBalancerController } from './loadbalancer-controller.js';
import { SIMULATED_NODE, SimulatedNode } from './node.js';
import { NamespaceDefaultsController } from './namespace-defaults-controller.js';
import { ObjectWriter } from './object-writer.js';
import { PvcBinder } from './pvc-binder.js';
import { ReplicaSetController } from './replicaset-controller.js';
import { SharedInformers } from './shared-informers.js';
import { StatefulSetController } from './statefulset-controller.js';

export interface SimulatorOptions {
  kube: KubeClient;
  log: Logger;
  /** Scheduled → Running/Ready (and a Job's pod Running → Succeeded) after this long; default 200 ms. */
  podStartMs?: number;
  /** Reported as every pod's hostIP and every LoadBalancer Service's ingress; default 127.0.0.1. */
  hostIP?: string;
  /** The cluster CA (PEM) published as `kube-root-ca.crt` in every namespace; without it none is published. */
  rootCa?: string;
  /**
   * A real kube-controller-manager runs beside (`up --kube-controller-manager`): only what it does not do is
   * simulated, the kubelet (a Node with its Lease, pods bound to it and reported) and the cloud's load
   * balancers. Its controllers own ReplicaSets, Deployments, StatefulSets, DaemonSets, Jobs, CronJobs,
   * Endpoints, EndpointSlices, ServiceAccounts, kube-root-ca.crt and PersistentVolumeClaims' phase;
   * simulating them too would fight it over status.
   */
  kubeletOnly?: boolean;
}

export interface Simulator {
  stop(): Promise<void>;
}

export { DEFAULT_POD_START_MS };

/**
 * What a cluster's kubelet, scheduler and workload controllers would do, done by writing status
 * only: like KWOK, no container runs. It is an ordinary client of the API server (informers and
 * HTTP writes with field manager `flowops-simulator`), so it works against any server, though
 * `flowops up` is the only place that starts it.
 */
export async function startSimulator(opts: SimulatorOptions): Promise<Simulator> {
  const { kube } = opts;
  const log = opts.log.child({ part: 'simulator' });
  const informers = new SharedInformers(kube, log);
  const writer = new ObjectWriter(kube);
  const pods = informers.for({ apiVersion: 'v1', kind: 'Pod' });
  const replicaSets = informers.for({ apiVersion: 'apps/v1', kind: 'ReplicaSet' });
  const services = informers.for({ apiVersion: 'v1', kind: 'Service' });
  const hostIP = opts.hostIP ?? '127.0.0.1';
  // With a real kube-controller-manager, pods run on a Node that exists, as its controllers expect.
  const bindTo = opts.kubeletOnly ? { node: SIMULATED_NODE, kube } : undefined;
  const podStartMs = opts.podStartMs ?? DEFAULT_POD_START_MS;
  const nodeParts: SimulatedController[] = [
    ...(opts.kubeletOnly ? [new SimulatedNode(kube, hostIP, log)] : []),
    new SimulatedKubelet(pods, writer, { podStartMs, hostIP, ...(bindTo ? { bindTo } : {}) }, log),
    new LoadBalancerController(services, writer, hostIP, log),
  ];
  const controllers: SimulatedController[] = opts.kubeletOnly
    ? nodeParts
    : [
        ...nodeParts,
        new ReplicaSetController(kube, replicaSets, pods, writer, log),
        new DeploymentController(
          kube,
          informers.for({ apiVersion: 'apps/v1', kind: 'Deployment' }),
          replicaSets,
          writer,
          log,
        ),
        new StatefulSetController(
          kube,
          informers.for({ apiVersion: 'apps/v1', kind: 'StatefulSet' }),
          pods,
          new ControllerRevisions(kube, informers.for({ apiVersion: 'apps/v1', kind: 'ControllerRevision' }), writer),
          writer,
          log,
        ),
        new DaemonSetController(informers.for({ apiVersion: 'apps/v1', kind: 'DaemonSet' }), writer, log),
        new JobController(kube, informers.for({ apiVersion: 'batch/v1', kind: 'Job' }), pods, writer, log),
        new CronJobController(
          kube,
          informers.for({ apiVersion: 'batch/v1', kind: 'CronJob' }),
          informers.for({ apiVersion: 'batch/v1', kind: 'Job' }),
          writer,
          log,
        ),
        new PvcBinder(informers.for({ apiVersion: 'v1', kind: 'PersistentVolumeClaim' }), writer, log),
        new EndpointsController(
          kube,
          services,
          pods,
          informers.for({ apiVersion: 'v1', kind: 'Endpoints' }),
          writer,
          log,
        ),
        new EndpointSliceController(
          kube,
          services,
          pods,
          informers.for({ apiVersion: 'discovery.k8s.io/v1', kind: 'EndpointSlice' }),
          writer,
          log,
        ),
        new NamespaceDefaultsController(
          kube,
          informers.for({ apiVersion: 'v1', kind: 'Namespace' }),
          informers.for({ apiVersion: 'v1', kind: 'ServiceAccount' }),
          informers.for({ apiVersion: 'v1', kind: 'ConfigMap' }),
          opts.rootCa,
          log,
        ),
      ];
  // No controller acts on a half-filled cache (it would create pods that already exist).
  await informers.start();
  for (const c of controllers) c.loop.start();
  log.info({ podStartMs, kubeletOnly: opts.kubeletOnly ?? false }, 'workload simulator started');
  return {
    stop: async () => {
      await Promise.all(controllers.map((c) => c.loop.stop()));
      await informers.stop();
    },
  };
}

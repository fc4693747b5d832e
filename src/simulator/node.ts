import { isConflict, isNotFound, type KubeClient, microTime } from '../kube/index.js';
import type { Logger } from '../log/index.js';
import type { ReconcileResult } from '../queue/index.js';
import { waiting } from '../reconcile/index.js';
import { ControlLoop, type SimulatedController } from './control-loop.js';
import { SIMULATOR_FIELD_MANAGER } from './object-writer.js';

/** The one Node the simulated kubelet registers (KWOK's fake node, in effect). */
export const SIMULATED_NODE = 'flowops-node';
/** The kubelet's defaults: a Lease renewed every 10 s, held for 40 s (--node-lease-duration-seconds). */
const LEASE_RENEW_MS = 10_000;
const LEASE_DURATION_S = 40;

/**
 * The kubelet's node registration and heartbeat, for a real kube-controller-manager beside the simulator:
 * its EndpointSlice controller skips a pod whose node does not exist, its pod GC deletes pods bound to a
 * missing node, its node lifecycle controller taints a node whose Lease in kube-node-lease is not renewed
 * (and evicts its pods), and its DaemonSet controller creates one pod per node. So the Node exists, reports
 * Ready with the capacity of a small machine, and its Lease is renewed as a kubelet renews it.
 */
export class SimulatedNode implements SimulatedController {
  readonly loop: ControlLoop;
  private registered = false;

  constructor(
    private readonly kube: KubeClient,
    private readonly hostIP: string,
    log: Logger,
  ) {
    this.loop = new ControlLoop('node', log, () => this.heartbeat());
    this.loop.enqueue(SIMULATED_NODE);
  }

  private async heartbeat(): Promise<ReconcileResult> {
    if (!this.registered) {
      await this.register();
      this.registered = true;
    }
    await this.renewLease();
    return waiting(LEASE_RENEW_MS, 'NodeLeaseRenewal');
  }

  private async register(): Promise<void> {
    const rest = this.kube.rest;
    const query = { fieldManager: SIMULATOR_FIELD_MANAGER };
    const node = {
      apiVersion: 'v1',
      kind: 'Node',
      metadata: { name: SIMULATED_NODE, labels: nodeLabels() },
      spec: {},
    };
    await rest.send('POST', '/api/v1/nodes', { body: node, query }).catch((e: unknown) => {
      if (!isConflict(e)) throw e;
    });
    const now = new Date().toISOString();
    const condition = (type: string, status: string, reason: string, message: string) => ({
      type,
      status,
      reason,
      message,
      lastHeartbeatTime: now,
      lastTransitionTime: now,
    });
    const resources = { cpu: '4', memory: '16Gi', pods: '110', 'ephemeral-storage': '100Gi' };
    const status = {
      capacity: resources,
      allocatable: resources,
      conditions: [
        condition('MemoryPressure', 'False', 'KubeletHasSufficientMemory', 'kubelet has sufficient memory available'),
        condition('DiskPressure', 'False', 'KubeletHasNoDiskPressure', 'kubelet has no disk pressure'),
        condition('PIDPressure', 'False', 'KubeletHasSufficientPID', 'kubelet has sufficient PID available'),
        condition('Ready', 'True', 'KubeletReady', 'kubelet is posting ready status (simulated by FlowOps)'),
      ],
      addresses: [
        { type: 'InternalIP', address: this.hostIP },
        { type: 'Hostname', address: SIMULATED_NODE },
      ],
      daemonEndpoints: { kubeletEndpoint: { Port: 10250 } },
      nodeInfo: {
        machineID: '',
        systemUUID: '',
        bootID: '',
        kernelVersion: '',
        osImage: 'FlowOps simulated node',
        containerRuntimeVersion: 'simulated://0',
        kubeletVersion: 'v0.0.0-simulated',
        kubeProxyVersion: '',
        operatingSystem: 'linux',
        architecture: 'amd64',
      },
    };
    await rest.send('PATCH', `/api/v1/nodes/${SIMULATED_NODE}/status`, {
      body: { status },
      contentType: 'application/merge-patch+json',
      query,
    });
  }

  private async renewLease(): Promise<void> {
    const path = '/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases';
    const spec = { holderIdentity: SIMULATED_NODE, leaseDurationSeconds: LEASE_DURATION_S, renewTime: microTime() };
    const query = { fieldManager: SIMULATOR_FIELD_MANAGER };
    try {
      await this.kube.rest.send('PATCH', `${path}/${SIMULATED_NODE}`, {
        body: { spec },
        contentType: 'application/merge-patch+json',
        query,
      });
    } catch (e) {
      if (!isNotFound(e)) throw e;
      const lease = { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name: SIMULATED_NODE }, spec };
      await this.kube.rest.send('POST', path, { body: lease, query });
    }
  }
}

function nodeLabels(): Record<string, string> {
  return {
    'kubernetes.io/hostname': SIMULATED_NODE,
    'kubernetes.io/os': 'linux',
    'kubernetes.io/arch': 'amd64',
    'node.flowops.io/simulated': 'true',
  };
}

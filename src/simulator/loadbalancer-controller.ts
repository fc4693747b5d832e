import type { KubeObject } from '../kube/index.js';
import type { Logger } from '../log/index.js';
import { ControlLoop, type SimulatedController } from './control-loop.js';
import type { ObjectWriter } from './object-writer.js';
import { keyOf, splitKey, type SharedInformer } from './shared-informers.js';

/**
 * A cloud controller's service loop, as k3s' ServiceLB or `minikube tunnel` do it on one machine: a
 * `type: LoadBalancer` Service gets the host's address as its ingress (kstatus counts such a Service
 * current only once it has one); one that stops being a LoadBalancer loses it.
 */
export class LoadBalancerController implements SimulatedController {
  readonly loop: ControlLoop;

  constructor(
    private readonly services: SharedInformer,
    private readonly writer: ObjectWriter,
    private readonly ingressIP: string,
    log: Logger,
  ) {
    this.loop = new ControlLoop('service-lb', log, (key) => this.reconcile(key));
    services.addListener({
      changed: (obj, _old, deleted) => {
        if (deleted) this.writer.forget(obj);
        else this.loop.enqueue(keyOf(obj));
      },
    });
  }

  private async reconcile(key: string): Promise<void> {
    const [ns, name] = splitKey(key);
    const svc = this.services.get(ns, name) as
      | (KubeObject & { spec?: { type?: string }; status?: Record<string, unknown> })
      | undefined;
    if (!svc || svc.metadata.deletionTimestamp) return;
    const isLb = svc.spec?.type === 'LoadBalancer';
    // Only the loadBalancer stanza is ours: conditions others write on a Service stay.
    const rest = { ...svc.status };
    delete rest.loadBalancer;
    if (!isLb && svc.status?.loadBalancer === undefined) return;
    await this.writer.status(svc, {
      ...rest,
      loadBalancer: isLb ? { ingress: [{ ip: this.ingressIP, ipMode: 'VIP' }] } : {},
    });
  }
}

import { isConflict, type KubeClient, type KubeObject } from '../kube/index.js';
import type { Logger } from '../log/index.js';
import { ControlLoop, type SimulatedController } from './control-loop.js';
import { SIMULATOR_FIELD_MANAGER } from './object-writer.js';
import type { SharedInformer } from './shared-informers.js';

const ROOT_CA = 'kube-root-ca.crt';
/** The text kube-controller-manager's root-ca-cert-publisher puts on the ConfigMap. */
const ROOT_CA_DESCRIPTION =
  'Contains a CA bundle that can be used to verify the kube-apiserver when using internal endpoints such as the ' +
  'internal service IP or kubernetes.default.svc. No other usage is guaranteed across distributions of Kubernetes clusters.';

/**
 * What kube-controller-manager's serviceaccounts controller and root-ca-cert-publisher keep in every active
 * namespace: a `default` ServiceAccount, and the `kube-root-ca.crt` ConfigMap with the cluster CA (when the
 * server has one: `flowops up` without --no-auth). Done by the simulator, not the API server, so that a real
 * kube-controller-manager under `flowops up --no-simulate` is the only one writing them, and `flowops
 * apiserver` stays kube-apiserver alone.
 */
export class NamespaceDefaultsController implements SimulatedController {
  readonly loop: ControlLoop;

  constructor(
    private readonly kube: KubeClient,
    private readonly namespaces: SharedInformer,
    private readonly serviceAccounts: SharedInformer,
    private readonly configMaps: SharedInformer,
    private readonly rootCa: string | undefined,
    log: Logger,
  ) {
    this.loop = new ControlLoop('namespace-defaults', log, (ns) => this.reconcile(ns));
    namespaces.addListener({ changed: (obj, _old, deleted) => void (deleted || this.loop.enqueue(obj.metadata.name)) });
    // A deleted default comes back, as the controllers re-create it.
    const watchDefault = (name: string) => (obj: KubeObject, _old: KubeObject | undefined, deleted: boolean) => {
      if (obj.metadata.name === name && (deleted || name === ROOT_CA)) this.loop.enqueue(obj.metadata.namespace);
    };
    serviceAccounts.addListener({ changed: watchDefault('default') });
    configMaps.addListener({ changed: watchDefault(ROOT_CA) });
  }

  private async reconcile(namespace: string): Promise<void> {
    const ns = this.namespaces.get(undefined, namespace);
    if (!ns || ns.metadata.deletionTimestamp) return;
    if (!this.serviceAccounts.get(namespace, 'default')) {
      await this.createOnce({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'default', namespace } });
    }
    if (this.rootCa === undefined) return;
    const data = { 'ca.crt': this.rootCa };
    const annotations = { 'kubernetes.io/description': ROOT_CA_DESCRIPTION };
    const cm = this.configMaps.get(namespace, ROOT_CA);
    if (!cm) {
      await this.createOnce({
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: ROOT_CA, namespace, annotations },
        data,
      });
    } else if ((cm.data as Record<string, unknown> | undefined)?.['ca.crt'] !== this.rootCa) {
      const ref = { apiVersion: 'v1', kind: 'ConfigMap', namespace, name: ROOT_CA };
      await this.kube.patch(ref, { metadata: { annotations }, data }, 'merge', {
        fieldManager: SIMULATOR_FIELD_MANAGER,
      });
    }
  }

  private async createOnce(obj: KubeObject): Promise<void> {
    try {
      await this.kube.create(obj, { fieldManager: SIMULATOR_FIELD_MANAGER });
    } catch (e) {
      if (!isConflict(e)) throw e; // created by an earlier sync the cache has not shown yet
    }
  }
}

// The benches' one workload: an Item custom resource (bench.flowops.io/v1) watched by a one-step
// Flow whose kubectl apply makes one ConfigMap child per Item, `<item>-child` with the Item's size.
// One definition so every bench measures the same reconcile.
import type { KubeObject } from '../../src/kube/types.js';

/** The Item kind, with a status subresource (FlowOps writes its Ready condition there). */
export const ITEM_CRD = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'items.bench.flowops.io' },
  spec: {
    group: 'bench.flowops.io',
    scope: 'Namespaced',
    names: { kind: 'Item', plural: 'items', singular: 'item' },
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        subresources: { status: {} },
        schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
      },
    ],
  },
};

/** The step's manifest: one ConfigMap named after the Item, carrying its spec.size. */
export const CHILD_MANIFEST =
  'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {{ .Resource.metadata.name }}-child\ndata:\n  size: "{{ .Resource.spec.size }}"\n';

export interface ItemFlowOptions {
  /** Run every step as this ServiceAccount (impersonated). */
  serviceAccountName?: string;
  /** Watch Items in every namespace, not only the Flow's own. */
  clusterWide?: boolean;
}

/** The one-step Flow `bench` in `namespace`: an Item gets a ConfigMap child. */
export const itemFlow = (namespace: string, o: ItemFlowOptions = {}): KubeObject => ({
  apiVersion: 'flowops.io/v1',
  kind: 'Flow',
  metadata: { name: 'bench', namespace },
  spec: {
    watch: { apiVersion: 'bench.flowops.io/v1', kind: 'Item', ...(o.clusterWide ? {} : { namespace }) },
    ...(o.serviceAccountName ? { serviceAccountName: o.serviceAccountName } : {}),
    reconcile: { steps: [{ name: 'child', type: 'kubectl', action: 'apply', manifests: CHILD_MANIFEST }] },
  },
});

/** The Item `item-<i>` of `namespace`. */
export const item = (i: number, namespace: string, size = i): KubeObject => ({
  apiVersion: 'bench.flowops.io/v1',
  kind: 'Item',
  metadata: { name: `item-${i}`, namespace },
  spec: { size },
});

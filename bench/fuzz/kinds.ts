// The kinds the fuzzer covers and the smallest valid object of each, the starting point every
// mutation moves away from. The schema of each comes from the vendored OpenAPI (schema.ts).
import type { JsonObject } from '../../src/apiserver/registry/types.js';

export interface FuzzKind {
  group: string;
  version: string;
  kind: string;
  plural: string;
  namespaced: boolean;
  status: boolean;
  /** A valid object without metadata (added per case). */
  seed: JsonObject;
}

const container = (): JsonObject => ({ name: 'c', image: 'busybox' });
const template = (restartPolicy?: string): JsonObject => ({
  metadata: { labels: { app: 'a' } },
  spec: { containers: [container()], ...(restartPolicy ? { restartPolicy } : {}) },
});

export const FUZZ_KINDS: FuzzKind[] = [
  {
    group: '',
    version: 'v1',
    kind: 'ConfigMap',
    plural: 'configmaps',
    namespaced: true,
    status: false,
    seed: { data: { a: 'b' } },
  },
  {
    group: '',
    version: 'v1',
    kind: 'Secret',
    plural: 'secrets',
    namespaced: true,
    status: false,
    seed: { type: 'Opaque', data: { a: 'Yg==' } },
  },
  {
    group: '',
    version: 'v1',
    kind: 'ServiceAccount',
    plural: 'serviceaccounts',
    namespaced: true,
    status: false,
    seed: {},
  },
  {
    group: '',
    version: 'v1',
    kind: 'Service',
    plural: 'services',
    namespaced: true,
    status: true,
    seed: { spec: { selector: { app: 'a' }, ports: [{ port: 80, protocol: 'TCP' }] } },
  },
  {
    group: '',
    version: 'v1',
    kind: 'Pod',
    plural: 'pods',
    namespaced: true,
    status: true,
    seed: { spec: { containers: [container()] } },
  },
  {
    group: 'apps',
    version: 'v1',
    kind: 'Deployment',
    plural: 'deployments',
    namespaced: true,
    status: true,
    seed: { spec: { replicas: 1, selector: { matchLabels: { app: 'a' } }, template: template() } },
  },
  {
    group: 'batch',
    version: 'v1',
    kind: 'Job',
    plural: 'jobs',
    namespaced: true,
    status: true,
    seed: { spec: { template: { spec: { containers: [container()], restartPolicy: 'Never' } } } },
  },
  {
    group: 'coordination.k8s.io',
    version: 'v1',
    kind: 'Lease',
    plural: 'leases',
    namespaced: true,
    status: false,
    seed: { spec: { holderIdentity: 'h', leaseDurationSeconds: 15 } },
  },
];

export const apiVersionOfKind = (k: FuzzKind): string => (k.group ? `${k.group}/${k.version}` : k.version);

export function collectionPath(k: FuzzKind, ns: string): string {
  const base = k.group ? `/apis/${k.group}/${k.version}` : `/api/${k.version}`;
  return k.namespaced ? `${base}/namespaces/${ns}/${k.plural}` : `${base}/${k.plural}`;
}

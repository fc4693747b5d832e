// The rollout tests' operator: a Shop becomes one ConfigMap child whose data names the Flow's
// version; a version's readiness is a readyWhen over the child, so a test makes a child Ready by
// writing a field of it (as a workload's controller would write its status).

import { parse } from 'yaml';
import { flowCrd } from '../../src/api/crd.js';
import type { KubeClient } from '../../src/kube/client.js';
import type { KubeObject } from '../../src/kube/types.js';
import { openCrdYaml } from '../fixtures/open-crd.js';
import { waitFor } from '../helpers/wait.js';

export const SHOP_CRD = openCrdYaml({ group: 'rollout.example.com', kind: 'Shop', plural: 'shops' });

/** A cluster test's start: the Flow and Shop CRDs applied, and Shops served. */
export async function installShopKinds(kube: KubeClient): Promise<void> {
  await kube.apply(flowCrd() as unknown as KubeObject, { fieldManager: 'test', force: true });
  await kube.apply(parse(SHOP_CRD) as KubeObject, { fieldManager: 'test', force: true });
  await waitFor(
    async () =>
      kube.list('rollout.example.com/v1', 'Shop').then(
        () => true,
        () => false,
      ),
    { what: 'Shop served' },
  );
}

export interface ShopFlow {
  name: string;
  /** Objects labelled suite=<suite> are this Flow's. */
  suite: string;
  version: string;
  /** readyWhen for the child; absent: a ConfigMap is ready as it is. */
  readyWhen?: string;
  rollout?: string;
  annotations?: Record<string, string>;
}

export function shopFlow(f: ShopFlow): string {
  const readyWhen = f.readyWhen ? `\n        readyWhen: '${f.readyWhen}'` : '';
  const rollout = f.rollout ? `\n  rollout:\n${f.rollout.replace(/^/gm, '    ')}` : '';
  const annotations = f.annotations ? `, annotations: ${JSON.stringify(f.annotations)}` : '';
  return `apiVersion: flowops.io/v1
kind: Flow
metadata: { name: ${f.name}, namespace: default${annotations} }
spec:
  watch: { apiVersion: rollout.example.com/v1, kind: Shop, labelSelector: { matchLabels: { suite: ${f.suite} } } }
  reconcile:
    steps:
      - name: config
        type: kubectl
        action: apply${readyWhen}
        manifests: |
          apiVersion: v1
          kind: ConfigMap
          metadata: { name: "{{ .Resource.metadata.name }}-cfg" }
          data: { version: "${f.version}" }${rollout}
`;
}

export const shopName = (suite: string, i: number): string => `${suite}-${String(i).padStart(3, '0')}`;

export function shops(suite: string, n: number, labels: (i: number) => Record<string, string> = () => ({})): string {
  return Array.from({ length: n }, (_, i) => {
    const l = JSON.stringify({ suite, ...labels(i) });
    const metadata = `{ name: ${shopName(suite, i)}, namespace: default, labels: ${l} }`;
    return `apiVersion: rollout.example.com/v1\nkind: Shop\nmetadata: ${metadata}\nspec: { size: 1 }\n`;
  }).join('---\n');
}

const SHOP = { apiVersion: 'rollout.example.com/v1', kind: 'Shop', namespace: 'default' };

export async function listShops(kube: KubeClient, suite: string): Promise<KubeObject[]> {
  return (await kube.list(SHOP.apiVersion, SHOP.kind, { namespace: 'default', labelSelector: `suite=${suite}` })).items;
}

export const generationOf = (o: KubeObject): string | undefined =>
  o.metadata.annotations?.['flowops.io/flow-generation'];
export const targetOf = (o: KubeObject): string | undefined => o.metadata.annotations?.['flowops.io/rollout-target'];
export const isReady = (o: KubeObject): boolean =>
  ((o.status as { conditions?: Array<{ type: string; status: string }> } | undefined)?.conditions ?? []).some(
    (c) => c.type === 'Ready' && c.status === 'True',
  );

/** Marks the child of each named Shop Ready under readyWhen `{{ eq (index .Child.data "state") "done" }}`. */
export async function markChildrenReady(kube: KubeClient, names: string[]): Promise<void> {
  for (const name of names) {
    const ref = { apiVersion: 'v1', kind: 'ConfigMap', namespace: 'default', name: `${name}-cfg` };
    await kube.patch(ref, { data: { state: 'done' } }, 'merge', { fieldManager: 'test-workload' });
  }
}

export async function flowOf(kube: KubeClient, name: string): Promise<KubeObject | undefined> {
  return kube.get({ apiVersion: 'flowops.io/v1', kind: 'Flow', namespace: 'default', name });
}

export interface RolloutView {
  generation: number;
  fromGeneration?: number;
  state: string;
  currentStage: number;
  message?: string;
  stages?: Array<{ index: number; target: number; updated: number; ready: number; state: string }>;
  failed?: Array<{ object: string; reason: string }>;
}

export async function rolloutOf(kube: KubeClient, name: string): Promise<RolloutView | undefined> {
  return ((await flowOf(kube, name))?.status as { rollout?: RolloutView } | undefined)?.rollout;
}

// A Flow watching many objects, without controllers: the Flow page's test and bench/ui.ts build it
// on an embedded API server and change the objects themselves, so what is measured is the page's.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import type { KubeClient } from '../../src/kube/client.js';
import { KubeApiError } from '../../src/kube/rest.js';
import type { KubeObject } from '../../src/kube/types.js';
import { ROOT } from './cli.js';
import { waitFor } from './wait.js';

export const ITEM_API_VERSION = 'test.example.com/v1';
export const WATCH_LABEL = { watched: 'yes' };

/** Without a status subresource, so an object is created with its Ready condition in one write. */
const ITEM_CRD: KubeObject = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'items.test.example.com' },
  spec: {
    group: 'test.example.com',
    scope: 'Namespaced',
    names: { plural: 'items', singular: 'item', kind: 'Item', listKind: 'ItemList' },
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
      },
    ],
  },
};

export const itemName = (i: number): string => `item-${String(i).padStart(5, '0')}`;
/** Objects are spread over this many namespaces (the page's namespace filter has something to pick). */
export const NAMESPACES = ['default', 'team-a', 'team-b'];
export const namespaceOf = (i: number): string => NAMESPACES[i % NAMESPACES.length] ?? 'default';

const now = (): string => new Date().toISOString().replace(/\.\d+Z$/, 'Z');

export function readyStatus(ready: boolean, message = ''): { conditions: unknown[] } {
  return {
    conditions: [
      {
        type: 'Ready',
        status: ready ? 'True' : 'False',
        reason: ready ? 'Succeeded' : 'ReconcileFailed',
        message: ready ? 'all children ready' : message,
        lastTransitionTime: now(),
      },
    ],
  };
}

export const itemRef = (i: number) => ({
  apiVersion: ITEM_API_VERSION,
  kind: 'Item',
  namespace: namespaceOf(i),
  name: itemName(i),
});

async function inBatches(count: number, size: number, fn: (i: number) => Promise<unknown>): Promise<void> {
  for (let i = 0; i < count; i += size) {
    await Promise.all(Array.from({ length: Math.min(size, count - i) }, (_, j) => fn(i + j)));
  }
}

/** Creates it unless it is there (bench/ui.ts adds a Flow page to a server that has the CRDs). */
async function ensure(kube: KubeClient, obj: KubeObject): Promise<void> {
  await kube.create(obj).catch((err: unknown) => {
    if (!(err instanceof KubeApiError && err.statusCode === 409)) throw err;
  });
}

/** The CRDs, the namespaces and the Flow `many` in default, watching Items labelled watched=yes. */
export async function createManyFlow(kube: KubeClient): Promise<void> {
  for (const file of ['flowops.io_flows.yaml', 'flowops.io_flowsources.yaml']) {
    await ensure(kube, parse(readFileSync(join(ROOT, 'config', 'crd', file), 'utf8')) as KubeObject);
  }
  await ensure(kube, ITEM_CRD);
  await waitFor(
    async () =>
      (await kube.list(ITEM_API_VERSION, 'Item').catch(() => undefined)) !== undefined &&
      (await kube.list('flowops.io/v1', 'Flow').catch(() => undefined)) !== undefined,
    { what: 'Item and Flow CRDs served' },
  );
  for (const name of NAMESPACES.slice(1)) {
    await ensure(kube, { apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
  }
  await kube.create({
    apiVersion: 'flowops.io/v1',
    kind: 'Flow',
    metadata: { name: 'many', namespace: 'default' },
    spec: {
      watch: { apiVersion: ITEM_API_VERSION, kind: 'Item', labelSelector: { matchLabels: WATCH_LABEL } },
      reconcile: { steps: [{ name: 'noop', type: 'script', script: 'true' }] },
    },
  });
}

/** Items `from` to `to` (not included), every 10th not ready. */
export async function createItems(kube: KubeClient, from: number, to: number): Promise<void> {
  await inBatches(to - from, 32, (j) => {
    const i = from + j;
    return kube.create({
      apiVersion: ITEM_API_VERSION,
      kind: 'Item',
      metadata: { name: itemName(i), namespace: namespaceOf(i), labels: WATCH_LABEL },
      status: readyStatus(i % 10 !== 3, `item ${i} failed: spec.value is required`),
    });
  });
}

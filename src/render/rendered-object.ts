// What a render reports for one watched object: the children its reconcile applied (from its
// inventory, as the server stored them, minus server-set noise) and its .status (the Flow's
// status projection, observedGeneration and conditions, without transition times). Uids are
// random per run, so a string equal to the uid of an object of the render (a `kubectl get` output
// copied into an annotation) is written as `<uid of Kind namespace/name>`.

import { readInventory, refOfChild } from '../engine/child-inventory.js';
import {
  type KubeClient,
  objectYaml,
  withoutServerNoise,
  withoutTransitionTimes,
  type KubeObject,
} from '../kube/index.js';

export interface RenderedObject {
  /** `<Kind>-<namespace>-<name>` (cluster-scoped: `<Kind>-<name>`): the golden file's name without .yaml. */
  id: string;
  yaml: string;
}

export function renderedId(obj: KubeObject): string {
  return [obj.kind, obj.metadata.namespace, obj.metadata.name].filter(Boolean).join('-');
}

const describe = (o: KubeObject): string =>
  `${o.kind} ${o.metadata.namespace ? `${o.metadata.namespace}/` : ''}${o.metadata.name}`;

function replaceUids(value: unknown, uids: ReadonlyMap<string, string>): unknown {
  if (typeof value === 'string') return uids.get(value) ?? value;
  if (Array.isArray(value)) return value.map((v) => replaceUids(v, uids));
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, replaceUids(v, uids)]));
  return value;
}

/** Reads every sample's children and builds the reports, sorted by id. */
export async function renderedObjects(kube: KubeClient, samples: readonly KubeObject[]): Promise<RenderedObject[]> {
  const withChildren = await Promise.all(
    samples.map(async (owner) => {
      const children = await Promise.all(readInventory(owner).map((e) => kube.get(refOfChild(e))));
      return { owner, children: children.filter((c): c is KubeObject => c !== undefined) };
    }),
  );
  const uids = new Map<string, string>();
  for (const { owner, children } of withChildren)
    for (const o of [owner, ...children]) if (o.metadata.uid) uids.set(o.metadata.uid, `<uid of ${describe(o)}>`);
  return withChildren
    .map(({ owner, children }) => {
      const status = { ...((owner.status as Record<string, unknown> | undefined) ?? {}) };
      if (status.conditions) status.conditions = withoutTransitionTimes(status.conditions);
      const doc = {
        apiVersion: owner.apiVersion,
        kind: owner.kind,
        metadata: {
          name: owner.metadata.name,
          ...(owner.metadata.namespace ? { namespace: owner.metadata.namespace } : {}),
        },
        children: children.map(withoutServerNoise).sort((a, b) => (renderedId(a) < renderedId(b) ? -1 : 1)),
        status,
      };
      return { id: renderedId(owner), yaml: objectYaml(replaceUids(doc, uids)) };
    })
    .sort((a, b) => (a.id < b.id ? -1 : 1));
}

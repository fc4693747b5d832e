import type { CustomResourceDefinition } from '../api/index.js';
import type { KubeClient, KubeObject } from '../kube/index.js';
import { VIEW_VERSION } from './types.js';

/**
 * Where view objects live. On the embedded server they are ordinary stored resources of a CRD
 * created per view kind, so they survive restarts (the original keeps them in memory only); with
 * a real cluster a view API server (src/viewapi) holds them, reached through its own client.
 */
export interface ViewBackend {
  /** The client view objects are read, watched and written through. */
  readonly client: KubeClient;
  /** Makes a view kind servable; idempotent. */
  ensureKind(group: string, kind: string): Promise<void>;
  /** Stops serving every view kind of a group (the Operator was deleted). */
  dropGroup?(group: string): Promise<void>;
}

export const VIEW_FIELD_MANAGER = 'flowops-views';

/**
 * The CRD that stores one view kind. The resource name is the lower-case kind, not pluralised
 * (spec §6), so `kubectl get <kind>.<op>.view.dcontroller.io` works as with the original. The
 * schema is open (views are schemaless). Views have a status subresource, as in the original, yet
 * an Updater still writes a view, status included, in one call: the API server serves view groups
 * with Δ-controller's rules (src/apiserver/crd/view-groups.ts), names included.
 */
export function viewCrd(group: string, kind: string): CustomResourceDefinition {
  const plural = kind.toLowerCase();
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${plural}.${group}`, annotations: { 'dcontroller.io/view': 'true' } },
    spec: {
      group,
      names: { kind, listKind: `${kind}List`, plural, singular: plural, categories: ['views'] },
      scope: 'Namespaced',
      versions: [
        {
          name: VIEW_VERSION,
          served: true,
          storage: true,
          subresources: { status: {} },
          schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
        },
      ],
    },
  };
}

/** Views as CRD-backed objects on the same (embedded) API server as everything else. */
export function crdViewBackend(kube: KubeClient): ViewBackend {
  const known = new Set<string>();
  return {
    client: kube,
    async ensureKind(group, kind) {
      const key = `${group}/${kind}`;
      if (known.has(key)) return;
      await kube.apply(viewCrd(group, kind) as unknown as KubeObject, {
        fieldManager: VIEW_FIELD_MANAGER,
        force: true,
      });
      kube.discovery.invalidate();
      await kube.resource(`${group}/${VIEW_VERSION}`, kind);
      known.add(key);
    },
    async dropGroup(group) {
      const { items } = await kube.list('apiextensions.k8s.io/v1', 'CustomResourceDefinition');
      for (const crd of items) {
        if ((crd.spec as { group?: string } | undefined)?.group !== group) continue;
        await kube.delete({
          apiVersion: 'apiextensions.k8s.io/v1',
          kind: 'CustomResourceDefinition',
          name: crd.metadata.name!,
        });
        for (const k of known) if (k.startsWith(`${group}/`)) known.delete(k);
      }
    },
  };
}

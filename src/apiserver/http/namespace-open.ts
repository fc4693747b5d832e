// Refuses a new object in a namespace that does not exist or is being deleted, as
// kube-apiserver's NamespaceLifecycle admission does, before the store is asked. Create, update
// that creates, and server-side apply that creates all check it (resource-handlers.ts,
// patch-handler.ts), so it is a file of its own that both import.

import { metadataOf } from '../objects/meta.js';
import type { JsonObject, ResourceType } from '../registry/types.js';
import type { ResourceContext } from './resource-handlers.js';
import { errors } from './status.js';

const NAMESPACE_TYPE = { group: '', version: 'v1', plural: 'namespaces' };

export function checkNamespaceOpen(
  ctx: ResourceContext,
  t: ResourceType,
  namespace: string | undefined,
  obj: JsonObject,
): void {
  if (!t.namespaced || !namespace) return;
  const nsType = ctx.registry.lookup(NAMESPACE_TYPE.group, NAMESPACE_TYPE.version, NAMESPACE_TYPE.plural);
  // Invariant: the core group's namespaces are registered before any request is served.
  if (!nsType) throw errors.internal('the namespaces resource is not registered');
  const ns = ctx.objects.getStored(nsType, undefined, namespace);
  if (!ns) throw errors.notFound(nsType, namespace);
  // Most namespaces are not terminating; parse only when the text says one might be.
  if (!ns.value.includes('"deletionTimestamp"')) return;
  const nsObj = JSON.parse(ns.value) as JsonObject;
  if (metadataOf(nsObj).deletionTimestamp !== undefined) {
    const e = errors.forbidden(
      t,
      String(metadataOf(obj).name ?? ''),
      `unable to create new content in namespace ${namespace} because it is being terminated`,
    );
    if (e.details)
      e.details.causes = [
        {
          reason: 'NamespaceTerminating',
          message: `namespace ${namespace} is being terminated`,
          field: 'metadata.namespace',
        },
      ];
    throw e;
  }
}

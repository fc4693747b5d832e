import { metadataOf } from '../objects/meta.js';
import type { JsonObject, ResourceType } from '../registry/types.js';

/**
 * The kinds whose kube-apiserver registry sets `ReturnDeletedObject` (each kind's storage.go under
 * pkg/registry): a DELETE that removes one at once answers the object as it was; every other
 * kind answers a Status of Success.
 */
const RETURNS_DELETED_OBJECT = new Set([
  '/pods',
  '/services',
  '/serviceaccounts',
  '/persistentvolumes',
  '/persistentvolumeclaims',
  '/resourcequotas',
  '/namespaces',
  '/podtemplates',
  'batch/jobs',
  'apiextensions.k8s.io/customresourcedefinitions',
  'storage.k8s.io/storageclasses',
  'storage.k8s.io/csidrivers',
  'storage.k8s.io/csinodes',
  'storage.k8s.io/volumeattachments',
  'storage.k8s.io/volumeattributesclasses',
  'resource.k8s.io/resourceclaims',
  'resource.k8s.io/resourceclaimtemplates',
  'resource.k8s.io/resourceslices',
  'resource.k8s.io/deviceclasses',
  'resource.k8s.io/devicetaintrules',
]);

/**
 * What a DELETE of one object answers: the object while it stays (finalizers, foreground or
 * orphan propagation pending), else the deleted object or a Status as kube-apiserver's
 * generic registry does for the kind.
 */
export function deleteAnswer(t: ResourceType, obj: JsonObject): unknown {
  const meta = metadataOf(obj);
  if (meta.deletionTimestamp !== undefined || RETURNS_DELETED_OBJECT.has(`${t.group}/${t.plural}`)) return obj;
  const details: Record<string, unknown> = { name: meta.name };
  if (t.group) details.group = t.group;
  details.kind = t.plural;
  details.uid = meta.uid;
  return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', details };
}

import { type KubeClient, refOf, type KubeObject, type ObjectRef } from '../kube/index.js';
import { SIMULATOR_FIELD_MANAGER } from './object-writer.js';
import { controllerRef, labelsMatch } from './pods.js';
import { controllerOf } from './shared-informers.js';
import type { LabelSelector } from './types.js';

export type NameTaken = 'adopted' | 'ours' | 'foreign';

/**
 * A create answered 409: the name is taken. An orphan the owner's selector matches (left by
 * `kubectl delete --cascade=orphan` of an earlier owner of the same name) is adopted, as the real
 * controllers' ControllerRefManager does; one controlled by someone else is not ours to touch.
 */
export async function resolveNameTaken(
  kube: KubeClient,
  ref: ObjectRef,
  owner: KubeObject,
  selector: LabelSelector | undefined,
): Promise<NameTaken> {
  const existing = await kube.get(ref);
  if (!existing) return 'ours'; // gone meanwhile: the next sync creates it
  if (controllerOf(existing)?.uid === owner.metadata.uid) return 'ours';
  if (!isOrphanFor(existing, owner, selector)) return 'foreign';
  await adopt(kube, existing, owner);
  return 'adopted';
}

/** Is `obj` an orphan that `owner` may claim (no controller, not being deleted, matched by its selector)? */
export function isOrphanFor(obj: KubeObject, owner: KubeObject, selector: LabelSelector | undefined): boolean {
  return (
    obj.metadata.namespace === owner.metadata.namespace &&
    !controllerOf(obj) &&
    !obj.metadata.deletionTimestamp &&
    selectorMatches(selector, obj.metadata.labels)
  );
}

/** Makes `owner` the controller of `obj`, keeping its other ownerReferences. */
export async function adopt(kube: KubeClient, obj: KubeObject, owner: KubeObject): Promise<void> {
  const owners = [...(obj.metadata.ownerReferences ?? []), controllerRef(owner)];
  // resourceVersion as a precondition: an object changed or replaced meanwhile is not adopted (409, retried).
  await kube.sendPatch(
    refOf(obj),
    { metadata: { resourceVersion: obj.metadata.resourceVersion, ownerReferences: owners } },
    'merge',
    { fieldManager: SIMULATOR_FIELD_MANAGER },
  );
}

/** matchLabels and the four matchExpressions operators (an empty selector matches nothing here, as for workloads). */
export function selectorMatches(sel: LabelSelector | undefined, labels: Record<string, string> | undefined): boolean {
  if (!sel || (!sel.matchLabels && !sel.matchExpressions?.length)) return false;
  if (!labelsMatch(sel.matchLabels, labels)) return false;
  return (sel.matchExpressions ?? []).every((e) => {
    const v = labels?.[e.key];
    switch (e.operator) {
      case 'In':
        return v !== undefined && (e.values ?? []).includes(v);
      case 'NotIn':
        return v === undefined || !(e.values ?? []).includes(v);
      case 'Exists':
        return v !== undefined;
      case 'DoesNotExist':
        return v === undefined;
      default:
        return false;
    }
  });
}

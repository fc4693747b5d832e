import { type KubeClient, isNotFound } from './client.js';
import { type KubeObject, refOf } from './types.js';

export const FLOW_FINALIZER = 'flowops.io/finalizer';

export const hasFinalizer = (obj: KubeObject, f = FLOW_FINALIZER): boolean =>
  (obj.metadata.finalizers ?? []).includes(f);

/** Adds or removes one finalizer with a JSON patch guarded by `test`, so a concurrent change of the list fails instead of being lost. */
export async function setFinalizer(
  kube: KubeClient,
  obj: KubeObject,
  present: boolean,
  fieldManager: string,
  f = FLOW_FINALIZER,
): Promise<boolean> {
  const list = obj.metadata.finalizers ?? [];
  if (list.includes(f) === present) return false;
  const next = present ? [...list, f] : list.filter((x) => x !== f);
  const ops = obj.metadata.finalizers
    ? [
        { op: 'test', path: '/metadata/finalizers', value: list },
        { op: 'replace', path: '/metadata/finalizers', value: next },
      ]
    : [{ op: 'add', path: '/metadata/finalizers', value: next }];
  try {
    await kube.patch(refOf(obj), ops, 'json', { fieldManager });
    return true;
  } catch (e) {
    if (isNotFound(e)) return false;
    throw e;
  }
}

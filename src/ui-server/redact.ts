// What of an object the web view may show. The UI never shows a Secret's values: a Secret keeps
// its keys, each value replaced, and the last-applied annotation (which would repeat them) goes.

import type { KubeObject } from '../kube/index.js';

const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration';
export const HIDDEN = '(hidden)';

const hideValues = (v: unknown): unknown =>
  v && typeof v === 'object' ? Object.fromEntries(Object.keys(v).map((k) => [k, HIDDEN])) : v;

/** A copy without managedFields, safe to print; Secrets lose their values. */
export function redacted(obj: KubeObject): KubeObject {
  const { managedFields: _mf, ...metadata } = obj.metadata;
  const annotations = metadata.annotations ? { ...metadata.annotations } : undefined;
  const isSecret = obj.kind === 'Secret' && (obj.apiVersion === 'v1' || obj.apiVersion === '');
  if (annotations && isSecret) delete annotations[LAST_APPLIED];
  const copy: KubeObject = { ...obj, metadata: { ...metadata, ...(annotations ? { annotations } : {}) } };
  if (isSecret) {
    if ('data' in copy) copy.data = hideValues(copy.data);
    if ('stringData' in copy) copy.stringData = hideValues(copy.stringData);
  }
  return copy;
}

import type { KubeObject } from '../kube/index.js';

/**
 * What the original does to an object before the pipeline sees it (spec §2): Secrets get their
 * `.data` values base64-decoded, and view objects lose their uid. managedFields are dropped as
 * well: they are bookkeeping of the API server, and a `"$."` copy would otherwise carry them into
 * a target, where the server rejects them.
 */
export function preprocess(obj: KubeObject, isView: boolean): KubeObject {
  const { managedFields: _mf, ...metadata } = obj.metadata;
  const out: KubeObject = { ...obj, metadata };
  if (isView) delete out.metadata.uid;
  if (obj.kind === 'Secret' && obj.data && typeof obj.data === 'object') {
    const data: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(obj.data as Record<string, unknown>))
      data[k] = typeof v === 'string' ? decode(v) : v;
    out.data = data;
  }
  return out;
}

function decode(v: string): string {
  // A value that is not valid base64 is left unchanged, as in the original.
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(v) || v.length % 4 !== 0) return v;
  return Buffer.from(v, 'base64').toString('utf8');
}

import type { ObjectRef } from '../kube/index.js';
import { ControllerError } from './errors.js';

/** One reconcile job: which Flow, for which watched object. Only the key travels through the queue. */
export interface ReconcileKey {
  flowNamespace: string;
  flowName: string;
  resource: ObjectRef;
}

const SEP = '\u001f';

export function encodeKey(k: ReconcileKey): string {
  const r = k.resource;
  return [k.flowNamespace, k.flowName, r.apiVersion, r.kind, r.namespace ?? '', r.name].join(SEP);
}

export function decodeKey(key: string): ReconcileKey {
  const parts = key.split(SEP);
  if (parts.length !== 6) throw new ControllerError('MalformedKey', `malformed reconcile key: ${JSON.stringify(key)}`);
  const [flowNamespace, flowName, apiVersion, kind, namespace, name] = parts as [
    string,
    string,
    string,
    string,
    string,
    string,
  ];
  return { flowNamespace, flowName, resource: { apiVersion, kind, name, ...(namespace ? { namespace } : {}) } };
}

export const flowKeyOf = (namespace: string, name: string): string => `${namespace}/${name}`;

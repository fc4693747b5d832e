import { fieldAt, labelsOf } from '../objects/meta.js';
import type { JsonObject, ResourceType } from '../registry/types.js';
import { fieldSelectorFields, matchesFields, matchesLabels, parseFieldSelector, parseLabelSelector } from '../selectors/index.js';
import { errors } from './status.js';

/** Field selectors each kind supports besides metadata.name and metadata.namespace (kube-apiserver's field label conversions). */
const EXTRA_FIELDS: Record<string, string[]> = {
  Event: ['involvedObject.kind', 'involvedObject.namespace', 'involvedObject.name', 'involvedObject.uid', 'involvedObject.apiVersion', 'involvedObject.resourceVersion', 'involvedObject.fieldPath', 'reason', 'reportingComponent', 'source', 'type'],
  Pod: ['spec.nodeName', 'spec.restartPolicy', 'spec.schedulerName', 'spec.serviceAccountName', 'spec.hostNetwork', 'status.phase', 'status.podIP', 'status.nominatedNodeName'],
  Secret: ['type'],
  Namespace: ['status.phase'],
  Node: ['spec.unschedulable'],
  ReplicaSet: ['status.replicas'],
  Job: ['status.successful'],
};

export function booleanParam(q: URLSearchParams, name: string): boolean {
  const v = q.get(name);
  return v === 'true' || v === '1';
}

/** Builds the object filter for labelSelector / fieldSelector, rejecting what the real server rejects. */
export function selectorFilter(t: ResourceType, q: URLSearchParams): ((obj: JsonObject) => boolean) | undefined {
  const ls = q.get('labelSelector');
  const fs = q.get('fieldSelector');
  if (!ls && !fs) return undefined;
  let labelSel: ReturnType<typeof parseLabelSelector> | undefined;
  let fieldSel: ReturnType<typeof parseFieldSelector> | undefined;
  try {
    if (ls) labelSel = parseLabelSelector(ls);
    if (fs) fieldSel = parseFieldSelector(fs);
  } catch (e) {
    throw errors.badRequest((e as Error).message);
  }
  if (fieldSel) {
    const allowed = new Set(['metadata.name', 'metadata.namespace', ...(EXTRA_FIELDS[t.kind] ?? [])]);
    for (const f of fieldSelectorFields(fieldSel)) {
      if (!allowed.has(f)) throw errors.badRequest(`field label not supported: ${f}`);
    }
  }
  return (obj) => {
    if (labelSel && !matchesLabels(labelSel, labelsOf(obj))) return false;
    if (fieldSel && !matchesFields(fieldSel, (f) => fieldValue(obj, f))) return false;
    return true;
  };
}

function fieldValue(obj: JsonObject, field: string): string | undefined {
  const v = fieldAt(obj, field);
  // Unset fields select as the empty string, as kube-apiserver's field sets do.
  return v ?? '';
}

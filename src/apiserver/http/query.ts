import { fieldAt, labelsOf } from '../objects/meta.js';
import type { JsonObject, ResourceType } from '../registry/types.js';
import {
  fieldSelectorFields,
  matchesFields,
  matchesLabels,
  parseFieldSelector,
  parseLabelSelector,
} from '../selectors/index.js';
import { errors } from './status.js';

/** Field selectors each kind supports besides metadata.name and metadata.namespace (kube-apiserver's field label conversions). */
const EXTRA_FIELDS: Record<string, string[]> = {
  Event: [
    'involvedObject.kind',
    'involvedObject.namespace',
    'involvedObject.name',
    'involvedObject.uid',
    'involvedObject.apiVersion',
    'involvedObject.resourceVersion',
    'involvedObject.fieldPath',
    'reason',
    'reportingComponent',
    'source',
    'type',
  ],
  Pod: [
    'spec.nodeName',
    'spec.restartPolicy',
    'spec.schedulerName',
    'spec.serviceAccountName',
    'spec.hostNetwork',
    'status.phase',
    'status.podIP',
    'status.nominatedNodeName',
  ],
  Secret: ['type'],
  Namespace: ['status.phase'],
  Node: ['spec.unschedulable'],
  ReplicaSet: ['status.replicas'],
  Job: ['status.successful'],
};

/**
 * Kinds served from another's storage select by their own field names, mapped onto the stored form's
 * (k8s.io/kubernetes pkg/apis/events/v1/conversion.go AddFieldLabelConversionsForEvent); nothing else.
 */
const FIELD_LABEL_CONVERSIONS: Record<string, Record<string, string>> = {
  'events.k8s.io/Event': {
    reason: 'reason',
    'regarding.kind': 'involvedObject.kind',
    'regarding.namespace': 'involvedObject.namespace',
    'regarding.name': 'involvedObject.name',
    'regarding.uid': 'involvedObject.uid',
    'regarding.apiVersion': 'involvedObject.apiVersion',
    'regarding.resourceVersion': 'involvedObject.resourceVersion',
    'regarding.fieldPath': 'involvedObject.fieldPath',
    reportingController: 'reportingComponent',
    type: 'type',
    'metadata.namespace': 'metadata.namespace',
    'metadata.name': 'metadata.name',
  },
};

/**
 * A boolean query parameter read as kube-apiserver reads every one (apimachinery's
 * `Convert_Slice_string_To_bool`, k8s.io/apimachinery/pkg/runtime/conversion.go): absent is false;
 * otherwise only the first value counts, and it is false when it is `0` or `false` in any letter
 * case, true for anything else, the empty string included (`?watch`, `?watch=`, `watch=True`).
 * Every handler reads its booleans (watch, allowWatchBookmarks, sendInitialEvents, force,
 * orphanDependents, …) through this one function.
 */
export function booleanParam(q: URLSearchParams, name: string): boolean {
  return queryValuesToBool(q.getAll(name));
}

/** The conversion itself, on the parameter's values in the order the query gave them. */
export function queryValuesToBool(values: readonly string[]): boolean {
  const first = values[0];
  if (first === undefined) return false;
  return !(first === '0' || equalFoldFalse(first));
}

/**
 * Go's `strings.EqualFold(v, "false")`: Unicode simple case folding, under which the only
 * non-ASCII letter equal to one of f, a, l, s, e is the long s (U+017F), folded with s.
 */
function equalFoldFalse(v: string): boolean {
  return v.length === 5 && v.toLowerCase().replace(/\u017f/g, 's') === 'false';
}

/** Go's strconv.ParseBool; undefined where it answers an error. */
const GO_BOOLS: Record<string, boolean> = {
  1: true,
  t: true,
  T: true,
  TRUE: true,
  true: true,
  True: true,
  0: false,
  f: false,
  F: false,
  FALSE: false,
  false: false,
  False: false,
};

/**
 * Whether to indent a JSON answer: the one boolean parameter kube-apiserver does not read with
 * Convert_Slice_string_To_bool. Its isPrettyPrint (k8s.io/apiserver/pkg/endpoints/handlers/
 * negotiation) takes a non-empty `pretty` through strconv.ParseBool (so `yes` is false), and
 * otherwise indents for curl, Wget and browsers.
 */
export function prettyPrint(q: URLSearchParams, userAgent: string | undefined): boolean {
  const pretty = q.get('pretty');
  if (pretty) return Object.hasOwn(GO_BOOLS, pretty) ? GO_BOOLS[pretty]! : false;
  const ua = userAgent ?? '';
  return ua.startsWith('curl') || ua.startsWith('Wget') || ua.startsWith('Mozilla/5.0');
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
  const converted = FIELD_LABEL_CONVERSIONS[`${t.group}/${t.kind}`];
  if (fieldSel) {
    const allowed = new Set(
      converted ? Object.keys(converted) : ['metadata.name', 'metadata.namespace', ...(EXTRA_FIELDS[t.kind] ?? [])],
    );
    for (const f of fieldSelectorFields(fieldSel)) {
      if (allowed.has(f)) continue;
      // A kind with a field label conversion of its own names the label; the rest get the default conversion's text.
      if (EXTRA_FIELDS[t.kind]) throw errors.badRequest(`field label not supported: ${f}`);
      throw errors.badRequest(
        `${JSON.stringify(f)} is not a known field selector: only "metadata.name", "metadata.namespace"`,
      );
    }
  }
  const stored = (f: string): string => converted?.[f] ?? f;
  return (obj) => {
    if (labelSel && !matchesLabels(labelSel, labelsOf(obj))) return false;
    if (fieldSel && !matchesFields(fieldSel, (f) => fieldValue(obj, stored(f)))) return false;
    return true;
  };
}

function fieldValue(obj: JsonObject, field: string): string | undefined {
  const v = fieldAt(obj, field);
  // Unset fields select as the empty string, as kube-apiserver's field sets do.
  return v ?? '';
}

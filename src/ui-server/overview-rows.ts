// The overview's rows a change batch named, each read by itself: the overview page updates the
// rows that changed instead of reading every source, Flow, Operator and Event again (the Flow
// page does the same for its objects, watched-objects.ts). Keys come from the change stream.

import { FLOW_API_VERSION, FLOW_KIND, FLOWSOURCE_API_VERSION, FLOWSOURCE_KIND } from '../api/index.js';
import { type KubeClient, UnknownKindError, type KubeObject, type ObjectRef } from '../kube/index.js';
import { OPERATOR_API_VERSION, OPERATOR_KIND } from '../operator/types.js';
import { recentEventOf } from './event-entries.js';
import { operatorSummary } from './operator-graph.js';
import { flowSummary, sourceSummary } from './summaries.js';
import type { OverviewRows } from './types.js';

/** Keys one read may name in all: a bigger batch is as cheap to read as the whole overview. */
export const MAX_ROW_KEYS = 100;

export interface RowKeys {
  sources: string[];
  flows: string[];
  operators: string[];
  events: string[];
}

export function rowKeysOf(q: URLSearchParams): RowKeys {
  return {
    sources: q.getAll('source'),
    flows: q.getAll('flow'),
    operators: q.getAll('operator'),
    events: q.getAll('event'),
  };
}

export const rowKeyCount = (k: RowKeys): number =>
  k.sources.length + k.flows.length + k.operators.length + k.events.length;

/** `namespace/name` as a reference of that kind; undefined for anything else (no namespace, more slashes). */
function namespaced(apiVersion: string, kind: string, key: string): ObjectRef | undefined {
  const [namespace, name, ...rest] = key.split('/');
  return namespace && name && rest.length === 0 ? { apiVersion, kind, namespace, name } : undefined;
}

/** A kind not served (no Operator CRD) has no such row; anything else is the caller's error. */
function unlessServed(err: unknown): undefined {
  if (err instanceof UnknownKindError) return undefined;
  throw err;
}

/**
 * Reads each named row. A key that does not parse, or whose object is gone, is gone. A refusal
 * (the reader's RBAC) is thrown: the page then reads the whole overview, which says what is refused.
 */
export async function overviewRows(kube: KubeClient, keys: RowKeys): Promise<OverviewRows> {
  const read = async <T>(refs: Array<[string, ObjectRef | undefined]>, view: (o: KubeObject) => T) => {
    const objects = await Promise.all(refs.map(([, ref]) => (ref ? kube.get(ref).catch(unlessServed) : undefined)));
    const rows: T[] = [];
    const gone: string[] = [];
    for (const [i, o] of objects.entries()) {
      if (o) rows.push(view(o));
      else gone.push(refs[i]?.[0] ?? '');
    }
    return { rows, gone };
  };
  const operatorRef = (name: string): ObjectRef | undefined =>
    name && !name.includes('/') ? { apiVersion: OPERATOR_API_VERSION, kind: OPERATOR_KIND, name } : undefined;
  const [sources, flows, operators, events] = await Promise.all([
    read(
      keys.sources.map((k) => [k, namespaced(FLOWSOURCE_API_VERSION, FLOWSOURCE_KIND, k)]),
      sourceSummary,
    ),
    read(
      keys.flows.map((k) => [k, namespaced(FLOW_API_VERSION, FLOW_KIND, k)]),
      flowSummary,
    ),
    read(
      keys.operators.map((k) => [k, operatorRef(k)]),
      operatorSummary,
    ),
    read(
      keys.events.map((k) => [k, namespaced('v1', 'Event', k)]),
      (o) => recentEventOf(o),
    ),
  ]);
  return {
    sources: sources.rows,
    flows: flows.rows,
    operators: operators.rows,
    events: events.rows,
    gone: { sources: sources.gone, flows: flows.gone, operators: operators.gone, events: events.gone },
  };
}

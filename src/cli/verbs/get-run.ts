// `flowops get flows|sources|runs`: tables like kubectl's. Flows and sources use the API server's
// own Table output (their printer columns), so the columns are exactly `kubectl get`'s; runs are
// FlowOps' own view: every watched object with its last run.

import { stringify } from 'yaml';
import { FLOW_API_VERSION, RUNHISTORY_KIND } from '../../api/names.js';
import { readLastRun } from '../../engine/last-run.js';
import { resourcePath, type KubeClient, type Condition, type KubeObject, findCondition } from '../../kube/index.js';
import { renderTable } from '../history-command.js';
import { contextNamespace } from '../context-namespace.js';
import { SetupError } from '../../util/setup-error.js';
import { kindOf, targetKind } from './targets.js';
import type { RunHistory } from '../../api/index.js';
import { humanDuration } from '../../apiserver/table/human-duration.js';

export interface GetFlags {
  namespace?: string;
  allNamespaces?: boolean;
  output?: string;
}

interface Table {
  columnDefinitions: Array<{ name: string; priority: number }>;
  rows: Array<{ cells: unknown[]; object?: { metadata?: { namespace?: string } } }>;
}

const TABLE_ACCEPT = 'application/json;as=Table;v=v1;g=meta.k8s.io, application/json';

function namespaceOf(kube: KubeClient, flags: GetFlags): string | undefined {
  if (flags.allNamespaces) return undefined;
  return flags.namespace ?? contextNamespace(kube);
}

export async function runGet(kube: KubeClient, what: string, flags: GetFlags): Promise<string> {
  if (flags.output !== undefined && flags.output !== 'yaml' && flags.output !== 'json')
    throw new SetupError(`--output: expected "yaml" or "json", got "${flags.output}"`);
  const namespace = namespaceOf(kube, flags);
  if (what === 'runs' || what === 'run') return getRuns(kube, namespace, flags);
  const { apiVersion, kind } = kindOf(targetKind(what));
  const r = await kube.resource(apiVersion, kind);
  if (flags.output) {
    const { items } = await kube.list(apiVersion, kind, namespace ? { namespace } : {});
    return format({ apiVersion: 'v1', kind: 'List', items }, flags.output);
  }
  const table = await kube.rest.json<Table>('GET', resourcePath(r, namespace), {
    query: { includeObject: 'Metadata' },
    accept: TABLE_ACCEPT,
  });
  const columns = table.columnDefinitions.map((c, i) => ({ ...c, i })).filter((c) => c.priority === 0);
  if (!table.rows.length) return `No resources found${namespace ? ` in ${namespace} namespace` : ''}.\n`;
  const header = [...(namespace ? [] : ['NAMESPACE']), ...columns.map((c) => c.name.toUpperCase())];
  const rows = table.rows.map((row) => [
    ...(namespace ? [] : [row.object?.metadata?.namespace ?? '']),
    ...columns.map((c) => cell(row.cells[c.i])),
  ]);
  return renderTable([header, ...rows]);
}

const cell = (v: unknown): string =>
  v === undefined || v === null ? '<none>' : typeof v === 'object' ? JSON.stringify(v) : String(v);

function format(obj: unknown, output: string): string {
  return output === 'json' ? `${JSON.stringify(obj, null, 2)}\n` : stringify(obj);
}

/** Every watched object of every Flow (in the namespace, or all), with what its last run did. */
async function getRuns(kube: KubeClient, namespace: string | undefined, flags: GetFlags): Promise<string> {
  const { items: flows } = await kube.list(FLOW_API_VERSION, 'Flow', namespace ? { namespace } : {});
  const runs: Array<{ flow: string; object: KubeObject }> = [];
  for (const flow of flows) {
    const w = (flow.spec as { watch?: { apiVersion?: string; kind?: string; namespace?: string } }).watch;
    if (!w?.apiVersion || !w.kind) continue;
    const { items } = await kube
      .list(w.apiVersion, w.kind, w.namespace ? { namespace: w.namespace } : {})
      .catch(() => ({ items: [] as KubeObject[] }));
    for (const object of items) runs.push({ flow: `${flow.metadata.namespace}/${flow.metadata.name}`, object });
  }
  // One list of the RunHistories gives every object's times and durations.
  const histories = await kube
    .list(FLOW_API_VERSION, RUNHISTORY_KIND, namespace ? { namespace } : {})
    .catch(() => ({ items: [] as KubeObject[] }));
  const runsOf = new Map(
    (histories.items as unknown as RunHistory[]).map((h) => [h.spec.object.uid, h.status?.runs ?? []]),
  );
  const idOf = (object: KubeObject): string =>
    `${object.kind}/${object.metadata.namespace ? `${object.metadata.namespace}/` : ''}${object.metadata.name}`;
  if (flags.output) {
    return format(
      runs.map(({ flow, object }) => ({
        flow,
        object: idOf(object),
        lastRun: readLastRun(object) ?? null,
        ready: readyOf(object) ?? null,
        runs: runsOf.get(object.metadata.uid ?? '') ?? [],
      })),
      flags.output,
    );
  }
  if (!runs.length) return 'No watched objects found.\n';
  const rows = [['FLOW', 'OBJECT', 'RUN', 'DURATION', 'RAN', 'READY', 'REASON', 'REVISION']];
  for (const { flow, object } of runs) {
    const run = readLastRun(object);
    const timed = runsOf.get(object.metadata.uid ?? '')?.[0];
    const ready = readyOf(object);
    rows.push([
      flow,
      idOf(object),
      run?.outcome ?? '<none>',
      timed?.duration ?? '',
      timed ? humanDuration(Date.now() - Date.parse(timed.startTime)) : '',
      ready?.status ?? 'Unknown',
      ready?.reason ?? '',
      (run?.revision ?? '').replace(/@sha1:([0-9a-f]{8})[0-9a-f]*/, '@sha1:$1'),
    ]);
  }
  return renderTable(rows);
}

const readyOf = (o: KubeObject): Condition | undefined => findCondition(o, 'Ready');

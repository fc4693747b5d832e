import type { JsonObject, JsonValue } from '../registry/types.js';
import { ageOf } from './human-duration.js';

export interface Column {
  name: string;
  type: 'string' | 'integer' | 'number' | 'boolean' | 'date';
  priority: number;
  description: string;
  cell(obj: JsonObject): JsonValue;
}

const get = (obj: JsonValue | undefined, ...path: string[]): JsonValue | undefined => {
  let cur = obj;
  for (const p of path) cur = cur && typeof cur === 'object' && !Array.isArray(cur) ? cur[p] : undefined;
  return cur;
};
const num = (v: JsonValue | undefined): number => (typeof v === 'number' ? v : 0);
const str = (v: JsonValue | undefined, dflt = '<none>'): string => (v === undefined || v === null || v === '' ? dflt : String(v));
const count = (v: JsonValue | undefined): number => (v && typeof v === 'object' ? Object.keys(v).length : 0);
const list = (v: JsonValue | undefined): JsonObject[] => (Array.isArray(v) ? (v.filter((x) => x && typeof x === 'object' && !Array.isArray(x)) as JsonObject[]) : []);

const col = (name: string, type: Column['type'], cell: Column['cell'], priority = 0): Column => ({ name, type, priority, description: '', cell });
const age = col('Age', 'date', (o) => ageOf(get(o, 'metadata', 'creationTimestamp')));
const podSpecOf = (o: JsonObject): JsonValue | undefined => get(o, 'spec', 'template', 'spec');
const containers = (o: JsonObject): JsonObject[] => list(get(podSpecOf(o), 'containers'));
const wideContainers = [
  col('Containers', 'string', (o) => containers(o).map((c) => String(c.name)).join(','), 1),
  col('Images', 'string', (o) => containers(o).map((c) => String(c.image)).join(','), 1),
];
const selector = col('Selector', 'string', (o) => {
  const m = get(o, 'spec', 'selector', 'matchLabels');
  return m && typeof m === 'object' && !Array.isArray(m) ? Object.entries(m).map(([k, v]) => `${k}=${String(v)}`).join(',') || '<none>' : '<none>';
}, 1);

/** Columns kube-apiserver prints for common built-ins; status-derived cells show what is stored (nothing runs pods here). */
export const BUILTIN_COLUMNS: Record<string, Column[]> = {
  Namespace: [col('Status', 'string', (o) => str(get(o, 'status', 'phase'), 'Active')), age],
  ConfigMap: [col('Data', 'integer', (o) => count(o.data) + count(o.binaryData)), age],
  Secret: [col('Type', 'string', (o) => str(o.type, 'Opaque')), col('Data', 'integer', (o) => count(o.data)), age],
  ServiceAccount: [col('Secrets', 'integer', (o) => list(o.secrets).length), age],
  Service: [
    col('Type', 'string', (o) => str(get(o, 'spec', 'type'), 'ClusterIP')),
    col('Cluster-IP', 'string', (o) => str(get(o, 'spec', 'clusterIP'))),
    col('External-IP', 'string', (o) => str((get(o, 'spec', 'externalIPs') as JsonValue[] | undefined)?.join(','))),
    // makePortString (pkg/printers/internalversion): port[:nodePort]/protocol.
    col('Port(s)', 'string', (o) => list(get(o, 'spec', 'ports')).map((p) => `${String(p.port)}${p.nodePort ? `:${String(p.nodePort)}` : ''}/${str(p.protocol, 'TCP')}`).join(',') || '<none>'),
    age,
  ],
  Pod: [
    col('Ready', 'string', (o) => {
      const statuses = list(get(o, 'status', 'containerStatuses'));
      return `${statuses.filter((s) => s.ready === true).length}/${list(get(o, 'spec', 'containers')).length}`;
    }),
    col('Status', 'string', (o) => str(get(o, 'status', 'phase'), 'Pending')),
    col('Restarts', 'integer', (o) => list(get(o, 'status', 'containerStatuses')).reduce((n, s) => n + num(s.restartCount), 0)),
    age,
  ],
  Deployment: [
    col('Ready', 'string', (o) => `${num(get(o, 'status', 'readyReplicas'))}/${num(get(o, 'spec', 'replicas') ?? 1)}`),
    col('Up-to-date', 'integer', (o) => num(get(o, 'status', 'updatedReplicas'))),
    col('Available', 'integer', (o) => num(get(o, 'status', 'availableReplicas'))),
    age,
    ...wideContainers,
    selector,
  ],
  StatefulSet: [col('Ready', 'string', (o) => `${num(get(o, 'status', 'readyReplicas'))}/${num(get(o, 'spec', 'replicas') ?? 1)}`), age, ...wideContainers],
  ReplicaSet: [
    col('Desired', 'integer', (o) => num(get(o, 'spec', 'replicas') ?? 1)),
    col('Current', 'integer', (o) => num(get(o, 'status', 'replicas'))),
    col('Ready', 'integer', (o) => num(get(o, 'status', 'readyReplicas'))),
    age,
    ...wideContainers,
    selector,
  ],
  DaemonSet: [
    col('Desired', 'integer', (o) => num(get(o, 'status', 'desiredNumberScheduled'))),
    col('Current', 'integer', (o) => num(get(o, 'status', 'currentNumberScheduled'))),
    col('Ready', 'integer', (o) => num(get(o, 'status', 'numberReady'))),
    col('Up-to-date', 'integer', (o) => num(get(o, 'status', 'updatedNumberScheduled'))),
    col('Available', 'integer', (o) => num(get(o, 'status', 'numberAvailable'))),
    age,
  ],
  Job: [
    col('Status', 'string', (o) => (list(get(o, 'status', 'conditions')).find((c) => c.status === 'True')?.type as string | undefined) ?? 'Running'),
    col('Completions', 'string', (o) => `${num(get(o, 'status', 'succeeded'))}/${num(get(o, 'spec', 'completions') ?? 1)}`),
    age,
  ],
  CronJob: [
    col('Schedule', 'string', (o) => str(get(o, 'spec', 'schedule'))),
    col('Suspend', 'boolean', (o) => get(o, 'spec', 'suspend') === true),
    col('Active', 'integer', (o) => list(get(o, 'status', 'active')).length),
    col('Last Schedule', 'string', (o) => (get(o, 'status', 'lastScheduleTime') ? ageOf(get(o, 'status', 'lastScheduleTime')) : '<none>')),
    age,
  ],
  Lease: [col('Holder', 'string', (o) => str(get(o, 'spec', 'holderIdentity'), '')), age],
  CustomResourceDefinition: [col('Created At', 'date', (o) => str(get(o, 'metadata', 'creationTimestamp')))],
  // Both Event APIs print alike (kube-apiserver prints the internal type): events.k8s.io's names first.
  Event: [
    col('Last Seen', 'string', (o) => ageOf(get(o, 'lastTimestamp') ?? get(o, 'deprecatedLastTimestamp') ?? get(o, 'eventTime') ?? get(o, 'metadata', 'creationTimestamp'))),
    col('Type', 'string', (o) => str(o.type, 'Normal')),
    col('Reason', 'string', (o) => str(o.reason, '')),
    col('Object', 'string', (o) => {
      const ref = get(o, 'involvedObject') ?? get(o, 'regarding');
      return `${String(get(ref, 'kind') ?? '').toLowerCase()}/${str(get(ref, 'name'), '')}`;
    }),
    col('Message', 'string', (o) => str(o.message ?? o.note, '')),
  ],
};

export const DEFAULT_COLUMNS: Column[] = [age];

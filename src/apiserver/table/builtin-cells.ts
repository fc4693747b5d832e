import type { JsonObject, JsonValue } from '../registry/types.js';
import { ageOf } from './human-duration.js';
import { ageCell, count, createdAtCell, get, isMap, list, num, orNone, strings, text } from './cell-values.js';

/**
 * The cells kube-apiserver's table printers (pkg/printers/internalversion/printers.go, v1.34, with
 * the wide columns the server always fills) compute for each built-in kind, by column name; the
 * column definitions are builtin-column-definitions.json, generated from a real server. Status
 * cells show what is stored: nothing runs pods here.
 */
export type Cell = (obj: JsonObject) => JsonValue;

const age: Cell = ageCell;
const createdAt: Cell = createdAtCell;

/** labels.FormatLabels: sorted `k=v` pairs, `<none>` when empty. */
function formatLabels(m: JsonValue | undefined): string {
  if (!isMap(m) || !Object.keys(m).length) return '<none>';
  return Object.keys(m)
    .sort()
    .map((k) => `${k}=${text(m[k])}`)
    .join(',');
}

/** metav1.FormatLabelSelector: requirements sorted by key, `<none>` for a nil or empty selector. */
function formatLabelSelector(sel: JsonValue | undefined): string {
  if (!isMap(sel)) return '<none>';
  const reqs: Array<[string, string]> = [];
  const labels = sel.matchLabels;
  if (isMap(labels)) for (const [k, v] of Object.entries(labels)) reqs.push([k, `${k}=${text(v)}`]);
  for (const e of list(sel.matchExpressions)) {
    const key = text(e.key);
    const values = strings(e.values).sort().join(',');
    const op = text(e.operator);
    reqs.push([
      key,
      op === 'In'
        ? `${key} in (${values})`
        : op === 'NotIn'
          ? `${key} notin (${values})`
          : op === 'Exists'
            ? key
            : `!${key}`,
    ]);
  }
  const s = reqs
    .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
    .map((r) => r[1])
    .join(',');
  return s || '<none>';
}

const templateSpec = (o: JsonObject): JsonValue | undefined => get(o, 'spec', 'template', 'spec');
/** The wide Containers / Images / Selector columns of the workloads. */
const wide = (
  pod: (o: JsonObject) => JsonValue | undefined,
  selector: (o: JsonObject) => JsonValue | undefined,
): Record<string, Cell> => ({
  Containers: (o) =>
    list(get(pod(o), 'containers'))
      .map((c) => text(c.name))
      .join(','),
  Images: (o) =>
    list(get(pod(o), 'containers'))
      .map((c) => text(c.image))
      .join(','),
  Selector: (o) => formatLabelSelector(selector(o)),
});
const workloadWide = wide(templateSpec, (o) => get(o, 'spec', 'selector'));

/** getAccessModesAsString: RWO, ROX, RWX, RWOP in that order. */
function accessModes(v: JsonValue | undefined): string {
  const modes = strings(v);
  const order: Array<[string, string]> = [
    ['ReadWriteOnce', 'RWO'],
    ['ReadOnlyMany', 'ROX'],
    ['ReadWriteMany', 'RWX'],
    ['ReadWriteOncePod', 'RWOP'],
  ];
  return order
    .filter(([m]) => modes.includes(m))
    .map(([, s]) => s)
    .join(',');
}

const terminatingOr = (o: JsonObject, phase: string): string =>
  get(o, 'metadata', 'deletionTimestamp') ? 'Terminating' : phase;
const storageClass = (o: JsonObject): string =>
  text(
    get(o, 'spec', 'storageClassName') ?? get(o, 'metadata', 'annotations', 'volume.beta.kubernetes.io/storage-class'),
  );

/** makePortString: `port[:nodePort]/protocol`. */
const servicePorts: Cell = (o) =>
  list(get(o, 'spec', 'ports'))
    .map((p) => `${text(p.port)}${p.nodePort ? `:${text(p.nodePort)}` : ''}/${text(p.protocol) || 'TCP'}`)
    .join(',') || '<none>';

/** getServiceExternalIP. */
function serviceExternalIP(o: JsonObject): string {
  const type = text(get(o, 'spec', 'type')) || 'ClusterIP';
  const external = strings(get(o, 'spec', 'externalIPs'));
  const lb = list(get(o, 'status', 'loadBalancer', 'ingress')).map((i) => text(i.ip ?? i.hostname));
  if (type === 'ExternalName') return text(get(o, 'spec', 'externalName'));
  if (type === 'LoadBalancer') return [...lb, ...external].join(',') || '<pending>';
  return external.join(',') || '<none>';
}

/** printPod's status column for what is stored (phase, reason, waiting or terminated containers). */
function podStatus(o: JsonObject): string {
  let reason = text(get(o, 'status', 'reason')) || text(get(o, 'status', 'phase'));
  for (const c of list(get(o, 'status', 'containerStatuses'))) {
    const waiting = text(get(c.state, 'waiting', 'reason'));
    const terminated = text(get(c.state, 'terminated', 'reason'));
    if (waiting) reason = waiting;
    else if (terminated) reason = terminated;
  }
  if (get(o, 'metadata', 'deletionTimestamp')) return reason === 'NodeLost' ? 'Unknown' : 'Terminating';
  return reason;
}

/** formatEndpoints: `ip:port` pairs, at most three then ` + N more...`. */
function endpoints(o: JsonObject): string {
  const all: string[] = [];
  for (const s of list(o.subsets)) {
    const ports = list(s.ports);
    for (const a of list(s.addresses)) {
      if (!ports.length) all.push(text(a.ip));
      for (const p of ports) all.push(`${text(a.ip)}:${text(p.port)}`);
    }
  }
  if (!all.length) return '<none>';
  return all.length > 3 ? `${all.slice(0, 3).join(',')} + ${all.length - 3} more...` : all.join(',');
}

/** printResourceQuota: `resource: used/hard` from status, limits.* in the Limit column. */
function quota(o: JsonObject, limits: boolean): string {
  const hard = get(o, 'status', 'hard');
  const used = get(o, 'status', 'used');
  if (!isMap(hard)) return '';
  return Object.keys(hard)
    .sort()
    .filter((r) => (r.split('.')[0] === 'limits' && r.includes('.')) === limits)
    .map((r) => `${r}: ${text(isMap(used) ? (used[r] ?? '0') : '0')}/${text(hard[r])}`)
    .join(', ');
}

/** The node-role.kubernetes.io/<role> and kubernetes.io/role labels, sorted. */
function nodeRoles(o: JsonObject): string {
  const labels = get(o, 'metadata', 'labels');
  const roles = new Set<string>();
  if (isMap(labels)) {
    for (const [k, v] of Object.entries(labels)) {
      if (k.startsWith('node-role.kubernetes.io/')) roles.add(k.slice('node-role.kubernetes.io/'.length));
      else if (k === 'kubernetes.io/role' && text(v)) roles.add(text(v));
    }
  }
  return [...roles].sort().join(',') || '<none>';
}

function nodeStatus(o: JsonObject): string {
  const ready = list(get(o, 'status', 'conditions')).find((c) => c.type === 'Ready');
  const status = [ready ? (ready.status === 'True' ? 'Ready' : 'NotReady') : 'Unknown'];
  if (get(o, 'spec', 'unschedulable') === true) status.push('SchedulingDisabled');
  return status.join(',');
}

const nodeAddress = (o: JsonObject, type: string): string =>
  orNone(list(get(o, 'status', 'addresses')).find((a) => a.type === type)?.address);

function jobStatus(o: JsonObject): string {
  const has = (type: string): boolean =>
    list(get(o, 'status', 'conditions')).some((c) => c.type === type && c.status === 'True');
  if (has('Complete')) return 'Complete';
  if (has('Failed')) return 'Failed';
  if (get(o, 'metadata', 'deletionTimestamp')) return 'Terminating';
  if (has('Suspended')) return 'Suspended';
  if (has('FailureTarget')) return 'FailureTarget';
  if (has('SuccessCriteriaMet')) return 'SuccessCriteriaMet';
  return 'Running';
}

function jobCompletions(o: JsonObject): string {
  const succeeded = num(get(o, 'status', 'succeeded'));
  const completions = get(o, 'spec', 'completions');
  if (typeof completions === 'number') return `${succeeded}/${completions}`;
  const parallelism = num(get(o, 'spec', 'parallelism'));
  return parallelism > 1 ? `${succeeded}/1 of ${parallelism}` : `${succeeded}/1`;
}

function jobDuration(o: JsonObject): string {
  const start = get(o, 'status', 'startTime');
  if (typeof start !== 'string') return '';
  const end = get(o, 'status', 'completionTime');
  return ageOf(start, typeof end === 'string' ? Date.parse(end) : Date.now());
}

/** intstr as printed: its value, `N/A` when unset. */
const intOrString = (v: JsonValue | undefined): string => (v === undefined || v === null ? 'N/A' : String(v));

/** formatHosts: up to four, then ` + N more...`; `*` when no rule names a host. */
function ingressHosts(o: JsonObject): string {
  const hosts = list(get(o, 'spec', 'rules'))
    .map((r) => text(r.host))
    .filter(Boolean);
  if (!hosts.length) return '*';
  return hosts.length > 4 ? `${hosts.slice(0, 4).join(',')} + ${hosts.length - 4} more...` : hosts.join(',');
}

/** formatEventSource: component (or reporting controller), then `, host`. */
function eventSource(o: JsonObject): string {
  const component = text(get(o, 'source', 'component')) || text(o.reportingComponent);
  const host = text(get(o, 'source', 'host')) || text(o.reportingInstance);
  return host ? `${component}, ${host}` : component;
}

const eventFirstSeen = (o: JsonObject): string => (o.firstTimestamp ? ageOf(o.firstTimestamp) : ageOf(o.eventTime));

/** rbac SubjectsStrings: users, groups and `namespace/name` service accounts. */
const subjects = (o: JsonObject, kind: string): string =>
  list(o.subjects)
    .filter((s) => s.kind === kind)
    .map((s) => (kind === 'ServiceAccount' ? `${text(s.namespace)}/${text(s.name)}` : text(s.name)))
    .join(', ');
const bindingCells: Record<string, Cell> = {
  Role: (o) => `${text(get(o, 'roleRef', 'kind'))}/${text(get(o, 'roleRef', 'name'))}`,
  Age: age,
  Users: (o) => subjects(o, 'User'),
  Groups: (o) => subjects(o, 'Group'),
  ServiceAccounts: (o) => subjects(o, 'ServiceAccount'),
};

/** HPA's Targets for what is stored: `<resource>: <current>/<target>`, current `<unknown>` until measured. */
function hpaTargets(o: JsonObject): string {
  const metrics = list(get(o, 'spec', 'metrics'));
  // autoscaling/v1 keeps one CPU target, which the printer sees as the internal type's resource metric.
  const cpuTarget = get(o, 'spec', 'targetCPUUtilizationPercentage');
  if (!metrics.length && cpuTarget !== undefined) {
    const current = get(o, 'status', 'currentCPUUtilizationPercentage');
    return `cpu: ${current === undefined ? '<unknown>' : `${text(current)}%`}/${text(cpuTarget)}%`;
  }
  if (!metrics.length) return '<none>';
  return metrics
    .map((m) => {
      const r = isMap(m.resource) ? m.resource : undefined;
      const target = r && isMap(r.target) ? r.target : undefined;
      if (!r || !target) return '<unknown>';
      const want =
        target.averageUtilization !== undefined
          ? `${text(target.averageUtilization)}%`
          : text(target.averageValue ?? target.value);
      return `${text(r.name)}: <unknown>/${want}`;
    })
    .join(', ');
}

const CORE_EVENT_CELLS: Record<string, Cell> = {
  'Last Seen': (o) => (o.lastTimestamp ? ageOf(o.lastTimestamp) : eventFirstSeen(o)),
  Type: (o) => text(o.type),
  Reason: (o) => text(o.reason),
  Object: (o) => {
    const kind = text(get(o, 'involvedObject', 'kind')).toLowerCase();
    const name = text(get(o, 'involvedObject', 'name'));
    return name ? `${kind}/${name}` : kind;
  },
  Subobject: (o) => text(get(o, 'involvedObject', 'fieldPath')),
  Source: eventSource,
  Message: (o) => text(o.message).trim(),
  'First Seen': eventFirstSeen,
  Count: (o) => num(get(o, 'series', 'count') ?? o.count) || 1,
  Name: (o) => text(get(o, 'metadata', 'name')),
};

/** An events.k8s.io/v1 Event in the core fields the one printer (of the internal type) reads. */
function asCoreEvent(o: JsonObject): JsonObject {
  const core: JsonObject = {
    ...o,
    involvedObject: o.regarding ?? {},
    message: o.note ?? '',
    source: o.deprecatedSource ?? {},
  };
  for (const [from, to] of [
    ['deprecatedFirstTimestamp', 'firstTimestamp'],
    ['deprecatedLastTimestamp', 'lastTimestamp'],
    ['deprecatedCount', 'count'],
  ] as const) {
    if (o[from] !== undefined) core[to] = o[from]!;
  }
  if (o.reportingController !== undefined) core.reportingComponent = o.reportingController;
  return core;
}

/** printEndpointSlice's address and port lists: at most three, `<unset>` when empty. */
function upToThree(values: string[]): string {
  if (!values.length) return '<unset>';
  return values.length > 3 ? `${values.slice(0, 3).join(',')} + ${values.length - 3} more...` : values.join(',');
}

export const BUILTIN_CELLS: Record<string, Record<string, Cell>> = {
  '/ReplicationController': {
    Desired: (o) => num(get(o, 'spec', 'replicas')),
    Current: (o) => num(get(o, 'status', 'replicas')),
    Ready: (o) => num(get(o, 'status', 'readyReplicas')),
    Age: age,
    Containers: workloadWide.Containers!,
    Images: workloadWide.Images!,
    Selector: (o) => formatLabels(get(o, 'spec', 'selector')),
  },
  '/PodTemplate': {
    Containers: (o) =>
      list(get(o, 'template', 'spec', 'containers'))
        .map((c) => text(c.name))
        .join(','),
    Images: (o) =>
      list(get(o, 'template', 'spec', 'containers'))
        .map((c) => text(c.image))
        .join(','),
    'Pod Labels': (o) => formatLabels(get(o, 'template', 'metadata', 'labels')),
  },
  'networking.k8s.io/IngressClass': {
    Controller: (o) => text(get(o, 'spec', 'controller')),
    Parameters: (o) => {
      const p = get(o, 'spec', 'parameters');
      if (!isMap(p)) return '<none>';
      return `${text(p.kind)}${p.apiGroup ? `.${text(p.apiGroup)}` : ''}/${text(p.name)}`;
    },
    Age: age,
  },
  'discovery.k8s.io/EndpointSlice': {
    AddressType: (o) => text(o.addressType),
    Ports: (o) =>
      upToThree(list(o.ports).map((p) => (p.port === undefined || p.port === null ? '<unset>' : text(p.port)))),
    Endpoints: (o) => upToThree(list(o.endpoints).flatMap((e) => strings(e.addresses))),
    Age: age,
  },
  'storage.k8s.io/StorageClass': {
    // printStorageClass marks the default class after its name.
    Name: (o) =>
      `${text(get(o, 'metadata', 'name'))}${['storageclass.kubernetes.io/is-default-class', 'storageclass.beta.kubernetes.io/is-default-class'].some((a) => get(o, 'metadata', 'annotations', a) === 'true') ? ' (default)' : ''}`,
    Provisioner: (o) => text(o.provisioner),
    ReclaimPolicy: (o) => text(o.reclaimPolicy ?? 'Delete'),
    VolumeBindingMode: (o) => text(o.volumeBindingMode ?? 'Immediate'),
    AllowVolumeExpansion: (o) => o.allowVolumeExpansion === true,
    Age: age,
  },
  'events.k8s.io/Event': Object.fromEntries(
    Object.entries(CORE_EVENT_CELLS).map(([name, cell]) => [name, (o: JsonObject) => cell(asCoreEvent(o))]),
  ),
  '/Namespace': { Status: (o) => text(get(o, 'status', 'phase')), Age: age },
  '/ConfigMap': { Data: (o) => count(o.data) + count(o.binaryData), Age: age },
  '/Secret': { Type: (o) => text(o.type), Data: (o) => count(o.data), Age: age },
  '/Service': {
    Type: (o) => text(get(o, 'spec', 'type')),
    'Cluster-IP': (o) => orNone(get(o, 'spec', 'clusterIP')),
    'External-IP': serviceExternalIP,
    'Port(s)': servicePorts,
    Age: age,
    Selector: (o) => formatLabels(get(o, 'spec', 'selector')),
  },
  '/ServiceAccount': { Secrets: (o) => list(o.secrets).length, Age: age },
  '/Event': CORE_EVENT_CELLS,
  '/Pod': {
    Ready: (o) =>
      `${list(get(o, 'status', 'containerStatuses')).filter((s) => s.ready === true).length}/${list(get(o, 'spec', 'containers')).length}`,
    Status: podStatus,
    Restarts: (o) => String(list(get(o, 'status', 'containerStatuses')).reduce((n, s) => n + num(s.restartCount), 0)),
    Age: age,
    IP: (o) => orNone(get(o, 'status', 'podIP')),
    Node: (o) => orNone(get(o, 'spec', 'nodeName')),
    'Nominated Node': (o) => orNone(get(o, 'status', 'nominatedNodeName')),
    'Readiness Gates': (o) => {
      const gates = list(get(o, 'spec', 'readinessGates'));
      if (!gates.length) return '<none>';
      const conditions = list(get(o, 'status', 'conditions'));
      const ready = gates.filter((g) =>
        conditions.some((c) => c.type === g.conditionType && c.status === 'True'),
      ).length;
      return `${ready}/${gates.length}`;
    },
  },
  '/Endpoints': { Endpoints: endpoints, Age: age },
  '/PersistentVolumeClaim': {
    Status: (o) => terminatingOr(o, text(get(o, 'status', 'phase'))),
    Volume: (o) => text(get(o, 'spec', 'volumeName')),
    Capacity: (o) => (get(o, 'spec', 'volumeName') ? text(get(o, 'status', 'capacity', 'storage')) : ''),
    'Access Modes': (o) => (get(o, 'spec', 'volumeName') ? accessModes(get(o, 'status', 'accessModes')) : ''),
    StorageClass: storageClass,
    VolumeAttributesClass: (o) => orNone(get(o, 'spec', 'volumeAttributesClassName'), '<unset>'),
    Age: age,
    VolumeMode: (o) => orNone(get(o, 'spec', 'volumeMode'), '<unset>'),
  },
  '/PersistentVolume': {
    Capacity: (o) => text(get(o, 'spec', 'capacity', 'storage')),
    'Access Modes': (o) => accessModes(get(o, 'spec', 'accessModes')),
    'Reclaim Policy': (o) => text(get(o, 'spec', 'persistentVolumeReclaimPolicy')),
    Status: (o) => terminatingOr(o, text(get(o, 'status', 'phase'))),
    Claim: (o) =>
      get(o, 'spec', 'claimRef')
        ? `${text(get(o, 'spec', 'claimRef', 'namespace'))}/${text(get(o, 'spec', 'claimRef', 'name'))}`
        : '',
    StorageClass: storageClass,
    VolumeAttributesClass: (o) => orNone(get(o, 'spec', 'volumeAttributesClassName'), '<unset>'),
    Reason: (o) => text(get(o, 'status', 'reason')),
    Age: age,
    VolumeMode: (o) => orNone(get(o, 'spec', 'volumeMode'), '<unset>'),
  },
  '/Node': {
    Status: nodeStatus,
    Roles: nodeRoles,
    Age: age,
    Version: (o) => text(get(o, 'status', 'nodeInfo', 'kubeletVersion')),
    'Internal-IP': (o) => nodeAddress(o, 'InternalIP'),
    'External-IP': (o) => nodeAddress(o, 'ExternalIP'),
    'OS-Image': (o) => orNone(get(o, 'status', 'nodeInfo', 'osImage'), '<unknown>'),
    'Kernel-Version': (o) => orNone(get(o, 'status', 'nodeInfo', 'kernelVersion'), '<unknown>'),
    'Container-Runtime': (o) => orNone(get(o, 'status', 'nodeInfo', 'containerRuntimeVersion'), '<unknown>'),
  },
  '/LimitRange': { 'Created At': createdAt },
  '/ResourceQuota': { Request: (o) => quota(o, false), Limit: (o) => quota(o, true), Age: age },
  'apps/Deployment': {
    Ready: (o) => `${num(get(o, 'status', 'readyReplicas'))}/${num(get(o, 'spec', 'replicas'))}`,
    'Up-to-date': (o) => num(get(o, 'status', 'updatedReplicas')),
    Available: (o) => num(get(o, 'status', 'availableReplicas')),
    Age: age,
    ...workloadWide,
  },
  'apps/StatefulSet': {
    Ready: (o) => `${num(get(o, 'status', 'readyReplicas'))}/${num(get(o, 'spec', 'replicas'))}`,
    Age: age,
    Containers: workloadWide.Containers!,
    Images: workloadWide.Images!,
  },
  'apps/DaemonSet': {
    Desired: (o) => num(get(o, 'status', 'desiredNumberScheduled')),
    Current: (o) => num(get(o, 'status', 'currentNumberScheduled')),
    Ready: (o) => num(get(o, 'status', 'numberReady')),
    'Up-to-date': (o) => num(get(o, 'status', 'updatedNumberScheduled')),
    Available: (o) => num(get(o, 'status', 'numberAvailable')),
    'Node Selector': (o) => formatLabels(get(templateSpec(o), 'nodeSelector')),
    Age: age,
    ...workloadWide,
  },
  'apps/ReplicaSet': {
    Desired: (o) => num(get(o, 'spec', 'replicas')),
    Current: (o) => num(get(o, 'status', 'replicas')),
    Ready: (o) => num(get(o, 'status', 'readyReplicas')),
    Age: age,
    ...workloadWide,
  },
  'apps/ControllerRevision': {
    Controller: (o) => {
      const ref = list(get(o, 'metadata', 'ownerReferences')).find((r) => r.controller === true);
      if (!ref) return '<none>';
      const group = text(ref.apiVersion).includes('/') ? text(ref.apiVersion).split('/')[0]! : '';
      return `${(group ? `${text(ref.kind)}.${group}` : text(ref.kind)).toLowerCase()}/${text(ref.name)}`;
    },
    Revision: (o) => num(o.revision),
    Age: age,
  },
  'batch/Job': { Status: jobStatus, Completions: jobCompletions, Duration: jobDuration, Age: age, ...workloadWide },
  'batch/CronJob': {
    Schedule: (o) => text(get(o, 'spec', 'schedule')),
    Timezone: (o) => orNone(get(o, 'spec', 'timeZone')),
    Suspend: (o) =>
      get(o, 'spec', 'suspend') === undefined ? '<unset>' : get(o, 'spec', 'suspend') === true ? 'True' : 'False',
    Active: (o) => list(get(o, 'status', 'active')).length,
    'Last Schedule': (o) =>
      get(o, 'status', 'lastScheduleTime') ? ageOf(get(o, 'status', 'lastScheduleTime')) : '<none>',
    Age: age,
    ...wide(
      (o) => get(o, 'spec', 'jobTemplate', 'spec', 'template', 'spec'),
      (o) => get(o, 'spec', 'jobTemplate', 'spec', 'selector'),
    ),
  },
  'autoscaling/HorizontalPodAutoscaler': {
    Reference: (o) =>
      `${text(get(o, 'spec', 'scaleTargetRef', 'kind'))}/${text(get(o, 'spec', 'scaleTargetRef', 'name'))}`,
    Targets: hpaTargets,
    MinPods: (o) => (get(o, 'spec', 'minReplicas') === undefined ? '<unset>' : String(get(o, 'spec', 'minReplicas'))),
    MaxPods: (o) => num(get(o, 'spec', 'maxReplicas')),
    Replicas: (o) => num(get(o, 'status', 'currentReplicas')),
    Age: age,
  },
  'policy/PodDisruptionBudget': {
    'Min Available': (o) => intOrString(get(o, 'spec', 'minAvailable')),
    'Max Unavailable': (o) => intOrString(get(o, 'spec', 'maxUnavailable')),
    'Allowed Disruptions': (o) => num(get(o, 'status', 'disruptionsAllowed')),
    Age: age,
  },
  'networking.k8s.io/Ingress': {
    Class: (o) => orNone(get(o, 'spec', 'ingressClassName')),
    Hosts: ingressHosts,
    Address: (o) =>
      list(get(o, 'status', 'loadBalancer', 'ingress'))
        .map((i) => text(i.ip ?? i.hostname))
        .join(','),
    Ports: (o) => (list(get(o, 'spec', 'tls')).length ? '80, 443' : '80'),
    Age: age,
  },
  'networking.k8s.io/NetworkPolicy': {
    'Pod-Selector': (o) => formatLabelSelector(get(o, 'spec', 'podSelector')),
    Age: age,
  },
  'coordination.k8s.io/Lease': { Holder: (o) => text(get(o, 'spec', 'holderIdentity')), Age: age },
  'scheduling.k8s.io/PriorityClass': {
    Value: (o) => num(o.value),
    'Global-Default': (o) => o.globalDefault === true,
    Age: age,
    PreemptionPolicy: (o) => text(o.preemptionPolicy),
  },
  'rbac.authorization.k8s.io/Role': { 'Created At': createdAt },
  'rbac.authorization.k8s.io/ClusterRole': { 'Created At': createdAt },
  'rbac.authorization.k8s.io/RoleBinding': bindingCells,
  'rbac.authorization.k8s.io/ClusterRoleBinding': bindingCells,
  'apiextensions.k8s.io/CustomResourceDefinition': { 'Created At': createdAt },
};

// `flowops tree` / `flowops why`: the causal chain of an object as data — FlowSource → commit →
// Flow → watched object → its last run → its children with their health — read from what the
// sync and the engine leave on the objects (provenance annotations, the inventory, the run record,
// conditions). Rendering is render-tree.ts's job.

import {
  type FlowSourceStatus,
  FLOW_GENERATION_ANNOTATION,
  type RolloutStatus,
  FLOW_API_VERSION,
  FLOWSOURCE_API_VERSION,
  FLOWSOURCE_KIND,
  type Run,
} from '../../api/index.js';
import { readInventory, refOfChild, readLastRun, type LastRun, readRuns } from '../../engine/index.js';
import { ownerOf } from '../../controller/child-watches.js';
import { type KubeClient, findCondition, healthOf, type HealthStatus, type KubeObject } from '../../kube/index.js';
import { PATH_ANNOTATION, REVISION_ANNOTATION, SOURCE_ANNOTATION } from '../../sync/provenance.js';

export interface ReadyState {
  status: 'True' | 'False' | 'Unknown';
  reason?: string;
  message?: string;
}

export interface ChildNode {
  kind: string;
  namespace?: string;
  name: string;
  health: HealthStatus | 'Missing';
  message: string;
}

export interface ObjectNode {
  kind: string;
  namespace?: string;
  name: string;
  ready?: ReadyState;
  stalled?: ReadyState;
  lastRun?: LastRun;
  /** The generation of its Flow that last reconciled it (flowops.io/flow-generation). */
  generation?: number;
  /** Its RunHistory, newest first: start times and durations of the last runs. */
  runs: Run[];
  children: ChildNode[];
}

export interface FlowNode {
  namespace: string;
  name: string;
  generation: number;
  ready?: ReadyState;
  /** The file in the source repository that defines the Flow. */
  path?: string;
  /** Its progressive rollout, when spec.rollout has one going or ended (status.rollout). */
  rollout?: { generation?: number; state?: string; currentStage?: number; stages: number };
  objects: ObjectNode[];
}

export interface CausalTree {
  source?: { namespace: string; name: string; url?: string; ready?: ReadyState };
  commit?: { revision: string; outcome?: string; time?: string; live: boolean };
  flow?: FlowNode;
  /** Set when no Flow watches the object's kind: the object alone. */
  unwatched?: ObjectNode;
}

const conditionOf = (obj: KubeObject, type: string): ReadyState | undefined => {
  const c = findCondition(obj, type);
  return c
    ? { status: c.status, ...(c.reason ? { reason: c.reason } : {}), ...(c.message ? { message: c.message } : {}) }
    : undefined;
};

/** The watched object with its run record and each child's live health. */
export async function objectNode(kube: KubeClient, obj: KubeObject): Promise<ObjectNode> {
  const children: ChildNode[] = [];
  for (const entry of readInventory(obj)) {
    const live = await kube.get(refOfChild(entry)).catch(() => undefined);
    const health = live
      ? healthOf(live)
      : { status: 'Missing' as const, message: 'not found (FlowOps puts it back on its next run)' };
    children.push({
      kind: entry.kind,
      ...(entry.namespace ? { namespace: entry.namespace } : {}),
      name: entry.name,
      health: health.status,
      message: health.message,
    });
  }
  const ready = conditionOf(obj, 'Ready');
  const stalled = conditionOf(obj, 'Stalled');
  const lastRun = readLastRun(obj);
  const runs = await readRuns(kube, obj);
  const generation = Number(obj.metadata.annotations?.[FLOW_GENERATION_ANNOTATION] ?? NaN);
  return {
    kind: obj.kind,
    ...(obj.metadata.namespace ? { namespace: obj.metadata.namespace } : {}),
    name: obj.metadata.name!,
    ...(ready ? { ready } : {}),
    ...(stalled?.status === 'True' ? { stalled } : {}),
    ...(lastRun ? { lastRun } : {}),
    ...(Number.isInteger(generation) && generation > 0 ? { generation } : {}),
    runs,
    children,
  };
}

/** The watched object a child's annotations name (flowops.io/flow + flowops.io/owner), if it is one of a Flow's children. */
export async function ownerOfChild(kube: KubeClient, child: KubeObject): Promise<KubeObject | undefined> {
  const owner = ownerOf(child);
  if (!owner) return undefined;
  const [namespace, name] = owner.flow.split('/') as [string, string];
  const flow = await kube.get({ apiVersion: FLOW_API_VERSION, kind: 'Flow', namespace, name }).catch(() => undefined);
  const watch = (flow?.spec as { watch?: { apiVersion?: string; kind?: string } } | undefined)?.watch;
  if (!watch?.apiVersion || watch.kind !== owner.kind) return undefined;
  return kube
    .get({
      apiVersion: watch.apiVersion,
      kind: owner.kind,
      name: owner.name,
      ...(owner.namespace ? { namespace: owner.namespace } : {}),
    })
    .catch(() => undefined);
}

/** The Flows that watch `obj`'s kind; the run record names the one that ran it when there is one. */
async function flowsFor(kube: KubeClient, obj: KubeObject): Promise<KubeObject[]> {
  const ran = readLastRun(obj)?.flow;
  if (ran) {
    const [namespace, name] = ran.split('/') as [string, string];
    const flow = await kube.get({ apiVersion: FLOW_API_VERSION, kind: 'Flow', namespace, name });
    if (flow) return [flow];
  }
  const { items } = await kube.list(FLOW_API_VERSION, 'Flow');
  return items.filter((f) => {
    const w = (f.spec as { watch?: { apiVersion?: string; kind?: string } }).watch;
    return w?.apiVersion === obj.apiVersion && w.kind === obj.kind;
  });
}

async function upstream(kube: KubeClient, flow: KubeObject): Promise<Pick<CausalTree, 'source' | 'commit'>> {
  const a = flow.metadata.annotations ?? {};
  const sourceRef = a[SOURCE_ANNOTATION];
  if (!sourceRef) return {};
  const [namespace, name] = sourceRef.split('/') as [string, string];
  const source = await kube
    .get({ apiVersion: FLOWSOURCE_API_VERSION, kind: FLOWSOURCE_KIND, namespace, name })
    .catch(() => undefined);
  const status = (source?.status ?? {}) as FlowSourceStatus;
  const revision = a[REVISION_ANNOTATION];
  const entry = (status.history ?? []).find((h) => h.revision === revision);
  const ready = source ? conditionOf(source, 'Ready') : undefined;
  const url = (source?.spec as { url?: string } | undefined)?.url;
  return {
    source: { namespace, name, ...(url ? { url } : {}), ...(ready ? { ready } : {}) },
    ...(revision
      ? {
          commit: {
            revision,
            ...(entry ? { outcome: entry.outcome, time: entry.time } : {}),
            live: status.lastAppliedRevision === revision,
          },
        }
      : {}),
  };
}

function flowNode(flow: KubeObject, objects: ObjectNode[]): FlowNode {
  const ready = conditionOf(flow, 'Ready');
  const path = flow.metadata.annotations?.[PATH_ANNOTATION];
  const r = ((flow.status ?? {}) as { rollout?: RolloutStatus }).rollout;
  const rollout = r?.state
    ? {
        ...(r.generation !== undefined ? { generation: r.generation } : {}),
        state: r.state,
        ...(r.currentStage !== undefined ? { currentStage: r.currentStage } : {}),
        stages: r.stages?.length ?? 0,
      }
    : undefined;
  return {
    namespace: flow.metadata.namespace ?? 'default',
    name: flow.metadata.name ?? '',
    generation: flow.metadata.generation ?? 0,
    ...(ready ? { ready } : {}),
    ...(path ? { path } : {}),
    ...(rollout ? { rollout } : {}),
    objects,
  };
}

/** The chain for a watched object: one tree per Flow that watches its kind (usually one). */
export async function treeOfObject(kube: KubeClient, obj: KubeObject): Promise<CausalTree[]> {
  const node = await objectNode(kube, obj);
  const flows = await flowsFor(kube, obj);
  if (!flows.length) return [{ unwatched: node }];
  return Promise.all(flows.map(async (f) => ({ ...(await upstream(kube, f)), flow: flowNode(f, [node]) })));
}

/** The chain for a Flow: its source and commit, and every object it watches with its children. */
export async function treeOfFlow(kube: KubeClient, flow: KubeObject): Promise<CausalTree> {
  const w = (flow.spec as { watch?: { apiVersion?: string; kind?: string; namespace?: string } }).watch;
  const objects: ObjectNode[] = [];
  if (w?.apiVersion && w.kind) {
    const { items } = await kube
      .list(w.apiVersion, w.kind, w.namespace ? { namespace: w.namespace } : {})
      .catch(() => ({ items: [] as KubeObject[] }));
    for (const obj of items) objects.push(await objectNode(kube, obj));
  }
  return { ...(await upstream(kube, flow)), flow: flowNode(flow, objects) };
}

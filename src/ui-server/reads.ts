// The web view's reads, made through the KubeClient like any other client of the API server, so
// the same code serves the embedded server and a real cluster.

import { stringify } from 'yaml';
import { FLOW_API_VERSION, FLOW_KIND, FLOWSOURCE_API_VERSION, FLOWSOURCE_KIND } from '../api/index.js';
import { readInventory, readFailure, readLastRun, readRuns } from '../engine/index.js';
import { type KubeClient, KubeApiError, type KubeObject } from '../kube/index.js';
import { OPERATOR_API_VERSION, OPERATOR_KIND } from '../operator/types.js';
import {
  listPreviews,
  PREVIEW_LABEL,
  previewObjectName,
  readStoredPreview,
  type StoredPreview,
} from '../preview/preview-store.js';
import { operatorControllers, operatorSummary } from './operator-graph.js';
import { newestFirst, recentEventOf } from './event-entries.js';
import { overviewRows, type RowKeys } from './overview-rows.js';
import { ownedKindsOf } from './owned-kinds.js';
import type { NamespaceScope } from './namespace-scope.js';
import { redacted } from './redact.js';
import {
  commitHistory,
  conditionsOf,
  flowFiles,
  flowSummary,
  rejectedVersion,
  sourceStateOf,
  healthView,
  keyOf,
  provenanceOf,
  readinessOf,
  sourceObjects,
  sourceSummary,
  sourceVerification,
} from './summaries.js';
import { rolloutViewOf } from './rollout-actions.js';
import type {
  ChildNode,
  EventEntry,
  FlowDetail,
  FlowHead,
  FlowObjectsUpdate,
  ObjectDetail,
  ObjectKey,
  OperatorDetail,
  Overview,
  OverviewRows,
  PreviewList,
  RecentEvent,
  RunFlow,
  SourceDetail,
} from './types.js';
import { inWatch, parseObjectRef, stillWatched, watchedObjectOf, watchOf } from './watched-objects.js';

const MAX_EVENTS = 50;
const RECENT_EVENTS = 12;
/** Object → what a Flow applied → what that owns → one more (a Deployment's ReplicaSet's Pods). */
const MAX_TREE_DEPTH = 3;

const byName = <T extends { namespace?: string; name: string }>(a: T, b: T): number =>
  `${a.namespace ?? ''}/${a.name}`.localeCompare(`${b.namespace ?? ''}/${b.name}`);

/** The text of the file an object was applied from, in its commit; undefined where that is not on this disk. */
export type CommitFileReader = (obj: KubeObject) => string | undefined;

/** The revision under which the source synced `commit`, when it did (only those have an export to read). */
function revisionOfCommit(source: KubeObject, commit: string): string | undefined {
  if (!/^[0-9a-f]{40}$/.test(commit)) return undefined;
  const history = ((source.status ?? {}) as { history?: Array<{ revision: string }> }).history ?? [];
  return history.find((h) => h.revision.endsWith(`sha1:${commit}`))?.revision;
}

/** The object as if applied from `revision`: the commit file reader then reads that commit's export. */
function withRevision(obj: KubeObject, revision: string): KubeObject {
  return {
    ...obj,
    metadata: {
      ...obj.metadata,
      annotations: { ...(obj.metadata.annotations ?? {}), 'flowops.io/revision': revision },
    },
  };
}

/** What the Flow page shows above its objects, from the Flow and its source. */
function headOf(obj: KubeObject, source: KubeObject | undefined): FlowHead {
  const provenance = { ...provenanceOf(obj), ...(source ? { sourceState: sourceStateOf(source) } : {}) };
  const rejected = source ? rejectedVersion(source, provenance.revision, provenance.path) : undefined;
  const rollout = rolloutViewOf(obj);
  return {
    flow: flowSummary(obj),
    ...(rollout ? { rollout } : {}),
    ...(provenance.source ? { provenance } : {}),
    ...(rejected ? { rejected } : {}),
    definitionId: `${obj.metadata.generation ?? 0}@${provenance.revision ?? ''}`,
  };
}

export class UiReads {
  /** What the API server refused this reader (their RBAC), said on the page instead of shown as empty. */
  private readonly forbidden: string[] = [];
  /** Lists made namespace by namespace instead (a namespace-scoped user), said on the page. */
  private readonly scoped: string[] = [];

  constructor(
    private readonly kube: KubeClient,
    private readonly commitFile: CommitFileReader = () => undefined,
    /** Events from a watch made with this reader's own identity, when it has them (ChangeFeed.events). */
    private readonly cachedEvents: () => KubeObject[] | undefined = () => undefined,
    /** For a signed-in user: the namespaces they may list in, when the cluster scope is refused. */
    private readonly scope?: NamespaceScope,
  ) {}

  async overview(): Promise<Overview> {
    const [sources, flows, operators, events] = await Promise.all([
      this.listOrNone(FLOWSOURCE_API_VERSION, FLOWSOURCE_KIND),
      this.listOrNone(FLOW_API_VERSION, FLOW_KIND),
      this.listOrNone(OPERATOR_API_VERSION, OPERATOR_KIND),
      this.cachedEvents() ?? this.listOrNone('v1', 'Event'),
    ]);
    const recent = newestFirst(events)
      .slice(0, RECENT_EVENTS)
      .map(({ raw, entry }): RecentEvent => recentEventOf(raw, entry));
    return {
      sources: sources.map(sourceSummary).sort(byName),
      flows: flows.map(flowSummary).sort(byName),
      operators: operators.map(operatorSummary).sort((a, b) => a.name.localeCompare(b.name)),
      recent,
      ...(this.forbidden.length ? { forbidden: [...new Set(this.forbidden)] } : {}),
      ...(this.scoped.length ? { scoped: [...new Set(this.scoped)] } : {}),
    };
  }

  /** The overview's rows a change batch named, each read alone, instead of the whole overview again. */
  overviewRows(keys: RowKeys): Promise<OverviewRows> {
    return overviewRows(this.kube, keys);
  }

  async operator(name: string): Promise<OperatorDetail | undefined> {
    const obj = await this.kube.get({ apiVersion: OPERATOR_API_VERSION, kind: OPERATOR_KIND, name });
    if (!obj) return undefined;
    const source = await this.sourceOf(obj);
    const provenance = { ...provenanceOf(obj), ...(source ? { sourceState: sourceStateOf(source) } : {}) };
    return {
      name,
      ...(provenance.source ? { provenance } : {}),
      controllers: operatorControllers(obj),
      yaml: stringify(
        { apiVersion: obj.apiVersion, kind: obj.kind, metadata: { name }, spec: obj.spec },
        { lineWidth: 0 },
      ),
    };
  }

  async source(namespace: string, name: string): Promise<SourceDetail | undefined> {
    const obj = await this.kube.get({ apiVersion: FLOWSOURCE_API_VERSION, kind: FLOWSOURCE_KIND, namespace, name });
    if (!obj) return undefined;
    const spec = (obj.spec ?? {}) as { path?: string; interval?: string };
    const verification = sourceVerification(obj);
    return {
      source: sourceSummary(obj),
      ...(spec.path ? { path: spec.path } : {}),
      ...(spec.interval ? { interval: spec.interval } : {}),
      ...(verification ? { verification } : {}),
      history: commitHistory(obj),
      objects: sourceObjects(obj),
      flowFiles: flowFiles(obj),
    };
  }

  /** The source's pull-request previews, without their diffs (the list page). */
  async previews(namespace: string, name: string): Promise<PreviewList | undefined> {
    const obj = await this.kube.get({ apiVersion: FLOWSOURCE_API_VERSION, kind: FLOWSOURCE_KIND, namespace, name });
    if (!obj) return undefined;
    const all = await listPreviews(this.kube, namespace, name);
    return {
      source: { namespace, name },
      previews: all.map(({ diff: _d, rendered: _r, summary, ...p }) => ({ ...p, objects: summary.length })),
    };
  }

  /** One pull request's preview, whole: the summary per Flow/Operator, the diff, the rendered children. */
  async preview(namespace: string, name: string, pr: number): Promise<StoredPreview | undefined> {
    if (!Number.isInteger(pr) || pr <= 0) return undefined;
    const cm = await this.kube.get({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      namespace,
      name: previewObjectName(name, pr),
    });
    const p = cm && cm.metadata.labels?.[PREVIEW_LABEL] === name ? readStoredPreview(cm) : undefined;
    return p?.pr === pr ? p : undefined;
  }

  async flow(namespace: string, name: string, atCommit?: string): Promise<FlowDetail | undefined> {
    const obj = await this.kube.get({ apiVersion: FLOW_API_VERSION, kind: FLOW_KIND, namespace, name });
    if (!obj) return undefined;
    const watch = watchOf(obj);
    const [watched, source] = await Promise.all([
      watch
        ? this.listOrNone(watch.apiVersion, watch.kind, {
            ...(watch.namespace ? { namespace: watch.namespace } : {}),
            ...(watch.selector ? { labelSelector: watch.selector } : {}),
          })
        : [],
      this.sourceOf(obj),
    ]);
    const objects = watched.map(watchedObjectOf).sort((a, b) => byName(a.key, b.key));
    const head = headOf(obj, source);
    // Another commit's version of the file (a rejected one, linked from its error): read from that commit's export.
    const otherRevision = atCommit && source ? revisionOfCommit(source, atCommit) : undefined;
    const shown = otherRevision ? withRevision(obj, otherRevision) : obj;
    const path = head.provenance?.path;
    const text = path ? this.commitFile(shown) : undefined;
    const spec = { apiVersion: obj.apiVersion, kind: obj.kind, metadata: { name, namespace }, spec: obj.spec };
    return {
      ...head,
      yaml: stringify(spec, { lineWidth: 0 }),
      ...(text !== undefined && path ? { file: { path, text } } : {}),
      ...(otherRevision && atCommit && text !== undefined ? { shownCommit: atCommit } : {}),
      objects,
    };
  }

  /** The Flow page's refetch when the Flow or its source changed: no objects, no definition. */
  async flowHead(namespace: string, name: string): Promise<FlowHead | undefined> {
    const obj = await this.kube.get({ apiVersion: FLOW_API_VERSION, kind: FLOW_KIND, namespace, name });
    return obj ? headOf(obj, await this.sourceOf(obj)) : undefined;
  }

  /** The watched objects a change batch named, each read alone, instead of the whole list again. */
  async flowObjects(namespace: string, name: string, refs: string[]): Promise<FlowObjectsUpdate | undefined> {
    const obj = await this.kube.get({ apiVersion: FLOW_API_VERSION, kind: FLOW_KIND, namespace, name });
    const watch = obj ? watchOf(obj) : undefined;
    if (!watch) return undefined;
    const keys = refs.map((r) => parseObjectRef(watch, r)).filter((k) => k !== undefined);
    const read = await Promise.all(keys.map((k) => (inWatch(watch, k) ? this.kube.get(k) : undefined)));
    const update: FlowObjectsUpdate = { objects: [], gone: [] };
    read.forEach((o, i) => {
      if (o && stillWatched(watch, o)) update.objects.push(watchedObjectOf(o));
      else if (keys[i]) update.gone.push(keys[i]);
    });
    return update;
  }

  /** The FlowSource an object was applied from, when it names one and this reader may read it. */
  private async sourceOf(obj: KubeObject): Promise<KubeObject | undefined> {
    const ref = obj.metadata.annotations?.['flowops.io/source'];
    const [namespace, name] = ref?.split('/') ?? [];
    if (!namespace || !name) return undefined;
    return this.kube
      .get({ apiVersion: FLOWSOURCE_API_VERSION, kind: FLOWSOURCE_KIND, namespace, name })
      .catch(() => undefined);
  }

  async object(key: ObjectKey): Promise<ObjectDetail | undefined> {
    const obj = await this.kube.get(key);
    if (!obj) return undefined;
    const ready = conditionsOf(obj).find((c) => c.type === 'Ready');
    const owner = obj.metadata.ownerReferences?.find((r) => r.controller) ?? obj.metadata.ownerReferences?.[0];
    const [children, events, watchedBy, runs, source] = await Promise.all([
      this.children(obj, 0),
      this.events(obj),
      this.watchers(obj),
      readRuns(this.kube, obj),
      this.sourceOf(obj),
    ]);
    const failed = readFailure(obj);
    // Kinds without a status (ConfigMap) have no Ready condition: the failure's Event says it instead.
    const failureMessage =
      ready?.message ||
      events.find((e) => e.type === 'Warning' && /^Reconcile(Failed|Stalled)$/.test(e.reason))?.message ||
      '';
    const failure =
      failed && ready?.status !== 'True'
        ? { step: failed.step, reason: failed.reason, message: failureMessage, terminal: failed.terminal }
        : undefined;
    const lastRun = readLastRun(obj);
    const runFlow = lastRun ? await this.runFlowOf(lastRun.flow) : undefined;
    return {
      key: keyOf(obj),
      ...(obj.metadata.uid ? { uid: obj.metadata.uid } : {}),
      ...(obj.metadata.creationTimestamp ? { createdAt: obj.metadata.creationTimestamp } : {}),
      // A failing reconcile outranks kstatus, which calls a ConfigMap healthy whatever its Flow says.
      health: failure
        ? { status: failure.terminal ? 'Failed' : 'InProgress', message: `reconcile failing at step "${failure.step}"` }
        : healthView(obj),
      ...(ready ? { ready: readinessOf(ready) } : {}),
      conditions: conditionsOf(obj).map((c) => ({ type: c.type, ...readinessOf(c) })),
      provenance: { ...provenanceOf(obj), ...(source ? { sourceState: sourceStateOf(source) } : {}) },
      ...(failure ? { failure } : {}),
      ...(lastRun ? { lastRun } : {}),
      ...(runFlow ? { runFlow } : {}),
      runs,
      ...(owner
        ? {
            owner: {
              apiVersion: owner.apiVersion,
              kind: owner.kind,
              name: owner.name,
              ...(obj.metadata.namespace ? { namespace: obj.metadata.namespace } : {}),
            },
          }
        : {}),
      children,
      watchedBy,
      events,
      yaml: stringify(redacted(obj), { lineWidth: 0 }),
    };
  }

  private async runFlowOf(flow: string): Promise<RunFlow | undefined> {
    const [namespace, name] = flow.split('/');
    if (!namespace || !name) return undefined;
    const obj = await this.kube
      .get({ apiVersion: FLOW_API_VERSION, kind: FLOW_KIND, namespace, name })
      .catch(() => undefined);
    if (!obj) return undefined;
    const { source, revision, commit } = provenanceOf(obj);
    return {
      ...(source ? { source } : {}),
      ...(revision ? { revision } : {}),
      ...(commit ? { commit } : {}),
      generation: obj.metadata.generation ?? 0,
    };
  }

  /** The inventory's children, each judged by kstatus; one FlowOps has not (re)created yet is Missing. */
  private async children(obj: KubeObject, depth: number): Promise<ChildNode[]> {
    const listed = await Promise.all(
      readInventory(obj).map(async (e): Promise<ChildNode> => {
        const key: ObjectKey = {
          apiVersion: e.apiVersion,
          kind: e.kind,
          name: e.name,
          ...(e.namespace ? { namespace: e.namespace } : {}),
        };
        const child = await this.kube.get(key).catch(() => undefined);
        return child ? this.node(child, depth) : { key, health: 'Missing', message: 'not found', children: [] };
      }),
    );
    const owned = await this.owned(obj);
    const nodes = [...listed, ...(await Promise.all(owned.map((o) => this.node(o, depth))))];
    return nodes.sort((a, b) => `${a.key.kind}/${a.key.name}`.localeCompare(`${b.key.kind}/${b.key.name}`));
  }

  private async node(obj: KubeObject, depth: number): Promise<ChildNode> {
    const h = healthView(obj);
    return {
      key: keyOf(obj),
      health: h.status,
      message: h.message,
      children: depth + 1 < MAX_TREE_DEPTH ? await this.children(obj, depth + 1) : [],
    };
  }

  /** Objects of the kinds its controller makes, in its namespace, whose ownerReferences name it. */
  private async owned(obj: KubeObject): Promise<KubeObject[]> {
    const uid = obj.metadata.uid;
    const kinds = ownedKindsOf(obj.apiVersion, obj.kind);
    if (!uid || kinds.length === 0 || !obj.metadata.namespace) return [];
    const lists = await Promise.all(
      kinds.map((k) => this.listOrNone(k.apiVersion, k.kind, { namespace: obj.metadata.namespace! })),
    );
    return lists.flat().filter((o) => o.metadata.ownerReferences?.some((r) => r.uid === uid));
  }

  /** The Flows whose watch names this object's kind (and namespace, when they watch only one). */
  private async watchers(obj: KubeObject): Promise<string[]> {
    const flows = await this.listOrNone(FLOW_API_VERSION, FLOW_KIND);
    return flows
      .map(flowSummary)
      .filter(
        (f) =>
          f.watched.apiVersion === obj.apiVersion &&
          f.watched.kind === obj.kind &&
          (!f.watched.namespace || f.watched.namespace === obj.metadata.namespace),
      )
      .map((f) => `${f.namespace}/${f.name}`);
  }

  /** core/v1 Events whose involvedObject is this object, newest first. */
  private async events(obj: KubeObject): Promise<EventEntry[]> {
    const fieldSelector = [
      `involvedObject.kind=${obj.kind}`,
      `involvedObject.name=${obj.metadata.name}`,
      ...(obj.metadata.uid ? [`involvedObject.uid=${obj.metadata.uid}`] : []),
    ].join(',');
    const events = await this.listOrNone('v1', 'Event', {
      ...(obj.metadata.namespace ? { namespace: obj.metadata.namespace } : {}),
      fieldSelector,
    });
    return newestFirst(events)
      .slice(0, MAX_EVENTS)
      .map((e) => e.entry);
  }

  /**
   * A kind that is not served (yet) lists as empty rather than failing the page. A list the user
   * may not make at the cluster scope is made in each namespace they may list it in, and said so.
   */
  private async listOrNone(
    apiVersion: string,
    kind: string,
    opts: { namespace?: string; labelSelector?: string; fieldSelector?: string } = {},
  ): Promise<KubeObject[]> {
    try {
      return (await this.kube.list(apiVersion, kind, opts)).items;
    } catch (err) {
      if (!(err instanceof KubeApiError && err.statusCode === 403)) return [];
      const inNamespaces =
        opts.namespace === undefined && this.scope ? await this.listInNamespaces(apiVersion, kind, opts) : undefined;
      if (!inNamespaces) this.forbidden.push(err.message);
      return inNamespaces ?? [];
    }
  }

  private async listInNamespaces(
    apiVersion: string,
    kind: string,
    opts: { labelSelector?: string; fieldSelector?: string },
  ): Promise<KubeObject[] | undefined> {
    const resource = await this.kube.resource(apiVersion, kind).catch(() => undefined);
    if (!resource?.namespaced || !this.scope) return undefined;
    const namespaces = await this.scope.listable(resource.group, resource.plural);
    if (namespaces.length === 0) return undefined;
    const lists = await Promise.all(
      namespaces.map((namespace) =>
        this.kube.list(apiVersion, kind, { ...opts, namespace }).then(
          (l) => l.items,
          () => undefined,
        ),
      ),
    );
    const read = namespaces.filter((_, i) => lists[i] !== undefined);
    const name = resource.group ? `${resource.plural}.${resource.group}` : resource.plural;
    this.scoped.push(
      `${name}: only in namespace${read.length === 1 ? '' : 's'} ${read.join(', ')} (not allowed at the cluster scope)`,
    );
    return lists.flatMap((l) => l ?? []);
  }
}

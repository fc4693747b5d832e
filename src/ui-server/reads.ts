// The web view's reads, made through the KubeClient like any other client of the API server, so
// the same code serves the embedded server and a real cluster.

import { stringify } from 'yaml';
import { FLOW_API_VERSION, FLOW_KIND } from '../api/flow.js';
import { FLOWSOURCE_API_VERSION, FLOWSOURCE_KIND } from '../api/flowsource.js';
import { labelSelectorString } from '../controller/label-selector.js';
import { readInventory } from '../engine/child-inventory.js';
import type { KubeClient } from '../kube/client.js';
import type { KubeObject } from '../kube/types.js';
import { redacted } from './redact.js';
import { commitHistory, conditionsOf, flowSummary, healthView, keyOf, provenanceOf, readinessOf, readyOf, sourceObjects, sourceSummary } from './summaries.js';
import type { ChildNode, EventEntry, FlowDetail, ObjectDetail, ObjectKey, Overview, SourceDetail, WatchedObject } from './types.js';

const MAX_EVENTS = 50;

const byName = <T extends { namespace?: string; name: string }>(a: T, b: T): number => `${a.namespace ?? ''}/${a.name}`.localeCompare(`${b.namespace ?? ''}/${b.name}`);

export class UiReads {
  constructor(private readonly kube: KubeClient) {}

  async overview(): Promise<Overview> {
    const [sources, flows] = await Promise.all([this.listOrNone(FLOWSOURCE_API_VERSION, FLOWSOURCE_KIND), this.listOrNone(FLOW_API_VERSION, FLOW_KIND)]);
    return { sources: sources.map(sourceSummary).sort(byName), flows: flows.map(flowSummary).sort(byName) };
  }

  async source(namespace: string, name: string): Promise<SourceDetail | undefined> {
    const obj = await this.kube.get({ apiVersion: FLOWSOURCE_API_VERSION, kind: FLOWSOURCE_KIND, namespace, name });
    if (!obj) return undefined;
    const spec = (obj.spec ?? {}) as { path?: string; interval?: string };
    return {
      source: sourceSummary(obj),
      ...(spec.path ? { path: spec.path } : {}),
      ...(spec.interval ? { interval: spec.interval } : {}),
      history: commitHistory(obj),
      objects: sourceObjects(obj),
    };
  }

  async flow(namespace: string, name: string): Promise<FlowDetail | undefined> {
    const obj = await this.kube.get({ apiVersion: FLOW_API_VERSION, kind: FLOW_KIND, namespace, name });
    if (!obj) return undefined;
    const summary = flowSummary(obj);
    const spec = (obj.spec ?? {}) as { watch?: { labelSelector?: unknown } };
    const selector = labelSelectorString(spec.watch?.labelSelector);
    const watched = summary.watched.kind
      ? await this.listOrNone(summary.watched.apiVersion, summary.watched.kind, { ...(summary.watched.namespace ? { namespace: summary.watched.namespace } : {}), ...(selector ? { labelSelector: selector } : {}) })
      : [];
    const objects: WatchedObject[] = watched.map((o) => ({ key: keyOf(o), ready: readyOf(o), children: readInventory(o).length }));
    objects.sort((a, b) => byName(a.key, b.key));
    const provenance = provenanceOf(obj);
    return { flow: summary, yaml: stringify({ apiVersion: obj.apiVersion, kind: obj.kind, metadata: { name, namespace }, spec: obj.spec }, { lineWidth: 0 }), ...(provenance.source ? { provenance } : {}), objects };
  }

  async object(key: ObjectKey): Promise<ObjectDetail | undefined> {
    const obj = await this.kube.get(key);
    if (!obj) return undefined;
    const ready = conditionsOf(obj).find((c) => c.type === 'Ready');
    const owner = obj.metadata.ownerReferences?.find((r) => r.controller) ?? obj.metadata.ownerReferences?.[0];
    const [children, events] = await Promise.all([this.children(obj), this.events(obj)]);
    return {
      key: keyOf(obj),
      ...(obj.metadata.uid ? { uid: obj.metadata.uid } : {}),
      ...(obj.metadata.creationTimestamp ? { createdAt: obj.metadata.creationTimestamp } : {}),
      health: healthView(obj),
      ...(ready ? { ready: readinessOf(ready) } : {}),
      conditions: conditionsOf(obj).map((c) => ({ type: c.type, ...readinessOf(c) })),
      provenance: provenanceOf(obj),
      ...(owner ? { owner: { apiVersion: owner.apiVersion, kind: owner.kind, name: owner.name, ...(obj.metadata.namespace ? { namespace: obj.metadata.namespace } : {}) } } : {}),
      children,
      events,
      yaml: stringify(redacted(obj), { lineWidth: 0 }),
    };
  }

  /** The inventory's children, each judged by kstatus; one FlowOps has not (re)created yet is Missing. */
  private async children(obj: KubeObject): Promise<ChildNode[]> {
    const entries = readInventory(obj);
    const nodes = await Promise.all(
      entries.map(async (e): Promise<ChildNode> => {
        const key: ObjectKey = { apiVersion: e.apiVersion, kind: e.kind, name: e.name, ...(e.namespace ? { namespace: e.namespace } : {}) };
        const child = await this.kube.get(key).catch(() => undefined);
        if (!child) return { key, health: 'Missing', message: 'not found' };
        const h = healthView(child);
        return { key, health: h.status, message: h.message };
      }),
    );
    return nodes.sort((a, b) => `${a.key.kind}/${a.key.name}`.localeCompare(`${b.key.kind}/${b.key.name}`));
  }

  /** core/v1 Events whose involvedObject is this object, newest first. */
  private async events(obj: KubeObject): Promise<EventEntry[]> {
    const fieldSelector = [`involvedObject.kind=${obj.kind}`, `involvedObject.name=${obj.metadata.name}`, ...(obj.metadata.uid ? [`involvedObject.uid=${obj.metadata.uid}`] : [])].join(',');
    const events = await this.listOrNone('v1', 'Event', { ...(obj.metadata.namespace ? { namespace: obj.metadata.namespace } : {}), fieldSelector });
    const entries = events.map((e): EventEntry & { at: string } => {
      const at = (e.lastTimestamp as string | undefined) ?? (e.eventTime as string | undefined) ?? (e.firstTimestamp as string | undefined) ?? e.metadata.creationTimestamp ?? '';
      const source = (e.reportingComponent as string | undefined) || (e.source as { component?: string } | undefined)?.component;
      return { type: String(e.type ?? ''), reason: String(e.reason ?? ''), message: String(e.message ?? ''), count: typeof e.count === 'number' ? e.count : 1, ...(at ? { lastSeen: at } : {}), ...(source ? { source } : {}), at };
    });
    entries.sort((a, b) => b.at.localeCompare(a.at));
    return entries.slice(0, MAX_EVENTS).map(({ at: _at, ...e }) => e);
  }

  /** A kind that is not served (yet) lists as empty rather than failing the page. */
  private async listOrNone(apiVersion: string, kind: string, opts: { namespace?: string; labelSelector?: string; fieldSelector?: string } = {}): Promise<KubeObject[]> {
    try {
      return (await this.kube.list(apiVersion, kind, opts)).items;
    } catch {
      return [];
    }
  }
}

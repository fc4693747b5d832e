import { FLOW_API_VERSION } from '../api/names.js';
import { findCondition } from '../kube/conditions.js';
import type { KubeObject } from '../kube/index.js';
import { splitRevision, type NotifyEvent } from './event.js';

/** The recorders whose Events are FlowOps' own (src/runtime: flowops-source, the Flow controller's flowops…). */
const isFlowOpsComponent = (c: unknown): boolean => typeof c === 'string' && c.startsWith('flowops');

interface CoreEvent {
  involvedObject?: { apiVersion?: string; kind?: string; name?: string; namespace?: string };
  type?: string;
  reason?: string;
  message?: string;
  source?: { component?: string };
  reportingComponent?: string;
  lastTimestamp?: string;
  eventTime?: string;
}

/** A core/v1 Event FlowOps recorded, as a NotifyEvent; undefined for anyone else's. */
export function fromCoreEvent(obj: KubeObject): NotifyEvent | undefined {
  const ev = obj as KubeObject & CoreEvent;
  if (!isFlowOpsComponent(ev.reportingComponent) && !isFlowOpsComponent(ev.source?.component)) return undefined;
  const io = ev.involvedObject;
  if (!io?.kind || !io.name) return undefined;
  const { revision, rest } = splitRevision(ev.message ?? '');
  return {
    involved: {
      apiVersion: io.apiVersion ?? '',
      kind: io.kind,
      name: io.name,
      namespace: io.namespace ?? obj.metadata.namespace ?? 'default',
    },
    severity: ev.type === 'Warning' ? 'error' : 'info',
    reason: ev.reason ?? '',
    message: rest,
    ...(revision ? { revision } : {}),
    time: ev.lastTimestamp ?? ev.eventTime ?? new Date().toISOString(),
  };
}

const involvedOf = (o: KubeObject): NotifyEvent['involved'] => ({
  apiVersion: o.apiVersion,
  kind: o.kind,
  name: o.metadata.name ?? '',
  namespace: o.metadata.namespace ?? 'default',
});
const pinOf = (o: KubeObject): string | undefined => (o.spec as { ref?: { commit?: string } } | undefined)?.ref?.commit;

/** A FlowSource pinned to a commit (`flowops rollback --to`) or following its branch again. */
export function pinTransition(now: KubeObject, old: KubeObject): NotifyEvent | undefined {
  const before = pinOf(old);
  const after = pinOf(now);
  if (before === after) return undefined;
  const time = new Date().toISOString();
  if (after)
    return {
      involved: involvedOf(now),
      severity: 'info',
      reason: 'Pinned',
      message: `pinned to commit ${after}`,
      time,
    };
  return {
    involved: involvedOf(now),
    severity: 'info',
    reason: 'Unpinned',
    message: `follows its branch again (was pinned to ${before})`,
    time,
  };
}

/** A Flow's Ready or Stalled condition changed: Ready, NotReady or Stalled, with the commit the Flow came from. */
export function flowTransition(now: KubeObject, old: KubeObject | undefined): NotifyEvent | undefined {
  if (now.apiVersion !== FLOW_API_VERSION) return undefined;
  const ready = findCondition(now, 'Ready');
  const stalled = findCondition(now, 'Stalled');
  const wasReady = old ? findCondition(old, 'Ready') : undefined;
  const wasStalled = old ? findCondition(old, 'Stalled') : undefined;
  const revision = now.metadata.annotations?.['flowops.io/revision'];
  const base = { involved: involvedOf(now), time: new Date().toISOString(), ...(revision ? { revision } : {}) };
  if (stalled?.status === 'True' && wasStalled?.status !== 'True')
    return { ...base, severity: 'error', reason: 'Stalled', message: stalled.message || stalled.reason || 'stalled' };
  if (!ready || ready.status === wasReady?.status) return undefined;
  if (ready.status === 'True') return { ...base, severity: 'info', reason: 'Ready', message: ready.message || 'Ready' };
  return { ...base, severity: 'error', reason: 'NotReady', message: ready.message || ready.reason || 'not Ready' };
}

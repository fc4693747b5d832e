// core/v1 Events as the web view lists them: newest first by their last time, with the object they
// are about.

import type { KubeObject } from '../kube/index.js';
import type { EventEntry, ObjectKey, RecentEvent } from './types.js';

const eventTime = (e: KubeObject): string =>
  (e.lastTimestamp as string | undefined) ??
  (e.eventTime as string | undefined) ??
  (e.firstTimestamp as string | undefined) ??
  e.metadata.creationTimestamp ??
  '';

function eventEntry(e: KubeObject): EventEntry {
  const at = eventTime(e);
  const source =
    (e.reportingComponent as string | undefined) || (e.source as { component?: string } | undefined)?.component;
  return {
    type: String(e.type ?? ''),
    reason: String(e.reason ?? ''),
    message: String(e.message ?? ''),
    count: typeof e.count === 'number' ? e.count : 1,
    ...(at ? { lastSeen: at } : {}),
    ...(source ? { source } : {}),
  };
}

export function newestFirst(events: KubeObject[]): Array<{ raw: KubeObject; entry: EventEntry }> {
  return events
    .map((raw) => ({ raw, at: eventTime(raw) }))
    .sort((a, b) => b.at.localeCompare(a.at))
    .map(({ raw }) => ({ raw, entry: eventEntry(raw) }));
}

/** An Event as the overview's recent changes list it. */
export function recentEventOf(raw: KubeObject, entry: EventEntry = eventEntry(raw)): RecentEvent {
  return { ...entry, object: involvedObjectOf(raw), id: `${raw.metadata.namespace ?? ''}/${raw.metadata.name ?? ''}` };
}

export function involvedObjectOf(e: KubeObject): ObjectKey {
  const o = (e.involvedObject ?? {}) as { apiVersion?: string; kind?: string; namespace?: string; name?: string };
  return {
    apiVersion: o.apiVersion ?? 'v1',
    kind: o.kind ?? '',
    name: o.name ?? '',
    ...(o.namespace ? { namespace: o.namespace } : {}),
  };
}

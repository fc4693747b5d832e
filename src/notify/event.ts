/** One thing FlowOps recorded that an Alert may send: from an Event, or from a status transition. */
export interface NotifyEvent {
  involved: { apiVersion: string; kind: string; name: string; namespace: string };
  severity: 'info' | 'error';
  reason: string;
  message: string;
  /** The commit it is about (`branch@sha1:…`), when known: events of one commit go as one message. */
  revision?: string;
  time: string;
}

/** `branch@sha1:<sha>: rest` as FlowOps' Events word it; the revision and the rest, or the whole message. */
export function splitRevision(message: string): { revision?: string; rest: string } {
  const m = /^((?:[^\s@]+@)?sha1:[0-9a-f]{40}): ?([\s\S]*)$/.exec(message);
  return m?.[1] !== undefined ? { revision: m[1], rest: m[2] ?? '' } : { rest: message };
}

export const objectName = (e: NotifyEvent): string => `${e.involved.kind}/${e.involved.namespace}/${e.involved.name}`;

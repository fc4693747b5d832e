import type { ProviderSpec } from '../api/index.js';
import { type NotifyEvent, objectName } from './event.js';

/** One grouped notification: the events of one commit (or of no commit) within an Alert's window. */
export interface Message {
  alert: string;
  summary?: string;
  revision?: string;
  /** error when any event is. */
  severity: 'info' | 'error';
  /** The first events, at most MAX_EVENTS; `total` and `errors` count all. */
  events: NotifyEvent[];
  total: number;
  errors: number;
  /** The web view's page for the commit or object, when FlowOps knows its own URL. */
  link?: string;
}

/** A Provider with its credentials read from its Secret. */
export interface ResolvedProvider {
  name: string;
  namespace: string;
  spec: ProviderSpec;
  address: string;
  token?: string;
}

/** Enough for a person to act on; the rest is counted. Chat limits are far above 20 short lines. */
export const MAX_EVENTS = 20;

export const shortRevision = (revision: string | undefined): string | undefined => {
  if (!revision) return undefined;
  const m = /^(?:(.+)@)?sha1:([0-9a-f]{40})$/.exec(revision);
  return m?.[2] ? `${m[1] ? `${m[1]}@` : ''}${m[2].slice(0, 7)}` : revision;
};

export function title(m: Message): string {
  const errors = m.errors;
  const head = m.summary ? `${m.summary}: ` : '';
  const rev = shortRevision(m.revision);
  const what =
    m.total === 1 && m.events[0]
      ? `${m.events[0].reason} ${objectName(m.events[0])}`
      : `${m.total} events${errors ? ` (${errors} errors)` : ''}`;
  return `${head}${rev ? `${rev}: ` : ''}${what}`;
}

export function lines(m: Message): string[] {
  const mark = (e: NotifyEvent): string => (e.severity === 'error' ? '✖' : '✔');
  const out = m.events.map((e) => `${mark(e)} ${objectName(e)} ${e.reason}: ${e.message}`);
  if (m.total > m.events.length) out.push(`… and ${m.total - m.events.length} more`);
  return out;
}

export function plainText(m: Message): string {
  return [title(m), ...lines(m), ...(m.link ? [m.link] : [])].join('\n');
}

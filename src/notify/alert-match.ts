import type { AlertSpec, EventSource } from '../api/index.js';
import type { NotifyEvent } from './event.js';

const matchesName = (pattern: string | undefined, value: string): boolean =>
  pattern === undefined || pattern === '*' || pattern === value;

function matchesSource(s: EventSource, alertNamespace: string, e: Pick<NotifyEvent, 'involved'>): boolean {
  return (
    (s.kind === '*' || s.kind === e.involved.kind) &&
    matchesName(s.name, e.involved.name) &&
    matchesName(s.namespace ?? alertNamespace, e.involved.namespace)
  );
}

/** Compiled once per Alert generation: the regexes of its lists. */
export interface AlertFilter {
  spec: AlertSpec;
  namespace: string;
  include: RegExp[];
  exclude: RegExp[];
}

export function alertFilter(namespace: string, spec: AlertSpec): AlertFilter {
  return {
    spec,
    namespace,
    include: (spec.inclusionList ?? []).map((r) => new RegExp(r)),
    exclude: (spec.exclusionList ?? []).map((r) => new RegExp(r)),
  };
}

/** Whether the Alert selects this object (commit statuses go to the forge providers of Alerts selecting the source). */
export function alertSelects(f: AlertFilter, involved: NotifyEvent['involved']): boolean {
  return !f.spec.suspend && f.spec.eventSources.some((s) => matchesSource(s, f.namespace, { involved }));
}

/** Whether the Alert sends this event: a selected source, the severity, then the inclusion and exclusion lists. */
export function alertMatches(f: AlertFilter, e: NotifyEvent): boolean {
  if (f.spec.suspend) return false;
  if (!f.spec.eventSources.some((s) => matchesSource(s, f.namespace, e))) return false;
  if (f.spec.eventSeverity === 'error' && e.severity !== 'error') return false;
  if (f.include.length && !f.include.some((r) => r.test(e.message))) return false;
  return !f.exclude.some((r) => r.test(e.message));
}

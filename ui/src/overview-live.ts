// The overview's data, kept live from the change stream by the rows that changed: a change of a
// source, Flow, Operator or Event reads that row alone (/overview/rows?flow=…), and only a
// (re)connect, a new commit of a source or a batch too big to name reads the whole overview again.
// Under churn an update costs bytes in proportion to the change, not to the number of Flows
// (bench/ui.ts measures both).
import { useEffect, useState } from 'preact/hooks';
import type {
  ChangeMessage,
  FlowSummary,
  OperatorSummary,
  Overview,
  OverviewRows,
  RecentEvent,
  SourceSummary,
} from '../../src/ui-server/types.ts';
import { getJson } from './flow-live.ts';
import { subscribe, type Loaded } from './live.ts';

/** As the server's MAX_ROW_KEYS: a bigger batch is read as the whole overview. */
const MAX_KEYS = 100;
/** As the server's RECENT_EVENTS: the recent changes the overview lists. */
const RECENT_EVENTS = 12;

type Section = 'sources' | 'flows' | 'operators' | 'events';
const SECTIONS: readonly Section[] = ['sources', 'flows', 'operators', 'events'];
/** The query parameter each section's keys go in. */
const PARAM: Record<Section, string> = { sources: 'source', flows: 'flow', operators: 'operator', events: 'event' };

/** The section a change belongs to; Pods, workloads and children change often and are not on this page. */
function sectionOf(c: ChangeMessage): Section | undefined {
  if (c.kind === 'FlowSource') return 'sources';
  if (c.kind === 'Flow') return 'flows';
  if (c.kind === 'Operator') return 'operators';
  if (c.kind === 'Event' && c.apiVersion === 'v1') return 'events';
  return undefined;
}

const keyOfChange = (c: ChangeMessage): string => (c.namespace ? `${c.namespace}/${c.name}` : c.name);
const nsName = (r: Named): string => `${r.namespace}/${r.name}`;
type Named = { namespace: string; name: string };
const byNsName = (a: Named, b: Named): number => nsName(a).localeCompare(nsName(b));
const byName = (a: { name: string }, b: { name: string }): number => a.name.localeCompare(b.name);
const newestFirst = (a: RecentEvent, b: RecentEvent): number => (b.lastSeen ?? '').localeCompare(a.lastSeen ?? '');

/** The rows as the update says they are now: changed ones replaced, new ones added in order, gone ones dropped. */
export function mergeRows<T>(
  rows: T[],
  changed: T[],
  gone: string[],
  key: (t: T) => string,
  order: (a: T, b: T) => number,
): T[] {
  const out = new Map(rows.map((r) => [key(r), r]));
  for (const k of gone) out.delete(k);
  for (const r of changed) out.set(key(r), r);
  return [...out.values()].sort(order);
}

/** The overview with a keyed read merged in. */
export function mergeOverview(o: Overview, u: OverviewRows): Overview {
  return {
    ...o,
    sources: mergeRows<SourceSummary>(o.sources, u.sources, u.gone.sources, nsName, byNsName),
    flows: mergeRows<FlowSummary>(o.flows, u.flows, u.gone.flows, nsName, byNsName),
    operators: mergeRows<OperatorSummary>(o.operators, u.operators, u.gone.operators, (x) => x.name, byName),
    // An Event newer than the listed ones enters at the top and the oldest leaves; one that expired leaves.
    recent: mergeRows<RecentEvent>(o.recent, u.events, u.gone.events, (e) => e.id ?? '', newestFirst).slice(
      0,
      RECENT_EVENTS,
    ),
  };
}

/** A source now at another commit: what it applied may have added or removed anything the overview shows. */
const newCommit = (before: Overview, u: OverviewRows): boolean =>
  u.sources.some((s) => {
    const was = before.sources.find((b) => nsName(b) === nsName(s));
    return was !== undefined && was.appliedRevision !== s.appliedRevision;
  });

interface Work {
  full: boolean;
  keys: Record<Section, Set<string>>;
}
const noWork = (full = false): Work => ({
  full,
  keys: { sources: new Set(), flows: new Set(), operators: new Set(), events: new Set() },
});
const keyCount = (w: Work): number => SECTIONS.reduce((n, s) => n + w.keys[s].size, 0);

export function useOverviewLive(): Loaded<Overview> {
  const [loaded, setLoaded] = useState<Loaded<Overview>>({ state: 'loading' });
  useEffect(() => {
    let cancelled = false;
    let shown: Overview | undefined;
    // Read now, even before the stream is open: a reader not signed in gets no stream, and the
    // refused read is what shows the sign-in form. The stream's `hello` reads again (what changed
    // before it connected is in no batch).
    let pending = noWork(true);
    let running = false;
    const show = (o: Overview): void => {
      shown = o;
      setLoaded({ state: 'ok', data: o });
    };

    /** One request at a time; changes heard meanwhile wait for the next turn. */
    const run = async (): Promise<void> => {
      if (running) return;
      running = true;
      try {
        while (!cancelled && (pending.full || keyCount(pending))) {
          const work = pending;
          pending = noWork();
          if (work.full || !shown) {
            const a = await getJson<Overview>('/ui/api/overview');
            if (cancelled) return;
            if (a.ok) show(a.data);
            else {
              shown = undefined;
              setLoaded(a.loaded);
            }
            continue;
          }
          const params = SECTIONS.flatMap((s) => [...work.keys[s]].map((k) => `${PARAM[s]}=${encodeURIComponent(k)}`));
          const query = params.join('&');
          const rows = await getJson<OverviewRows>(`/ui/api/overview/rows?${query}`);
          if (cancelled || !shown) return;
          // A refusal or an error: the whole overview says what it is.
          if (!rows.ok || newCommit(shown, rows.data)) pending.full = true;
          if (rows.ok) show(mergeOverview(shown, rows.data));
        }
      } catch {
        // The server is restarting: keep what is shown; the stream's hello reads it all again.
      } finally {
        running = false;
      }
    };

    const unsubscribe = subscribe((changes) => {
      // A (re)connect, or nothing shown yet to merge into: the whole overview.
      if (!changes || !shown) pending.full = true;
      else if (!pending.full) {
        for (const c of changes) {
          const s = sectionOf(c);
          if (s) pending.keys[s].add(keyOfChange(c));
        }
        if (keyCount(pending) > MAX_KEYS) pending = noWork(true);
      }
      void run();
    });
    void run();
    return () => {
      cancelled = true;
      unsubscribe();
    };
  }, []);
  return loaded;
}

// The Flow page's data, kept live from the change stream by the part that changed: a change of a
// watched object reads that object alone (/objects?key=…), a change of the Flow or its source reads
// the head (/head: no objects, no definition), and only a new definition, a (re)connect or a batch
// too big to name reads the whole page again. Under churn a page update costs bytes in proportion
// to the change, not to the list (bench/ui.ts measures both).
import { useEffect, useState } from 'preact/hooks';
import type {
  ChangeMessage,
  FlowDetail,
  FlowHead,
  FlowObjectsUpdate,
  WatchedObject,
} from '../../src/ui-server/types.ts';
import { subscribe, type Loaded } from './live.ts';

/** As the server's MAX_UPDATE_KEYS: a bigger batch is read as the whole page. */
const MAX_KEYS = 100;
const FLOW_API_VERSION = 'flowops.io/v1';

const refOf = (k: { namespace?: string | undefined; name: string }): string => `${k.namespace ?? ''}/${k.name}`;

export type Answer<T> = { ok: true; data: T } | { ok: false; loaded: Loaded<never> };

/** A web view API read, or the page state its refusal means (missing, sign in, an error). */
export async function getJson<T>(url: string): Promise<Answer<T>> {
  const res = await fetch(url, { headers: { Accept: 'application/json' } });
  if (res.ok) return { ok: true, data: (await res.json()) as T };
  if (res.status === 404) return { ok: false, loaded: { state: 'missing' } };
  const body = (await res.json().catch(() => ({}))) as { error?: string; signIn?: boolean };
  if (res.status === 401 && body.signIn) return { ok: false, loaded: { state: 'signIn' } };
  return { ok: false, loaded: { state: 'error', message: `${res.status} ${body.error ?? res.statusText}` } };
}

/** The objects as the update says they are now: changed ones replaced, new ones added, gone ones dropped. */
export function mergeObjects(objects: WatchedObject[], update: FlowObjectsUpdate): WatchedObject[] {
  const changed = new Map(update.objects.map((o) => [refOf(o.key), o]));
  const gone = new Set(update.gone.map(refOf));
  const kept = objects
    .filter((o) => !gone.has(refOf(o.key)))
    .map((o) => {
      const ref = refOf(o.key);
      const now = changed.get(ref);
      changed.delete(ref);
      return now ?? o;
    });
  return changed.size ? [...kept, ...changed.values()] : kept;
}

interface Work {
  full: boolean;
  head: boolean;
  refs: Set<string>;
}
const noWork = (): Work => ({ full: false, head: false, refs: new Set() });

export function useFlowLive(namespace: string, name: string, commit: string | undefined): Loaded<FlowDetail> {
  const [loaded, setLoaded] = useState<Loaded<FlowDetail>>({ state: 'loading' });
  useEffect(() => {
    const base = `/ui/api/flows/${encodeURIComponent(namespace)}/${encodeURIComponent(name)}`;
    const fullUrl = commit ? `${base}?commit=${encodeURIComponent(commit)}` : base;
    let cancelled = false;
    let shown: FlowDetail | undefined;
    // Read now, even before the stream is open: a reader not signed in gets no stream, and the
    // refused read is what shows the sign-in form. The stream's `hello` reads again.
    let pending: Work = { ...noWork(), full: true };
    let running = false;
    /** The last whole read was not a page (the Flow missing, a refusal): any change reads it again. */
    let notShown = false;
    /** Changes heard before the page (or while all of it is read again): taken once it is shown. */
    const early: ChangeMessage[] = [];
    const show = (d: FlowDetail): void => {
      shown = d;
      setLoaded({ state: 'ok', data: d });
    };

    /** One request (or one pair) at a time; what arrives meanwhile waits for the next turn. */
    const run = async (): Promise<void> => {
      if (running) return;
      running = true;
      try {
        while (!cancelled && (pending.full || pending.head || pending.refs.size)) {
          const work = pending;
          pending = noWork();
          if (work.full || !shown) {
            const a = await getJson<FlowDetail>(fullUrl);
            if (cancelled) return;
            notShown = !a.ok;
            if (a.ok) show(a.data);
            else setLoaded(a.loaded);
            // Changes heard while the page was read may be newer than it: each is read again by itself.
            if (a.ok) take(early.splice(0));
            continue;
          }
          const keys = [...work.refs].map((r) => `key=${encodeURIComponent(r)}`).join('&');
          const [head, update] = await Promise.all([
            work.head ? getJson<FlowHead>(`${base}/head`) : undefined,
            keys ? getJson<FlowObjectsUpdate>(`${base}/objects?${keys}`) : undefined,
          ]);
          if (cancelled || !shown) return;
          // Anything but a plain answer (the Flow gone, a refusal): the whole page says what it is.
          const newDefinition = head?.ok && head.data.definitionId !== shown.definitionId;
          if ((head && !head.ok) || (update && !update.ok) || newDefinition) {
            pending.full = true;
            continue;
          }
          const { yaml, file, shownCommit, objects } = shown;
          // The head replaces every field it has (a rollout or rejection that ended is absent from it).
          let next: FlowDetail = head?.ok
            ? { ...head.data, yaml, ...(file ? { file } : {}), ...(shownCommit ? { shownCommit } : {}), objects }
            : shown;
          if (update?.ok) next = { ...next, objects: mergeObjects(next.objects, update.data) };
          show(next);
        }
      } catch {
        // The server is restarting: keep what is shown; the stream's hello reads it all again.
      } finally {
        running = false;
      }
    };

    const relevantTo = (d: FlowDetail, c: ChangeMessage): 'head' | 'object' | undefined => {
      const isFlow = c.apiVersion === FLOW_API_VERSION && c.kind === 'Flow';
      if (isFlow && c.namespace === namespace && c.name === name) return 'head';
      if (c.kind === 'FlowSource' && d.provenance?.source === `${c.namespace ?? ''}/${c.name}`) return 'head';
      const w = d.flow.watched;
      const ofKind = c.apiVersion === w.apiVersion && c.kind === w.kind;
      if (ofKind && (!w.namespace || c.namespace === w.namespace)) return 'object';
      return undefined;
    };

    function take(changes: ChangeMessage[]): void {
      if (!shown) return;
      for (const c of changes) {
        const what = relevantTo(shown, c);
        if (what === 'head') pending.head = true;
        else if (what === 'object') pending.refs.add(refOf(c));
      }
      if (pending.refs.size > MAX_KEYS) pending.full = true;
    }

    const unsubscribe = subscribe((changes) => {
      if (!changes || notShown) pending.full = true;
      else if (shown && !pending.full) take(changes);
      else if (early.push(...changes) > MAX_KEYS) {
        // As many as that are read as fast by reading the page again once more.
        early.length = 0;
        pending.full = true;
      }
      void run();
    });
    void run();
    return () => {
      cancelled = true;
      unsubscribe();
    };
  }, [namespace, name, commit]);
  return loaded;
}

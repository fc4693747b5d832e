// One EventSource for the whole page. Each `hello` (first connect and every reconnect after the
// server restarts) and each `changes` batch makes the shown data refetch; EventSource reconnects
// by itself, after the `retry` the server sets.
import { useEffect, useRef, useState } from 'preact/hooks';
import type { ChangeMessage } from '../../src/ui-server/types.ts';
import { BASE } from './router.ts';

export type Connection = 'connecting' | 'live' | 'reconnecting';

/** Called with the batch of changes, or with none on (re)connect, when everything must be refetched. */
export type Listener = (changes?: ChangeMessage[]) => void;
const listeners = new Set<Listener>();
const connectionListeners = new Set<(c: Connection) => void>();
let connection: Connection = 'connecting';
let source: EventSource | undefined;

function setConnection(c: Connection): void {
  connection = c;
  for (const l of connectionListeners) l(c);
}

/** When EventSource gives up (an answer that is not a stream, e.g. a 404 while the server starts), a new one after this. */
const REOPEN_MS = 1000;

function refresh(changes?: ChangeMessage[]): void {
  for (const l of listeners) l(changes);
}

function ensureStream(): void {
  if (source) return;
  const es = new EventSource(`${BASE}api/stream`);
  source = es;
  es.addEventListener('hello', () => {
    setConnection('live');
    refresh();
  });
  es.addEventListener('changes', (e) => refresh(JSON.parse((e as MessageEvent<string>).data) as ChangeMessage[]));
  es.addEventListener('error', () => {
    setConnection('reconnecting');
    // A dropped connection is retried by EventSource itself; a refused answer closes it for good.
    if (es.readyState === EventSource.CLOSED) {
      source = undefined;
      setTimeout(ensureStream, REOPEN_MS);
    }
  });
}

/**
 * Hears every batch (and every (re)connect, as no batch) until the returned function is called:
 * for a page that updates what it shows from the changes instead of refetching it (flow-live.ts).
 */
export function subscribe(listener: Listener): () => void {
  ensureStream();
  listeners.add(listener);
  return () => void listeners.delete(listener);
}

export function useConnection(): Connection {
  const [c, setC] = useState(connection);
  useEffect(() => {
    ensureStream();
    connectionListeners.add(setC);
    return () => void connectionListeners.delete(setC);
  }, []);
  return c;
}

export type Loaded<T> =
  | { state: 'loading' }
  | { state: 'ok'; data: T }
  | { state: 'missing' }
  | { state: 'error'; message: string }
  | { state: 'signIn' };

/** Changes a page cares about; without one, every change refetches. */
export type Relevant = (change: ChangeMessage) => boolean;

/**
 * Fetches `url` now, on every (re)connect, and after every relevant change; one request in flight
 * at a time, the last change always wins.
 */
export function useLive<T>(url: string, relevant?: Relevant): Loaded<T> {
  const [loaded, setLoaded] = useState<Loaded<T>>({ state: 'loading' });
  const inFlight = useRef(false);
  const again = useRef(false);
  useEffect(() => {
    let cancelled = false;
    setLoaded({ state: 'loading' });
    const load = async (): Promise<void> => {
      if (inFlight.current) {
        again.current = true;
        return;
      }
      inFlight.current = true;
      try {
        const res = await fetch(url, { headers: { Accept: 'application/json' } });
        if (cancelled) return;
        if (res.status === 404) setLoaded({ state: 'missing' });
        else if (!res.ok) {
          const body = (await res.json().catch(() => ({}))) as { error?: string; signIn?: boolean };
          // `flowops run`: nobody signed in yet (or the token ended): the page asks for one.
          if (res.status === 401 && body.signIn) setLoaded({ state: 'signIn' });
          else setLoaded({ state: 'error', message: `${res.status} ${body.error ?? res.statusText}` });
        } else setLoaded({ state: 'ok', data: (await res.json()) as T });
      } catch (err) {
        // The server is restarting: keep showing the last data; the stream's hello refetches.
        if (!cancelled) setLoaded((prev) => (prev.state === 'ok' ? prev : { state: 'error', message: String(err) }));
      } finally {
        inFlight.current = false;
        if (again.current && !cancelled) {
          again.current = false;
          void load();
        }
      }
    };
    const onChanges: Listener = (changes) => {
      if (!changes || !relevant || changes.some(relevant)) void load();
    };
    ensureStream();
    listeners.add(onChanges);
    void load();
    return () => {
      cancelled = true;
      listeners.delete(onChanges);
    };
  }, [url]);
  return loaded;
}

// One EventSource for the whole page. Each `hello` (first connect and every reconnect after the
// server restarts) and each `changes` batch makes the shown data refetch; EventSource reconnects
// by itself, after the `retry` the server sets.
import { useEffect, useRef, useState } from 'preact/hooks';
import { BASE } from './router.ts';

export type Connection = 'connecting' | 'live' | 'reconnecting';

type Listener = () => void;
const listeners = new Set<Listener>();
const connectionListeners = new Set<(c: Connection) => void>();
let connection: Connection = 'connecting';
let source: EventSource | undefined;

function setConnection(c: Connection): void {
  connection = c;
  for (const l of connectionListeners) l(c);
}

function ensureStream(): void {
  if (source) return;
  source = new EventSource(`${BASE}api/stream`);
  const refresh = (): void => {
    for (const l of listeners) l();
  };
  source.addEventListener('hello', () => {
    setConnection('live');
    refresh();
  });
  source.addEventListener('changes', refresh);
  source.addEventListener('error', () => setConnection('reconnecting'));
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

export type Loaded<T> = { state: 'loading' } | { state: 'ok'; data: T } | { state: 'missing' } | { state: 'error'; message: string };

/** Fetches `url` now and again after every change; one request in flight at a time, the last change always wins. */
export function useLive<T>(url: string): Loaded<T> {
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
        else if (!res.ok) setLoaded({ state: 'error', message: `${res.status} ${((await res.json().catch(() => ({}))) as { error?: string }).error ?? res.statusText}` });
        else setLoaded({ state: 'ok', data: (await res.json()) as T });
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
    ensureStream();
    listeners.add(load);
    void load();
    return () => {
      cancelled = true;
      listeners.delete(load);
    };
  }, [url]);
  return loaded;
}

import type { IncomingMessage, ServerResponse } from 'node:http';
import type { JsonObject, ResourceType } from '../registry/types.js';
import { apiVersionOf, collectionPrefix } from '../registry/types.js';
import { CompactedError, type StoreEvent } from '../storage/types.js';
import { booleanParam, selectorFilter } from './query.js';
import type { ResourceContext } from './resource-handlers.js';
import { asVersion } from './resource-handlers.js';
import { errors } from './status.js';
import { includeObjectParam, toTable } from '../table/table.js';

export interface WatchSettings {
  /** How often a watch that allows bookmarks gets one. */
  bookmarkIntervalMs: number;
  /** Server-side cap when the client sets no timeoutSeconds (kube-apiserver: 30–60 min, randomised). */
  defaultTimeoutSeconds: number;
}

/** A slow client whose unsent events pass this is cut off and must re-watch, as kine drops slow watchers. */
const MAX_BUFFERED = 32 * 1024 * 1024;

export function serveWatch(
  ctx: ResourceContext,
  req: IncomingMessage,
  res: ServerResponse,
  t: ResourceType,
  namespace: string | undefined,
  q: URLSearchParams,
  table: boolean,
): void {
  const filter = selectorFilter(t, q);
  const rv = q.get('resourceVersion') ?? '';
  const initialEvents = booleanParam(q, 'sendInitialEvents');
  if (initialEvents && q.get('resourceVersionMatch') !== 'NotOlderThan') {
    throw errors.invalidListOptions('resourceVersionMatch', 'sendInitialEvents requires setting resourceVersionMatch to NotOlderThan');
  }
  if (rv && !/^\d+$/.test(rv)) throw errors.badRequest(`invalid resource version: ${rv}`);

  res.writeHead(200, { 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked', 'Cache-Control': 'no-cache, private' });
  // Without an immediate flush client-node's fetch waits for the first event and informers never start.
  res.flushHeaders();

  const includeObject = includeObjectParam(q);
  let columnsSent = false;
  const asTable = (objectJson: string): string => {
    const tbl = toTable(t, [JSON.parse(objectJson) as JsonObject], { includeObject, withColumns: !columnsSent });
    columnsSent = true;
    return JSON.stringify(tbl);
  };
  let corked = false;
  const uncork = (): void => {
    corked = false;
    res.uncork();
  };
  const send = (type: string, objectJson: string): void => {
    if (res.writableLength > MAX_BUFFERED) return close();
    const body = table && type !== 'BOOKMARK' && type !== 'ERROR' ? asTable(objectJson) : objectJson;
    // A group commit publishes many events in one turn: corking until the turn ends sends them in
    // one write instead of one system call per event (measured as the server's largest cost under load).
    if (!corked) {
      corked = true;
      res.cork();
      process.nextTick(uncork);
    }
    res.write(`{"type":"${type}","object":${body}}\n`);
  };
  const versioned = (text: string): string => (t.custom ? asVersion(text, t) : text);
  const matches = (text: string | undefined): boolean => text !== undefined && (!filter || filter(JSON.parse(text) as JsonObject));

  const onEvent = (e: StoreEvent): void => {
    const now = e.type !== 'delete' && matches(e.value);
    const before = e.type !== 'create' && (filter ? matches(e.prevValue ?? e.value) : true);
    if (e.type === 'create') {
      if (now) send('ADDED', versioned(e.value));
    } else if (e.type === 'delete') {
      if (before) send('DELETED', versioned(e.value));
    } else if (now && before) send('MODIFIED', versioned(e.value));
    else if (now) send('ADDED', versioned(e.value));
    else if (before) send('DELETED', versioned(e.value));
  };

  const store = ctx.objects.store;
  let from: number;
  if (!rv || rv === '0' || initialEvents) {
    const page = ctx.objects.list(t, namespace, filter ? { filter } : {});
    for (const item of page.items) send('ADDED', versioned(item));
    from = Number(page.resourceVersion);
    if (initialEvents) send('BOOKMARK', bookmark(t, from, true));
  } else {
    from = Number(rv);
  }

  let handle: { cancel(): void } | undefined;
  let closed = false;
  const timers: NodeJS.Timeout[] = [];
  function close(): void {
    if (closed) return;
    closed = true;
    handle?.cancel();
    for (const tm of timers) clearTimeout(tm);
    res.end();
  }
  try {
    handle = store.watch(collectionPrefix(t, namespace), from, onEvent, close);
  } catch (e) {
    if (!(e instanceof CompactedError)) throw e;
    send('ERROR', JSON.stringify(errors.expired(e.message).toStatus()));
    return close();
  }
  const timeout = Number(q.get('timeoutSeconds') ?? 0) || ctx.watch.defaultTimeoutSeconds * (1 + Math.random());
  timers.push(setTimeout(close, timeout * 1000));
  if (booleanParam(q, 'allowWatchBookmarks')) {
    const tick = setInterval(() => send('BOOKMARK', bookmark(t, store.currentRevision(), false)), ctx.watch.bookmarkIntervalMs);
    timers.push(tick);
  }
  req.on('close', close);
  res.on('close', close);
}

function bookmark(t: ResourceType, revision: number, initialEventsEnd: boolean): string {
  const metadata: Record<string, unknown> = { resourceVersion: String(revision) };
  if (initialEventsEnd) metadata.annotations = { 'k8s.io/initial-events-end': 'true' };
  return JSON.stringify({ kind: t.kind, apiVersion: apiVersionOf(t), metadata });
}

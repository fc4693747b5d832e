import type { IncomingMessage, ServerResponse } from 'node:http';
import { type JsonObject, type ResourceType, apiVersionOf, collectionPrefix } from '../registry/types.js';
import { CompactedError, type StoreEvent } from '../storage/index.js';
import { booleanParam, selectorFilter } from './query.js';
import type { ResourceContext } from './resource-handlers.js';
import { presented } from '../objects/object-store.js';
import { resourceVersionParam } from './resource-version.js';
import { errors } from './status.js';
import type { BudgetedWatch } from './watch-budget.js';
import { includeObjectParam, toTable } from '../table/table.js';
import { encodeWatchFrame, encodeWatchFrameOfText, ProtobufEncodeError } from '../protobuf/index.js';
import { partialMetadata } from './metadata-only.js';
import { sharedFrame, sharedParse } from './watch-frames.js';

export interface WatchSettings {
  /** How often a watch that allows bookmarks gets one. */
  bookmarkIntervalMs: number;
  /** Server-side cap when the client sets no timeoutSeconds (kube-apiserver: 30–60 min, randomised). */
  defaultTimeoutSeconds: number;
}

/**
 * How much of the initial list is written ahead of the client before waiting for it to drain:
 * enough to keep the socket busy, little enough that a client which stops reading pins no more.
 */
const INITIAL_LIST_WINDOW = 1024 * 1024;

/** What a watch's events carry: Table rows, PartialObjectMetadata, or the objects; in JSON or protobuf frames. */
export interface WatchFormat {
  table: boolean;
  metadataOnly: boolean;
  protobuf: boolean;
}

export function serveWatch(
  ctx: ResourceContext,
  req: IncomingMessage,
  res: ServerResponse,
  t: ResourceType,
  namespace: string | undefined,
  q: URLSearchParams,
  format: WatchFormat,
): void {
  const { table, metadataOnly, protobuf } = format;
  const filter = selectorFilter(t, q);
  const rv = resourceVersionParam(q);
  const initialEvents = booleanParam(q, 'sendInitialEvents');
  if (initialEvents && q.get('resourceVersionMatch') !== 'NotOlderThan') {
    throw errors.invalidListOptions(
      'resourceVersionMatch',
      'sendInitialEvents requires setting resourceVersionMatch to NotOlderThan',
    );
  }

  const contentType = protobuf ? 'application/vnd.kubernetes.protobuf;stream=watch' : 'application/json';
  res.writeHead(200, {
    'Content-Type': contentType,
    'Transfer-Encoding': 'chunked',
    'Cache-Control': 'no-cache, private',
  });
  // Without an immediate flush client-node's fetch waits for the first event and informers never start.
  res.flushHeaders();

  const includeObject = includeObjectParam(q);
  let columnsSent = false;
  const asTable = (objectJson: string): string => {
    const tbl = toTable(t, [JSON.parse(objectJson) as JsonObject], { includeObject, withColumns: !columnsSent });
    columnsSent = true;
    return JSON.stringify(tbl);
  };

  let handle: { cancel(): void } | undefined;
  let closed = false;
  const timers: NodeJS.Timeout[] = [];
  const stop = (): void => {
    closed = true;
    handle?.cancel();
    for (const tm of timers) clearTimeout(tm);
    unregister();
  };
  const budgeted: BudgetedWatch = {
    res,
    resource: t.group ? `${t.plural}.${t.group}` : t.plural,
    drop: () => {
      if (closed) return;
      stop();
      res.destroy();
    },
  };
  const unregister = ctx.watchBudget.add(budgeted);
  function close(): void {
    if (closed) return;
    stop();
    res.end();
  }

  let corked = false;
  const uncork = (): void => {
    corked = false;
    res.uncork();
  };
  const encode = (type: string, objectJson: string): Buffer | string => {
    const body =
      table && type !== 'BOOKMARK' && type !== 'ERROR'
        ? asTable(objectJson)
        : metadataOnly && type !== 'ERROR'
          ? JSON.stringify(partialMetadata(t, objectJson))
          : objectJson;
    // An object event's text is the stored object's: its protobuf message is encoded once for every watcher.
    const isObject = body === objectJson && type !== 'ERROR' && type !== 'BOOKMARK';
    const plain = isObject ? { apiVersion: apiVersionOf(t), kind: t.kind } : undefined;
    return protobuf ? protobufFrame(type, body, plain) : `{"type":"${type}","object":${body}}\n`;
  };
  // The watches of one encoding send a store event as the same bytes (a Table's columns differ per watch).
  const encoding = table
    ? undefined
    : `${protobuf ? 'protobuf' : 'json'}${metadataOnly ? '+metadata' : ''}|${apiVersionOf(t)}|${t.plural}|`;
  /** `objectJson` is a thunk for a store event's object, so a watch whose frame is shared never builds it. */
  const send = (type: string, objectJson: string | (() => string), from?: StoreEvent): void => {
    if (closed) return;
    // A group commit publishes many events in one turn: corking until the turn ends sends them in
    // one write instead of one system call per event (measured as the server's largest cost under load).
    if (!corked) {
      corked = true;
      res.cork();
      process.nextTick(uncork);
    }
    const chunk =
      from && encoding !== undefined
        ? sharedFrame(from, encoding + type, () => {
            const c = encode(type, textOf(objectJson));
            return typeof c === 'string' ? Buffer.from(c) : c;
          })
        : encode(type, textOf(objectJson));
    if (!res.write(chunk)) ctx.watchBudget.check(budgeted);
  };
  const versioned =
    (text: string): (() => string) =>
    () =>
      presented(t, text);
  const matches = (e: StoreEvent, text: string | undefined): boolean =>
    text !== undefined && (!filter || filter(sharedParse(e, text)));

  const onEvent = (e: StoreEvent): void => {
    const now = e.type !== 'delete' && matches(e, e.value);
    const before = e.type !== 'create' && (filter ? matches(e, e.prevValue ?? e.value) : true);
    if (e.type === 'create') {
      if (now) send('ADDED', versioned(e.value), e);
    } else if (e.type === 'delete') {
      if (before) send('DELETED', versioned(e.value), e);
    } else if (now && before) send('MODIFIED', versioned(e.value), e);
    else if (now) send('ADDED', versioned(e.value), e);
    else if (before) send('DELETED', versioned(e.value), e);
  };

  const store = ctx.objects.store;
  const subscribe = (from: number): void => {
    if (closed) return;
    try {
      handle = store.watch(collectionPrefix(t, namespace), from, onEvent, close);
    } catch (e) {
      if (!(e instanceof CompactedError)) throw e;
      send('ERROR', JSON.stringify(errors.expired(e.message).toStatus()));
      return close();
    }
    if (booleanParam(q, 'allowWatchBookmarks')) {
      const tick = setInterval(
        () => send('BOOKMARK', bookmark(t, store.currentRevision(), false)),
        ctx.watch.bookmarkIntervalMs,
      );
      timers.push(tick);
    }
  };

  const timeout = Number(q.get('timeoutSeconds') ?? 0) || ctx.watch.defaultTimeoutSeconds * (1 + Math.random());
  timers.push(setTimeout(close, timeout * 1000));
  req.on('close', close);
  res.on('close', close);

  if (rv && !initialEvents) return subscribe(rv);
  // The initial list is written as the client takes it, never all at once; what is written
  // meanwhile is replayed from the log when the watch subscribes at the list's revision.
  const page = ctx.objects.list(t, namespace, filter ? { filter } : {});
  const from = Number(page.resourceVersion);
  void (async () => {
    for (const item of page.items) {
      if (closed) return;
      send('ADDED', presented(t, item));
      if (res.writableLength >= INITIAL_LIST_WINDOW) await drained(res);
    }
    if (initialEvents) send('BOOKMARK', bookmark(t, from, true));
    subscribe(from);
  })().catch(() => budgeted.drop());
}

function textOf(json: string | (() => string)): string {
  return typeof json === 'string' ? json : json();
}

/** A protobuf watch frame; an object with no protobuf form (a stored value of the wrong type) becomes an ERROR event. */
function protobufFrame(type: string, body: string, plain: { apiVersion: string; kind: string } | undefined): Buffer {
  try {
    if (plain) return encodeWatchFrameOfText(type, body, plain.apiVersion, plain.kind);
    return encodeWatchFrame(type, JSON.parse(body) as JsonObject);
  } catch (e) {
    if (!(e instanceof ProtobufEncodeError)) throw e;
    return encodeWatchFrame(
      'ERROR',
      errors.internal(`cannot encode the object as protobuf: ${e.message}`).toStatus() as JsonObject,
    );
  }
}

/** Resolves once the response has sent what it buffered, or is gone. */
function drained(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}

function bookmark(t: ResourceType, revision: number, initialEventsEnd: boolean): string {
  const metadata: Record<string, unknown> = { resourceVersion: String(revision) };
  if (initialEventsEnd) metadata.annotations = { 'k8s.io/initial-events-end': 'true' };
  return JSON.stringify({ kind: t.kind, apiVersion: apiVersionOf(t), metadata });
}

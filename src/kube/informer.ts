import type { Logger } from '../log/index.js';
import { keepGoing, logLoopFault } from '../log/keep-going.js';
import type { KubeClient } from './client.js';
import { resourcePath } from './discovery.js';
import type { KubeObject } from './types.js';
import { KubeApiError } from './rest.js';
import { exponentialBackoff } from '../util/backoff.js';

export interface InformerOptions {
  apiVersion: string;
  kind: string;
  namespace?: string;
  labelSelector?: string;
  log: Logger;
  /** Applied to every object before it is cached and handed on (client-go's SetTransform), e.g. to drop managedFields. */
  transform?: (obj: KubeObject) => KubeObject;
  /**
   * Only objects it keeps are cached and handed on (a replica's shards); judged by namespace and
   * name, which never change, so an object is kept for its whole life or never.
   */
  keep?: (namespace: string | undefined, name: string) => boolean;
}

export interface InformerHandlers {
  add(obj: KubeObject): void;
  update(obj: KubeObject, old: KubeObject): void;
  delete(obj: KubeObject): void;
  /** The first list is in the cache (WaitForCacheSync). */
  synced?(): void;
  /** Listing failed (for instance the kind is not served yet); the informer retries. */
  error?(err: unknown): void;
}

const MAX_BACKOFF_MS = 30_000;

/**
 * client-go's reflector + informer in small: list, then watch from the list's resourceVersion;
 * relist when the server says 410 Expired; reconnect after any error with capped backoff (client-node
 * 1.4's informer stops for good on a dropped connection, which a controller cannot afford).
 */
export class Informer {
  private readonly cache = new Map<string, KubeObject>();
  private stopped = false;
  private abort: AbortController | undefined;
  /** Failures in a row, for the reconnect backoff. */
  private failures = 0;
  private done: Promise<void> | undefined;

  constructor(
    private readonly kube: KubeClient,
    private readonly opts: InformerOptions,
    private readonly handlers: InformerHandlers,
  ) {}

  start(): void {
    this.done ??= this.run();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.abort?.abort();
    await this.done;
  }

  list(): KubeObject[] {
    return [...this.cache.values()];
  }

  get(namespace: string | undefined, name: string): KubeObject | undefined {
    return this.cache.get(keyOf(namespace, name));
  }

  private async run(): Promise<void> {
    let rv: string | undefined;
    let synced = false;
    while (!this.stopped) {
      try {
        if (rv === undefined) {
          rv = await this.relist();
          // Stopped while listing (a restart replaced this informer): its list is not the cache
          // anyone reads now, so it must not report the kind as synced.
          if (this.stopped) break;
          if (!synced) {
            synced = true;
            this.handlers.synced?.();
          }
        }
        rv = await this.watch(rv);
        this.failures = 0;
      } catch (err) {
        if (this.stopped) break;
        this.handlers.error?.(err);
        this.opts.log.debug({ err, kind: this.opts.kind }, 'informer retrying');
        this.failures++;
        await pause(exponentialBackoff(this.failures, { baseMs: 250, maxMs: MAX_BACKOFF_MS }), () => this.stopped);
      }
    }
  }

  /** A handler that throws is logged; the watch and the cache go on (a relist would not replay the event). */
  private emit(call: () => void): void {
    keepGoing(`${this.opts.kind} informer`, logLoopFault(this.opts.log), call);
  }

  private async relist(): Promise<string> {
    const { items, resourceVersion } = await this.kube.list(this.opts.apiVersion, this.opts.kind, {
      ...(this.opts.namespace ? { namespace: this.opts.namespace } : {}),
      ...(this.opts.labelSelector ? { labelSelector: this.opts.labelSelector } : {}),
    });
    // A list that returns after stop() is handed to no one: its adds would run objects under a
    // watch that has been replaced.
    if (this.stopped) return resourceVersion;
    const seen = new Set<string>();
    for (const obj of items) {
      if (this.opts.keep && !this.opts.keep(obj.metadata.namespace, obj.metadata.name ?? '')) continue;
      const key = keyOf(obj.metadata.namespace, obj.metadata.name!);
      seen.add(key);
      this.apply(key, obj);
    }
    for (const [key, old] of [...this.cache]) {
      if (seen.has(key)) continue;
      this.cache.delete(key);
      this.emit(() => this.handlers.delete(old));
    }
    return resourceVersion;
  }

  private apply(key: string, raw: KubeObject): void {
    const obj = this.opts.transform ? this.opts.transform(raw) : raw;
    const old = this.cache.get(key);
    this.cache.set(key, obj);
    if (!old) this.emit(() => this.handlers.add(obj));
    else if (old.metadata.resourceVersion !== obj.metadata.resourceVersion) {
      this.emit(() => this.handlers.update(obj, old));
    }
  }

  /** Streams events until the server ends the watch; returns the resourceVersion to resume from (undefined: relist). */
  private async watch(rv: string): Promise<string | undefined> {
    const r = await this.kube.resource(this.opts.apiVersion, this.opts.kind);
    this.abort = new AbortController();
    // stop() during the await above aborted no watch (there was none yet): without this check the
    // watch would open now and stop() would wait for its timeout, 5 to 10 minutes.
    if (this.stopped) return rv;
    const res = await this.kube.rest.open('GET', resourcePath(r, this.opts.namespace), {
      query: {
        watch: 'true',
        resourceVersion: rv,
        allowWatchBookmarks: 'true',
        labelSelector: this.opts.labelSelector,
        timeoutSeconds: String(300 + Math.floor(Math.random() * 300)),
      },
      signal: this.abort.signal,
    });
    if (res.statusCode === 410) return undefined;
    const code = res.statusCode ?? 0;
    if (code >= 400) throw new KubeApiError(code, 'Unknown', `watch ${this.opts.kind}: HTTP ${code}`, '');
    let buffer = '';
    let resume: string | undefined = rv;
    for await (const chunk of res) {
      buffer += (chunk as Buffer).toString('utf8');
      let nl: number;
      while ((nl = buffer.indexOf('\n')) >= 0) {
        const line = buffer.slice(0, nl).trim();
        buffer = buffer.slice(nl + 1);
        if (!line) continue;
        const event = JSON.parse(line) as { type: string; object: KubeObject & { code?: number } };
        if (event.type === 'ERROR') {
          if (event.object.code === 410) return undefined;
          const text = JSON.stringify(event.object);
          const status = event.object as { code?: number; reason?: string };
          throw new KubeApiError(
            status.code ?? 500,
            status.reason ?? 'Unknown',
            `watch ${this.opts.kind}: ${text}`,
            text,
          );
        }
        resume = event.object.metadata?.resourceVersion ?? resume;
        if (event.type === 'BOOKMARK') continue;
        const meta = event.object.metadata;
        if (this.opts.keep && !this.opts.keep(meta?.namespace, meta?.name ?? '')) continue;
        const obj = {
          ...event.object,
          apiVersion: event.object.apiVersion ?? this.opts.apiVersion,
          kind: event.object.kind ?? this.opts.kind,
        };
        const key = keyOf(obj.metadata.namespace, obj.metadata.name!);
        if (event.type === 'DELETED') {
          this.cache.delete(key);
          const gone = this.opts.transform ? this.opts.transform(obj) : obj;
          this.emit(() => this.handlers.delete(gone));
        } else {
          this.apply(key, obj);
        }
      }
    }
    return resume;
  }
}

/** A transform for caches that never read managedFields (they are often half of an object). */
export function dropManagedFields(obj: KubeObject): KubeObject {
  if (!obj.metadata.managedFields) return obj;
  const { managedFields: _mf, ...metadata } = obj.metadata;
  return { ...obj, metadata };
}

function keyOf(namespace: string | undefined, name: string): string {
  return namespace ? `${namespace}/${name}` : name;
}

async function pause(ms: number, stopped: () => boolean): Promise<void> {
  const until = Date.now() + ms;
  while (!stopped() && Date.now() < until) await new Promise((r) => setTimeout(r, Math.min(100, until - Date.now())));
}

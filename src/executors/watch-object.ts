// Waits for one object to reach a state by watching it (list, then watch from the list's
// resourceVersion, re-listing whenever the watch ends), so a wait step reacts to the change
// itself instead of a polling interval. The step's signal ends the wait.

import type { IncomingMessage } from 'node:http';
import { resourcePath, type KubeObject } from '../kube/index.js';
import { abortError, kubeError } from './step-errors.js';
import type { ResolvedTarget } from './target.js';
import type { StepContext } from './types.js';
import { setTimeout as sleep } from 'node:timers/promises';

interface WatchEvent {
  type: 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';
  object: KubeObject;
}

/** Resolves with the object (undefined once deleted) when `done` holds for it. */
export async function waitForObject(
  ctx: StepContext,
  target: ResolvedTarget,
  done: (obj: KubeObject | undefined) => boolean,
  what: string,
): Promise<KubeObject | undefined> {
  const { ref, resource } = target;
  const fieldSelector = `metadata.name=${ref.name}`;
  for (;;) {
    if (ctx.signal.aborted) throw abortError(ctx.signal, what);
    let listed: { items: KubeObject[]; resourceVersion: string };
    try {
      listed = await ctx.kube.list(ref.apiVersion, ref.kind, {
        ...(ref.namespace === undefined ? {} : { namespace: ref.namespace }),
        fieldSelector,
      });
    } catch (err) {
      throw kubeError(err, what);
    }
    const current = listed.items[0];
    if (done(current)) return current;
    const started = Date.now();
    try {
      const res = await ctx.kube.rest.open('GET', resourcePath(resource, ref.namespace), {
        query: {
          watch: 'true',
          fieldSelector,
          resourceVersion: listed.resourceVersion,
          allowWatchBookmarks: 'true',
          timeoutSeconds: '300',
        },
        signal: ctx.signal,
      });
      const met = await readUntil(res, done);
      if (met) return met.obj;
    } catch (err) {
      if (ctx.signal.aborted) throw abortError(ctx.signal, what);
      ctx.log.debug({ err: err instanceof Error ? err.message : String(err) }, 'watch failed; listing again');
    }
    // A watch that ends at once (expired resourceVersion, server error) must not spin.
    if (Date.now() - started < 1000) await sleep(250, undefined, { signal: ctx.signal }).catch(() => undefined);
  }
}

async function readUntil(
  res: IncomingMessage,
  done: (obj: KubeObject | undefined) => boolean,
): Promise<{ obj: KubeObject | undefined } | undefined> {
  if ((res.statusCode ?? 0) >= 400) {
    res.resume();
    return undefined;
  }
  let buffered = '';
  try {
    for await (const chunk of res) {
      buffered += (chunk as Buffer).toString('utf8');
      let nl: number;
      while ((nl = buffered.indexOf('\n')) >= 0) {
        const line = buffered.slice(0, nl).trim();
        buffered = buffered.slice(nl + 1);
        if (!line) continue;
        const event = JSON.parse(line) as WatchEvent;
        if (event.type === 'ERROR') return undefined;
        if (event.type === 'BOOKMARK') continue;
        const obj = event.type === 'DELETED' ? undefined : event.object;
        if (done(obj)) return { obj };
      }
    }
    return undefined;
  } finally {
    res.destroy();
  }
}

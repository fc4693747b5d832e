import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KubeObject } from '../../src/kube/types.js';
import {
  forgetClosed,
  MAX_PREVIEW_CHARS,
  PREVIEW_DATA_KEY,
  storePreview,
  type StoredPreview,
} from '../../src/preview/preview-store.js';
import { uiRoute, type UiRoute } from '../../src/ui-server/route.js';
import type { PreviewList } from '../../src/ui-server/types.js';
import { startFlowOps, type FlowOpsEnv } from '../helpers/flowops.js';
import { applyRepoSource, samplePreview } from './preview-fixture.js';
import { waitFor } from '../helpers/wait.js';

// The web view's API for pull-request previews, over HTTP against the embedded API server: what
// the previewer stores (one ConfigMap per source and request) is what the page reads, a new
// preview reaches open pages through the change stream, and a closed request's preview goes.

let env: FlowOpsEnv;
let ui: UiRoute;
let base: string;
let source: KubeObject;

const preview = samplePreview;

beforeAll(async () => {
  env = await startFlowOps();
  ui = uiRoute({ kube: env.kube, log: pino({ level: 'silent' }), distDir: mkdtempSync(join(tmpdir(), 'ui-')) });
  env.ts.server.addRoute((req, res, url) => ui.handle(req, res, url));
  base = env.ts.server.url;
  source = await applyRepoSource(env);
});
afterAll(async () => {
  await ui?.stop();
  await env?.stop();
});

describe('pull-request previews in the web view API', () => {
  it('lists a source’s previews without diffs and answers one whole', async () => {
    await storePreview(env.kube, source, preview(7));
    await storePreview(env.kube, source, preview(9, { state: 'failure', errors: ['flows/web.yaml:3:1: spec: bad'] }));
    const list = (await (await fetch(`${base}/ui/api/sources/default/repo/previews`)).json()) as PreviewList;
    expect(list.previews.map((p) => [p.pr, p.state, p.objects])).toEqual([
      [9, 'failure', 1],
      [7, 'success', 1],
    ]);
    expect(JSON.stringify(list)).not.toContain('replicas: 3');
    const one = (await (await fetch(`${base}/ui/api/sources/default/repo/previews/7`)).json()) as StoredPreview;
    expect(one.summary[0]).toEqual({
      object: 'Flow default/web',
      change: 'changed',
      fields: ['spec.replicas'],
      children: ['Deployment default/a'],
    });
    expect(one.diff).toContain('+  replicas: 3');
    expect((await fetch(`${base}/ui/api/sources/default/repo/previews/8`)).status).toBe(404);
    expect((await fetch(`${base}/ui/api/sources/default/nope/previews`)).status).toBe(404);
    // Owned by the FlowSource, so the garbage collector takes it with the source.
    const cm = await env.kube.get({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      namespace: 'default',
      name: 'flowops-preview-repo-7',
    });
    expect(cm?.metadata.ownerReferences?.[0]).toMatchObject({
      kind: 'FlowSource',
      name: 'repo',
      uid: source.metadata.uid,
    });
  });

  it('keeps a huge diff within its bound, saying it was cut', async () => {
    await storePreview(env.kube, source, preview(11, { diff: `+ ${'x'.repeat(80)}\n`.repeat(10_000) }));
    const cm = await env.kube.get({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      namespace: 'default',
      name: 'flowops-preview-repo-11',
    });
    const text = (cm as { data?: Record<string, string> } | undefined)?.data?.[PREVIEW_DATA_KEY] ?? '';
    expect(text.length).toBeLessThanOrEqual(MAX_PREVIEW_CHARS);
    expect((JSON.parse(text) as StoredPreview).cut).toBe(true);
  });

  it('streams a changed preview to open pages and forgets closed requests', async () => {
    const abort = new AbortController();
    const res = await fetch(`${base}/ui/api/stream`, { signal: abort.signal });
    const reader = res.body?.getReader();
    if (!reader) throw new Error('no stream body');
    let text = '';
    const readUntil = (pattern: RegExp) =>
      waitFor(
        async () => {
          if (pattern.test(text)) return true;
          const { value } = await reader.read();
          text += new TextDecoder().decode(value);
          return pattern.test(text);
        },
        { what: `stream to match ${pattern}` },
      );
    try {
      await readUntil(/event: hello/);
      await storePreview(env.kube, source, preview(7, { state: 'pending', description: 'previewing' }));
      await readUntil(/"kind":"ConfigMap"[^}]*"name":"flowops-preview-repo-7"/);
    } finally {
      abort.abort();
    }
    await forgetClosed(env.kube, source, new Set([9]));
    const list = (await (await fetch(`${base}/ui/api/sources/default/repo/previews`)).json()) as PreviewList;
    expect(list.previews.map((p) => p.pr)).toEqual([9]);
  });
});

// The garbage collector's owner index after a restart: built in the background from what is stored
// (a window of keys per turn), so an owner deleted after the restart still takes its dependents,
// however far past the first window they are stored.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startApiServer, type ApiServer } from '../../src/apiserver/index.js';
import { waitFor } from '../helpers/wait.js';

const dir = mkdtempSync(join(tmpdir(), 'flowops-gc-restart-'));
const FILLERS = 2500;
let server: ApiServer | undefined;
afterAll(async () => {
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

const cm = (name: string, extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, ...extra },
});

type Answer = { status: number; json: Record<string, unknown> };

async function send(method: string, path: string, body?: unknown): Promise<Answer> {
  if (!server) throw new Error('no server');
  const headers = { 'content-type': 'application/json' };
  const init = body === undefined ? { method } : { method, headers, body: JSON.stringify(body) };
  const r = await fetch(`${server.url}${path}`, init);
  return { status: r.status, json: (await r.json()) as Record<string, unknown> };
}

const CMS = '/api/v1/namespaces/default/configmaps';

describe('garbage collection after a restart', () => {
  it('deletes the dependents of an owner deleted after a restart, stored windows past the first', async () => {
    server = await startApiServer({ port: 0, dataDir: join(dir, 'data') });
    const owner = await send('POST', CMS, cm('aa-owner'));
    expect(owner.status).toBe(201);
    const uid = String((owner.json.metadata as Record<string, unknown>).uid);
    // Fillers sort before the dependents, so the dependents are in a later window of the scan.
    for (let i = 0; i < FILLERS; i += 50) {
      const names = Array.from({ length: 50 }, (_, j) => `filler-${String(i + j).padStart(5, '0')}`);
      const batch = names.map((name) => send('POST', CMS, cm(name)));
      expect(new Set((await Promise.all(batch)).map((r) => r.status))).toEqual(new Set([201]));
    }
    const ref = { apiVersion: 'v1', kind: 'ConfigMap', name: 'aa-owner', uid };
    for (const name of ['zz-dep-1', 'zz-dep-2']) {
      expect((await send('POST', CMS, cm(name, { ownerReferences: [ref] }))).status).toBe(201);
    }
    await server.close();

    server = await startApiServer({ port: 0, dataDir: join(dir, 'data') });
    expect((await send('DELETE', `${CMS}/aa-owner`)).status).toBe(200);
    await waitFor(
      async () => {
        const gone = await Promise.all(['zz-dep-1', 'zz-dep-2'].map((n) => send('GET', `${CMS}/${n}`)));
        return gone.every((r) => r.status === 404);
      },
      { what: 'the dependents stored after the fillers to be collected', timeoutMs: 30_000 },
    );
    // The fillers, owned by nothing, stay.
    expect((await send('GET', `${CMS}/filler-02499`)).status).toBe(200);
  }, 120_000);
});

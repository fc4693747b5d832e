// Storage recovers by itself from a full disk (issue 20, item 2), on a small filesystem made here
// (a tmpfs, else an ext4 loop file): the failing write is a 500, reads go on, /readyz is 503 with
// the reason while writes cannot be stored and /livez stays ok; once space is freed writes succeed
// and /readyz is 200 again without a restart. Every acknowledged object is there, before and after
// a restart, and no refused one ever appears.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApiServer, type ApiServer } from '../../src/apiserver/index.js';

const root = mkdtempSync(join(tmpdir(), 'flowops-disk-full-'));
const mountPoint = join(root, 'fs');
const BALLAST = join(mountPoint, 'ballast');
const CMS = '/api/v1/namespaces/default/configmaps';

/** Mounts an 8 MiB filesystem at mountPoint: a tmpfs, else an ext4 loop file; the reason when neither can be had. */
function mountSmallFilesystem(): string | undefined {
  mkdirSync(mountPoint, { recursive: true });
  const tries: Array<[string, () => void]> = [
    ['tmpfs', () => execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=8m', 'tmpfs', mountPoint], { stdio: 'pipe' })],
    [
      'loop file',
      () => {
        const image = join(root, 'fs.img');
        execFileSync('truncate', ['-s', '8M', image]);
        execFileSync('mkfs.ext4', ['-q', '-F', image], { stdio: 'pipe' });
        execFileSync('mount', ['-o', 'loop', image, mountPoint], { stdio: 'pipe' });
      },
    ],
  ];
  const why: string[] = [];
  for (const [what, attempt] of tries) {
    try {
      attempt();
      return undefined;
    } catch (e) {
      why.push(`${what}: ${(e as Error).message.split('\n')[0]}`);
    }
  }
  return why.join('; ');
}

const cannotMount = mountSmallFilesystem();
let server: ApiServer | undefined;

beforeAll(async () => {
  if (cannotMount) return;
  // Room the test gives back later: the database fills what is left.
  writeFileSync(BALLAST, Buffer.alloc(2 * 1024 * 1024));
  server = await startApiServer({ port: 0, dataDir: join(mountPoint, 'data'), onInternalError: () => {} });
});

afterAll(async () => {
  await server?.close();
  if (!cannotMount) execFileSync('umount', [mountPoint]);
  rmSync(root, { recursive: true, force: true });
});

async function call(method: string, path: string, body?: object): Promise<{ status: number; text: string }> {
  const init = {
    method,
    headers: { 'content-type': 'application/json' },
    ...(body ? { body: JSON.stringify(body) } : {}),
  };
  const r = await fetch(`${server!.url}${path}`, init);
  return { status: r.status, text: await r.text() };
}

const cm = (name: string, size: number): object => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name },
  data: { x: 'y'.repeat(size) },
});

function bigCrd(): object {
  const schema = { type: 'object', description: 'z'.repeat(150_000), 'x-kubernetes-preserve-unknown-fields': true };
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'things.full.example.com' },
    spec: {
      group: 'full.example.com',
      scope: 'Namespaced',
      names: { plural: 'things', singular: 'thing', kind: 'Thing', listKind: 'ThingList' },
      versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: schema } }],
    },
  };
}

async function storedNames(s: ApiServer): Promise<Set<string>> {
  const list = (await (await fetch(`${s.url}${CMS}`)).json()) as { items: Array<{ metadata: { name: string } }> };
  return new Set(list.items.map((i) => i.metadata.name));
}

describe.skipIf(cannotMount !== undefined)(`a full disk (${cannotMount ?? 'small filesystem mounted'})`, () => {
  it('refuses the write that does not fit, keeps serving, turns unready, and recovers once there is room', async () => {
    const acknowledged: string[] = [];
    const refused: string[] = [];
    let failed: { status: number; text: string } | undefined;
    for (let i = 0; !failed && i < 200; i++) {
      const r = await call('POST', CMS, cm(`fill-${i}`, 100_000));
      if (r.status === 201) acknowledged.push(`fill-${i}`);
      else {
        failed = r;
        refused.push(`fill-${i}`);
      }
    }
    expect(acknowledged.length).toBeGreaterThan(0);
    expect(failed?.status).toBe(500);
    expect(JSON.parse(failed!.text)).toMatchObject({
      reason: 'InternalError',
      message: 'Internal error occurred: database or disk is full',
    });

    const ready = await call('GET', '/readyz');
    expect(ready).toEqual({
      status: 503,
      text: '[+]ping ok\n[-]storage failed: database or disk is full\nreadyz check failed\n',
    });
    expect((await call('GET', '/healthz')).status).toBe(503);
    expect(await call('GET', '/livez')).toEqual({ status: 200, text: 'ok' });

    // Reads are served from what is stored; the refused write is not there.
    expect((await call('GET', `${CMS}/${acknowledged[0]}`)).status).toBe(200);
    expect((await call('GET', `${CMS}/${refused[0]}`)).status).toBe(404);
    const stillFull = await call('POST', CMS, cm('while-full', 100_000));
    expect(stillFull.status).toBe(500);
    refused.push('while-full');
    expect((await call('GET', '/readyz')).status).toBe(503);
    // What listeners derived from a refused write is undone with it: the CRD is not served.
    const crd = await call('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', bigCrd());
    expect(crd.status).toBe(500);
    expect((await call('GET', '/apis/full.example.com/v1/namespaces/default/things')).status).toBe(404);

    rmSync(BALLAST);
    expect(await call('GET', '/readyz')).toEqual({ status: 200, text: 'ok' });
    expect((await call('POST', CMS, cm('after-room', 1000))).status).toBe(201);
    acknowledged.push('after-room');
    expect((await call('PUT', `${CMS}/${acknowledged[0]}`, cm(acknowledged[0]!, 10))).status).toBe(200);

    const names = await storedNames(server!);
    expect(acknowledged.filter((n) => !names.has(n))).toEqual([]);
    expect(refused.filter((n) => names.has(n))).toEqual([]);

    await server!.close();
    server = await startApiServer({ port: 0, dataDir: join(mountPoint, 'data') });
    const afterRestart = await storedNames(server);
    expect(acknowledged.filter((n) => !afterRestart.has(n))).toEqual([]);
    expect(refused.filter((n) => afterRestart.has(n))).toEqual([]);
  });
});

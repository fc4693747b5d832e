import { request } from 'node:http';
import { mkdtempSync, writeFileSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runFlowops, serverUrlOf } from '../helpers/cli.js';

const json = async (url: string, init: RequestInit = {}): Promise<{ status: number; body: any }> => {
  const r = await fetch(url, { ...init, headers: { 'content-type': 'application/json', ...init.headers } });
  return { status: r.status, body: await r.json() };
};

describe('flowops apiserver as a process', () => {
  it('keeps every acknowledged write across kill -9 and a restart', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'flowops-kill-'));
    const args = [
      'apiserver',
      '--listen',
      '127.0.0.1:0',
      '--data',
      join(dir, 'data'),
      '--kubeconfig',
      join(dir, 'kubeconfig'),
    ];
    const first = runFlowops(args);
    const url = await serverUrlOf(first);
    let lastRv = 0;
    for (let i = 0; i < 40; i++) {
      const r = await json(`${url}/api/v1/namespaces/default/configmaps`, {
        method: 'POST',
        body: JSON.stringify({
          apiVersion: 'v1',
          kind: 'ConfigMap',
          metadata: { name: `cm-${i}` },
          data: { i: String(i) },
        }),
      });
      expect(r.status).toBe(201);
      lastRv = Number(r.body.metadata.resourceVersion);
    }
    const upd = await json(`${url}/api/v1/namespaces/default/configmaps/cm-0`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/merge-patch+json' },
      body: JSON.stringify({ data: { i: 'changed' } }),
    });
    expect(upd.status).toBe(200);
    first.child.kill('SIGKILL');
    await first.exited;

    const second = runFlowops(args);
    try {
      const url2 = await serverUrlOf(second);
      const list = await json(`${url2}/api/v1/namespaces/default/configmaps`);
      expect(list.body.items).toHaveLength(40);
      expect(list.body.items.find((c: any) => c.metadata.name === 'cm-0').data.i).toBe('changed');
      expect(Number(list.body.metadata.resourceVersion)).toBeGreaterThan(lastRv);
      const next = await json(`${url2}/api/v1/namespaces/default/configmaps`, {
        method: 'POST',
        body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'after' } }),
      });
      expect(Number(next.body.metadata.resourceVersion)).toBeGreaterThan(Number(list.body.metadata.resourceVersion));
      expect(readFileSync(join(dir, 'kubeconfig'), 'utf8')).toContain(url2);
    } finally {
      second.child.kill('SIGKILL');
      await second.exited;
    }
  });

  it('ends watches gracefully and exits 0 on SIGTERM', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'flowops-term-'));
    const p = runFlowops(['apiserver', '--listen', '127.0.0.1:0', '--data', dir]);
    const url = await serverUrlOf(p);
    const ended = new Promise<string>((resolve, reject) => {
      request(`${url}/api/v1/namespaces?watch=true`, (res) => {
        let body = '';
        res.on('data', (d: Buffer) => {
          body += d.toString();
          if (body.includes('"default"')) p.child.kill('SIGTERM');
        });
        res.on('end', () => resolve(body));
        res.on('error', reject);
      })
        .on('error', reject)
        .end();
    });
    const body = await ended;
    expect(body).toContain('"type":"ADDED"');
    expect(await p.exited).toEqual({ code: 0, signal: null });
  });

  it('fails with a one-line error on a taken port', async () => {
    const blocker = createServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', r));
    const port = (blocker.address() as { port: number }).port;
    try {
      const p = runFlowops([
        'apiserver',
        '--listen',
        `127.0.0.1:${port}`,
        '--data',
        mkdtempSync(join(tmpdir(), 'flowops-port-')),
      ]);
      const { code } = await p.exited;
      expect(code).not.toBe(0);
      expect(p.stderr().trim()).toBe(`flowops: cannot listen on 127.0.0.1:${port}: address already in use`);
    } finally {
      blocker.close();
    }
  });

  it('fails with a one-line error on an unusable data directory', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'flowops-data-')), 'not-a-dir');
    writeFileSync(file, 'x');
    const p = runFlowops(['apiserver', '--listen', '127.0.0.1:0', '--data', join(file, 'sub')]);
    const { code } = await p.exited;
    expect(code).not.toBe(0);
    const lines = p.stderr().trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^flowops: cannot use data directory .*not-a-dir\/sub: /);
  });
});

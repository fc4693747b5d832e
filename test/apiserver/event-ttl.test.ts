// Events expire --event-ttl after their last write, as on kube-apiserver (issue 13).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventExpiry } from '../../src/apiserver/events/event-ttl.js';
import { startTestServer, type TestServer } from '../helpers/apiserver.js';
import { runFlowops, serverUrlOf } from '../helpers/cli.js';
import { waitFor } from '../helpers/wait.js';

const EVENTS = '/api/v1/namespaces/default/events';

const event = (name: string, count = 1): object => ({
  apiVersion: 'v1',
  kind: 'Event',
  metadata: { name, namespace: 'default' },
  involvedObject: { kind: 'ConfigMap', namespace: 'default', name: 'x' },
  reason: 'Tested',
  message: 'expires',
  type: 'Normal',
  count,
});

async function call(
  base: string,
  method: string,
  path: string,
  body?: object,
  type = 'application/json',
): Promise<{ status: number; body: any }> {
  const r = await fetch(`${base}${path}`, {
    method,
    headers: { 'content-type': type },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  return { status: r.status, body: await r.json() };
}

describe('event TTL on a running server', () => {
  let ts: TestServer;
  beforeAll(async () => {
    ts = await startTestServer({ eventTtlMs: 1500 });
  });
  afterAll(async () => ts?.stop());

  it('deletes an Event once its TTL has passed (a watch sees DELETED), leaves other kinds, and compaction drops its history', async () => {
    const base = ts.server.url;
    const created = await call(base, 'POST', EVENTS, event('short-lived'));
    expect(created.status).toBe(201);
    expect(
      (
        await call(base, 'POST', '/api/v1/namespaces/default/configmaps', {
          apiVersion: 'v1',
          kind: 'ConfigMap',
          metadata: { name: 'stays' },
        })
      ).status,
    ).toBe(201);
    const rv = created.body.metadata.resourceVersion as string;

    await waitFor(async () => (await call(base, 'GET', `${EVENTS}/short-lived`)).status === 404, {
      timeoutMs: 30_000,
      what: 'the Event to expire',
    });
    expect((await call(base, 'GET', '/api/v1/namespaces/default/configmaps/stays')).status).toBe(200);
    const watched = await fetch(`${base}${EVENTS}?watch=1&resourceVersion=${rv}&timeoutSeconds=1`).then((r) =>
      r.text(),
    );
    const types = watched
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l).type);
    expect(types).toEqual(['DELETED']);

    // The expired Event's revisions go with the next compaction: its history can no longer be read.
    ts.server.store.compact(ts.server.store.currentRevision());
    const old = await call(base, 'GET', `${EVENTS}?resourceVersion=${rv}&resourceVersionMatch=Exact`);
    expect(old.status).toBe(410);
  });
});

describe('EventExpiry on a clock of its own', () => {
  let ts: TestServer;
  beforeAll(async () => {
    ts = await startTestServer();
  });
  afterAll(async () => ts?.stop());

  it('counts the TTL from the last write, and a sweep takes only what is due', async () => {
    const { objects, registry } = ts.server;
    const events = registry.lookup('', 'v1', 'events')!;
    let clock = 1_000_000;
    const expiry = new EventExpiry(objects, events, 1000, () => clock);
    objects.onWrite(expiry.onWrite);
    objects.create(events, 'default', event('renewed') as never);
    objects.create(events, 'default', event('once') as never);
    for (let i = 0; i < 50; i++) objects.create(events, 'default', event(`later-${i}`) as never);
    clock += 600;
    objects.patch(events, 'default', 'renewed', (cur) => ({ ...cur, count: 2 }));
    for (let i = 0; i < 50; i++) objects.patch(events, 'default', `later-${i}`, (cur) => ({ ...cur, count: 2 }));
    expect(expiry.pending).toBe(52 + 51);

    clock += 500; // 1,100 ms after the creates, 500 after the updates
    expiry.sweep();
    expect(objects.getStored(events, 'default', 'once')).toBeUndefined();
    expect(objects.getStored(events, 'default', 'renewed')).toBeDefined();
    // What came due (two creates' entries per renewed Event and the one that expired) is gone from
    // the wheel; what is not due is untouched.
    expect(expiry.pending).toBe(51);

    clock += 600;
    expiry.sweep();
    expect(objects.getStored(events, 'default', 'renewed')).toBeUndefined();
    expect(objects.getStored(events, 'default', 'later-0')).toBeUndefined();
    expect(expiry.pending).toBe(0);
  });

  it('after a restart, expires Events by their last write, not from the restart', async () => {
    const { objects, registry } = ts.server;
    const events = registry.lookup('', 'v1', 'events')!;
    objects.create(events, 'default', event('from-before') as never);
    const written = Date.parse(
      String(
        (objects.get(events, 'default', 'from-before').metadata as { creationTimestamp: string }).creationTimestamp,
      ),
    );
    let clock = written + 500;
    const expiry = new EventExpiry(objects, events, 2000, () => clock);
    expiry.loadAll();
    clock = written + 1500;
    expiry.sweep();
    expect(objects.getStored(events, 'default', 'from-before')).toBeDefined();
    clock = written + 3100;
    expiry.sweep();
    expect(objects.getStored(events, 'default', 'from-before')).toBeUndefined();
  });
});

describe('flowops apiserver --event-ttl', () => {
  it('passes the TTL to the server, and refuses one that is not a positive duration', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'flowops-event-ttl-'));
    const p = runFlowops(['apiserver', '--listen', '127.0.0.1:0', '--data', join(dir, 'data'), '--event-ttl', '1s']);
    try {
      const url = await serverUrlOf(p);
      expect((await call(url, 'POST', EVENTS, event('cli'))).status).toBe(201);
      await waitFor(async () => (await call(url, 'GET', `${EVENTS}/cli`)).status === 404, {
        timeoutMs: 30_000,
        what: 'the Event to expire',
      });
    } finally {
      p.child.kill('SIGKILL');
      await p.exited;
    }
    const bad = runFlowops(['apiserver', '--listen', '127.0.0.1:0', '--data', join(dir, 'bad'), '--event-ttl', '0s']);
    expect((await bad.exited).code).not.toBe(0);
    expect(bad.stderr()).toContain('--event-ttl must be a positive duration, got "0s"');
  }, 90_000);
});

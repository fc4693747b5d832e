// Continue tokens are client input (issue 20, item 3): a revision the store has not reached is a
// 504 Timeout as kube-apiserver 1.34 answers it, a malformed token a 400 with DecodeContinue's
// text, a compacted one a 410 offering a token at the latest revision. The same requests are
// fidelity scenarios against the real server (test/fidelity/scenarios/errors.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/apiserver.js';

let ts: TestServer;
const CMS = '/api/v1/namespaces/default/configmaps';

beforeAll(async () => {
  ts = await startTestServer();
  for (const n of ['a', 'b', 'c', 'd'])
    await call('POST', CMS, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: n } });
});
afterAll(async () => ts?.stop());

async function call(method: string, path: string, body?: object): Promise<{ status: number; body: any }> {
  const init = {
    method,
    headers: { 'content-type': 'application/json' },
    ...(body ? { body: JSON.stringify(body) } : {}),
  };
  const r = await fetch(`${ts.server.url}${path}`, init);
  return { status: r.status, body: await r.json() };
}

const encode = (v: unknown): string => Buffer.from(JSON.stringify(v)).toString('base64url');
const decode = (t: string): Record<string, unknown> =>
  JSON.parse(Buffer.from(t, 'base64url').toString()) as Record<string, unknown>;

describe('continue tokens', () => {
  it("are kube-apiserver's format, and pages chain as before", async () => {
    const first = await call('GET', `${CMS}?limit=2`);
    expect(decode(first.body.metadata.continue)).toMatchObject({
      v: 'meta.k8s.io/v1',
      rv: Number(first.body.metadata.resourceVersion),
      start: 'b\u0000',
    });
    const second = await call('GET', `${CMS}?limit=2&continue=${first.body.metadata.continue}`);
    expect(second.body.items.map((i: any) => i.metadata.name)).toEqual(['c', 'd']);
    expect(second.body.metadata.resourceVersion).toBe(first.body.metadata.resourceVersion);
  });

  it("a forged token (one's own with rv raised) is a 504 Timeout naming both revisions", async () => {
    const first = await call('GET', `${CMS}?limit=1`);
    const forged = encode({ ...decode(first.body.metadata.continue), rv: 99999999999 });
    const answer = await call('GET', `${CMS}?limit=1&continue=${forged}`);
    expect(answer).toEqual({
      status: 504,
      body: {
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message: `Timeout: Too large resource version: 99999999999, current: ${ts.server.store.currentRevision()}`,
        reason: 'Timeout',
        details: {
          causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }],
          retryAfterSeconds: 1,
        },
        code: 504,
      },
    });
  });

  it('a token one revision ahead is answered once a write reaches it', async () => {
    const ahead = ts.server.store.currentRevision() + 1;
    const pending = call(
      'GET',
      `${CMS}?limit=1&continue=${encode({ v: 'meta.k8s.io/v1', rv: ahead, start: 'a\u0000' })}`,
    );
    await call('POST', CMS, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'e' } });
    const answer = await pending;
    expect(answer.status).toBe(200);
    expect(answer.body.metadata.resourceVersion).toBe(String(ahead));
    expect(answer.body.items.map((i: any) => i.metadata.name)).toEqual(['b']);
  });

  it.each([
    ['abc=', 'illegal base64 data at input byte 3'],
    ['not-a-token', "invalid character '\\u009e' looking for beginning of value"],
    [
      encode({ v: 'meta.k8s.io/v2', rv: 5, start: 'a' }),
      'server does not recognize this encoded version meta.k8s.io/v2',
    ],
    [
      encode({ v: 'meta.k8s.io/v1', rv: 'x', start: 'a' }),
      'json: cannot unmarshal string into Go struct field continueToken.rv of type int64',
    ],
    [encode({ v: 'meta.k8s.io/v1', start: 'a' }), 'incorrect encoded start resourceVersion (version meta.k8s.io/v1)'],
    [encode({ v: 'meta.k8s.io/v1', rv: 5 }), 'encoded start key empty (version meta.k8s.io/v1)'],
    [encode({ v: 'meta.k8s.io/v1', rv: 5, start: '../secrets/x' }), '../secrets/x'],
  ])("malformed token %s is a 400 with DecodeContinue's text", async (token, why) => {
    const answer = await call('GET', `${CMS}?limit=1&continue=${token}`);
    expect(answer.status).toBe(400);
    expect(answer.body.message).toBe(`invalid continue token: continue key is not valid: ${why}`);
  });

  it('a compacted token is a 410 whose token continues at the latest revision', async () => {
    const first = await call('GET', `${CMS}?limit=2`);
    await call('POST', CMS, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'f' } });
    ts.server.store.compact(ts.server.store.currentRevision());
    const expired = await call('GET', `${CMS}?limit=2&continue=${first.body.metadata.continue}`);
    expect(expired.status).toBe(410);
    expect(expired.body.reason).toBe('Expired');
    expect(expired.body.message).toMatch(
      /^The provided continue parameter is too old to display a consistent list result/,
    );
    expect(decode(expired.body.metadata.continue)).toMatchObject({ v: 'meta.k8s.io/v1', rv: -1, start: 'b\u0000' });
    const resumed = await call('GET', `${CMS}?limit=10&continue=${expired.body.metadata.continue}`);
    expect(resumed.status).toBe(200);
    expect(resumed.body.items.map((i: any) => i.metadata.name)).toEqual(['c', 'd', 'e', 'f']);
    expect(resumed.body.metadata.resourceVersion).toBe(String(ts.server.store.currentRevision()));
  });
});

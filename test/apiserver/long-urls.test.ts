// Long URLs are read as Go's net/http reads them (issue 20, item 4): up to kube-apiserver's 1 MiB of
// request line and headers, not Node's 16 KiB, so a long label selector gets the Status the real
// server gives rather than a bare 431. The 16 KB case is a fidelity scenario against the real server.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_HEADER_BYTES } from '../../src/apiserver/http/server.js';
import { startTestServer, type TestServer } from '../helpers/apiserver.js';
import { kubectlFor } from '../helpers/kubectl.js';

let ts: TestServer;
beforeAll(async () => {
  ts = await startTestServer();
});
afterAll(async () => ts?.stop());

const CMS = '/api/v1/namespaces/default/configmaps';
const tooLongKey = (key: string): string =>
  `unable to parse requirement: <nil>: Invalid value: "${key}": name part must be no more than 63 characters`;

describe('long URLs', () => {
  it.each([15 * 1024, 16 * 1024, 512 * 1024, 1000 * 1024])(
    'a %i-byte label selector is read and answered 400',
    async (n) => {
      const key = 'a'.repeat(n);
      const r = await fetch(`${ts.server.url}${CMS}?labelSelector=${key}`);
      expect(r.status).toBe(400);
      expect(await r.json()).toEqual({
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message: tooLongKey(key),
        reason: 'BadRequest',
        code: 400,
      });
    },
  );

  it('a valid selector in a long URL lists as any other', async () => {
    const values = Array.from({ length: 3000 }, (_, i) => `v${i}`).join(',');
    const r = await fetch(`${ts.server.url}${CMS}?labelSelector=app%20in%20(${values})`);
    expect(r.status).toBe(200);
    expect(((await r.json()) as { kind: string }).kind).toBe('ConfigMapList');
  });

  it('past what Go reads, the request is refused with 431 before it is read', async () => {
    const r = await fetch(`${ts.server.url}${CMS}?labelSelector=${'a'.repeat(MAX_HEADER_BYTES)}`);
    expect(r.status).toBe(431);
  });

  it("kubectl get -l with a 16 KB selector shows the server's message", async () => {
    const kubectl = kubectlFor(ts.kubeconfig, join(ts.dir, 'kubectl-cache'));
    const key = 'b'.repeat(16 * 1024);
    const r = await kubectl(['get', 'configmaps', '-l', key]);
    expect(r.code).toBe(1);
    const shown = `Error from server (BadRequest): Unable to find "/v1, Resource=configmaps" that match label selector "${key}"`;
    expect(r.stderr.startsWith(shown)).toBe(true);
    expect(r.stderr.trimEnd().endsWith(tooLongKey(key))).toBe(true);
  });
});

import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/apiserver.js';
import { kubectlFor, type Kubectl } from '../helpers/kubectl.js';

/**
 * Defaulting kube-apiserver does for Namespaces (the kubernetes.io/metadata.name label) and
 * Secrets (stringData folded into data, type Opaque), through kubectl's create, apply, patch,
 * server-side apply and replace.
 */
let ts: TestServer;
let kubectl: Kubectl;

beforeAll(async () => {
  ts = await startTestServer();
  kubectl = kubectlFor(ts.kubeconfig, mkdtempSync(join(tmpdir(), 'defaulting-')));
  await kubectl.ok(['create', 'namespace', 'sec']);
});
afterAll(async () => ts?.stop());

type Obj = {
  metadata: { name: string; labels?: Record<string, string> };
  data?: Record<string, string>;
  stringData?: unknown;
  type?: string;
};
const getJson = async (...args: string[]): Promise<Obj> =>
  JSON.parse(await kubectl.ok(['get', ...args, '-o', 'json'])) as Obj;
const b64 = (s: string) => Buffer.from(s).toString('base64');

describe('Namespace: the kubernetes.io/metadata.name label', () => {
  it('is set on create, including for a generated name, and on the namespaces the server makes', async () => {
    await kubectl.ok(['create', 'namespace', 'team-a']);
    expect((await getJson('namespace', 'team-a')).metadata.labels).toEqual({ 'kubernetes.io/metadata.name': 'team-a' });
    const created = JSON.parse(
      await kubectl.ok(
        ['create', '-f', '-', '-o', 'json'],
        JSON.stringify({
          apiVersion: 'v1',
          kind: 'Namespace',
          metadata: { generateName: 'gen-', labels: { team: 'b' } },
        }),
      ),
    ) as Obj;
    expect(created.metadata.name).toMatch(/^gen-[a-z0-9]{5}$/);
    expect(created.metadata.labels).toEqual({ team: 'b', 'kubernetes.io/metadata.name': created.metadata.name });
    expect((await getJson('namespace', 'default')).metadata.labels).toEqual({
      'kubernetes.io/metadata.name': 'default',
    });
  });

  it('is put back to the name on update, patch and apply', async () => {
    await kubectl.ok(['create', 'namespace', 'team-c']);
    await kubectl.ok(['label', 'namespace', 'team-c', 'kubernetes.io/metadata.name=other', '--overwrite']);
    expect((await getJson('namespace', 'team-c')).metadata.labels!['kubernetes.io/metadata.name']).toBe('team-c');
    await kubectl.ok(['label', 'namespace', 'team-c', 'kubernetes.io/metadata.name-']);
    expect((await getJson('namespace', 'team-c')).metadata.labels!['kubernetes.io/metadata.name']).toBe('team-c');
    // The defaulted label is owned by the manager of the write that defaulted it, as on a real
    // server (defaulting happens before the field manager looks): taking it needs --force-conflicts.
    const ns = JSON.stringify({
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: 'team-c', labels: { 'kubernetes.io/metadata.name': 'x', extra: 'y' } },
    });
    expect((await kubectl(['apply', '--server-side', '-f', '-'], ns)).stderr).toContain(
      'conflict with "kubectl-create"',
    );
    await kubectl.ok(['apply', '--server-side', '--force-conflicts', '-f', '-'], ns);
    expect((await getJson('namespace', 'team-c')).metadata.labels).toEqual({
      'kubernetes.io/metadata.name': 'team-c',
      extra: 'y',
    });
  });
});

describe('Secret: stringData folded into data', () => {
  const secret = (stringData: Record<string, string>, data: Record<string, string> = {}) =>
    JSON.stringify({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'creds', namespace: 'sec' },
      data,
      stringData,
    });

  it('on create (kubectl apply): base64 in data, stringData gone, type Opaque', async () => {
    await kubectl.ok(['apply', '-f', '-'], secret({ user: 'alice', token: 'p@ss wörd' }, { kept: b64('yes') }));
    const s = await getJson('secret', 'creds', '-n', 'sec');
    expect(s.data).toEqual({ kept: b64('yes'), user: b64('alice'), token: b64('p@ss wörd') });
    expect(s.stringData).toBeUndefined();
    expect(s.type).toBe('Opaque');
  });

  it('stringData wins over data for the same key, on update (apply again), merge patch and server-side apply', async () => {
    await kubectl.ok(['apply', '-f', '-'], secret({ user: 'bob' }, { user: b64('ignored'), kept: b64('yes') }));
    expect((await getJson('secret', 'creds', '-n', 'sec')).data).toMatchObject({ user: b64('bob'), kept: b64('yes') });

    await kubectl.ok([
      'patch',
      'secret',
      'creds',
      '-n',
      'sec',
      '--type',
      'merge',
      '-p',
      JSON.stringify({ stringData: { user: 'carol' } }),
    ]);
    const patched = await getJson('secret', 'creds', '-n', 'sec');
    expect(patched.data!.user).toBe(b64('carol'));
    expect(patched.stringData).toBeUndefined();

    await kubectl.ok(
      ['apply', '--server-side', '--force-conflicts', '-f', '-'],
      JSON.stringify({
        apiVersion: 'v1',
        kind: 'Secret',
        metadata: { name: 'ssa', namespace: 'sec' },
        stringData: { k: 'v' },
      }),
    );
    const applied = await getJson('secret', 'ssa', '-n', 'sec');
    expect(applied.data).toEqual({ k: b64('v') });
    expect(applied.stringData).toBeUndefined();
    expect(applied.type).toBe('Opaque');
  });

  it('refuses a stringData value that is not a string, naming the key', async () => {
    const r = await fetch(`${ts.server.url}/api/v1/namespaces/sec/secrets`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ metadata: { name: 'bad' }, stringData: { n: 5 } }),
    });
    expect(r.status).toBe(400);
    expect(((await r.json()) as { message: string }).message).toContain(
      'cannot unmarshal number into Go struct field Secret.stringData of type string',
    );
  });
});

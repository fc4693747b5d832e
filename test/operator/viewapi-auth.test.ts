import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { get } from 'node:https';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateKeys } from '../../src/viewapi/keys.js';
import { viewKubeconfig } from '../../src/viewapi/kubeconfig.js';
import { startViewApiServer, type ViewApiServer } from '../../src/viewapi/server.js';
import { issueToken, type ViewClaims } from '../../src/viewapi/tokens.js';
import { runFlowops } from '../helpers/cli.js';
import { kubectlFor } from '../helpers/kubectl.js';

const dir = mkdtempSync(join(tmpdir(), 'viewapi-'));
const GROUP = 'demo.view.dcontroller.io';
const RESOURCE = `podinfo.${GROUP}`;
let keyPem: string;
let certPem: string;
let otherKeyPem: string;
let view: ViewApiServer;
let n = 0;

function kubectlWith(token: string | undefined) {
  const file = join(dir, `kubeconfig-${++n}`);
  writeFileSync(file, viewKubeconfig({ server: view.url, user: 'u', ...(token ? { token } : {}), caPem: certPem }));
  return kubectlFor(file, mkdtempSync(join(tmpdir(), 'kubectl-cache-')));
}

const reader: ViewClaims = {
  username: 'alice',
  namespaces: ['team-a'],
  rules: [{ verbs: ['get', 'list', 'watch'], apiGroups: ['*.view.dcontroller.io'], resources: ['*'] }],
};

beforeAll(async () => {
  const keys = await generateKeys(join(dir, 'server'), ['127.0.0.1', 'localhost']);
  keyPem = readFileSync(keys.keyFile, 'utf8');
  certPem = readFileSync(keys.certFile, 'utf8');
  otherKeyPem = readFileSync((await generateKeys(join(dir, 'other'))).keyFile, 'utf8');
  view = await startViewApiServer({ dataDir: join(dir, 'data'), port: 0, tls: keys });
  const backend = await view.backend();
  await backend.ensureKind(GROUP, 'PodInfo');
  for (const ns of ['team-a', 'team-b']) {
    await backend.client.apply(
      {
        apiVersion: `${GROUP}/v1alpha1`,
        kind: 'PodInfo',
        metadata: { name: `info-${ns}`, namespace: ns },
        spec: { containers: 2 },
      },
      { fieldManager: 'test' },
    );
  }
});
afterAll(async () => view?.close());

describe('the view API server (HTTPS, JWT) with kubectl', () => {
  it('serves only view groups over HTTPS', async () => {
    expect(view.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    const k = kubectlWith(await issueToken(keyPem, { username: 'admin', namespaces: ['*'], rules: [] }));
    const resources = await k.ok(['api-resources', '--no-headers', '-o', 'name']);
    expect(resources.trim().split('\n')).toEqual([RESOURCE]);
    expect(await k.ok(['get', RESOURCE, '-A', '-o', 'name'])).toBe(
      `${RESOURCE}/info-team-a\n${RESOURCE}/info-team-b\n`,
    );
  });

  it('a good token reads inside its namespaces and rules', async () => {
    const k = kubectlWith(await issueToken(keyPem, reader));
    expect(await k.ok(['-n', 'team-a', 'get', RESOURCE, 'info-team-a', '-o', 'jsonpath={.spec.containers}'])).toBe('2');
    expect(await k.ok(['-n', 'team-a', 'get', RESOURCE, '-o', 'name'])).toBe(`${RESOURCE}/info-team-a\n`);
  });

  it('an out-of-scope request is 403: other namespace, cluster-wide list, verb outside the rules', async () => {
    const k = kubectlWith(await issueToken(keyPem, reader));
    const otherNs = await k(['-n', 'team-b', 'get', RESOURCE, 'info-team-b']);
    expect(otherNs.code).not.toBe(0);
    expect(otherNs.stderr).toContain('is forbidden: User "alice" cannot get resource "podinfo"');
    const all = await k(['get', RESOURCE, '-A']);
    expect(all.stderr).toContain('forbidden');
    const write = await k(['-n', 'team-a', 'delete', RESOURCE, 'info-team-a']);
    expect(write.stderr).toContain('cannot delete resource "podinfo"');
  });

  it('resourceNames restrict get but not list', async () => {
    const k = kubectlWith(
      await issueToken(keyPem, {
        username: 'bob',
        namespaces: ['team-a'],
        rules: [{ verbs: ['get', 'list'], apiGroups: [GROUP], resources: ['podinfo'], resourceNames: ['nope'] }],
      }),
    );
    expect((await k(['-n', 'team-a', 'get', RESOURCE, 'info-team-a'])).stderr).toContain('forbidden');
    expect(await k.ok(['-n', 'team-a', 'get', RESOURCE, '-o', 'name'])).toBe(`${RESOURCE}/info-team-a\n`);
  });

  it('expired, wrongly signed and missing tokens are 401', async () => {
    const expired = await issueToken(keyPem, reader, { now: Date.now() - 7200_000, expiresIn: 3600 });
    const forged = await issueToken(otherKeyPem, reader);
    for (const token of [expired, forged]) {
      const r = await kubectlWith(token)(['-n', 'team-a', 'get', RESOURCE]);
      expect(r.code).not.toBe(0);
      expect(r.stderr).toContain('You must be logged in to the server');
    }
    // Without any credentials kubectl answers a 401 with an interactive login prompt, so ask directly.
    const status = await new Promise<number | undefined>((resolve, reject) =>
      get(`${view.url}/apis/${GROUP}/v1alpha1/namespaces/team-a/podinfo`, { ca: certPem }, (res) => {
        res.resume();
        resolve(res.statusCode);
      }).on('error', reject),
    );
    expect(status).toBe(401);
  });

  it('`flowops auth kubeconfig` writes a working kubeconfig', async () => {
    const out = join(dir, 'cli-kubeconfig');
    const p = runFlowops([
      'auth',
      'kubeconfig',
      '--user',
      'carol',
      '--namespaces',
      'team-b',
      '--rules',
      JSON.stringify([{ verbs: ['get', 'list'], apiGroups: ['*'], resources: ['*'] }]),
      '--server-address',
      view.url,
      '--tls-key-file',
      join(dir, 'server/apiserver.key'),
      '--tls-cert-file',
      join(dir, 'server/apiserver.crt'),
      '--output',
      out,
    ]);
    expect((await p.exited).code).toBe(0);
    const k = kubectlFor(out, mkdtempSync(join(tmpdir(), 'kubectl-cache-')));
    expect(await k.ok(['-n', 'team-b', 'get', RESOURCE, '-o', 'name'])).toBe(`${RESOURCE}/info-team-b\n`);
    expect((await k(['-n', 'team-a', 'get', RESOURCE])).stderr).toContain('forbidden');
  });
});

describe('the view API server in development mode', () => {
  it('is plain HTTP without authentication only when asked for', async () => {
    await expect(startViewApiServer({ dataDir: join(dir, 'refused'), port: 0 })).rejects.toThrow(
      /TLS key and certificate/,
    );
    const dev = await startViewApiServer({ dataDir: join(dir, 'dev'), port: 0, development: true });
    try {
      const backend = await dev.backend();
      await backend.ensureKind(GROUP, 'PodInfo');
      await backend.client.apply(
        { apiVersion: `${GROUP}/v1alpha1`, kind: 'PodInfo', metadata: { name: 'x', namespace: 'dev' } },
        { fieldManager: 'test' },
      );
      const file = join(dir, 'dev-kubeconfig');
      writeFileSync(file, viewKubeconfig({ server: dev.url, user: 'dev', insecure: true }));
      const k = kubectlFor(file, mkdtempSync(join(tmpdir(), 'kubectl-cache-')));
      expect(await k.ok(['-n', 'dev', 'get', RESOURCE, '-o', 'name'])).toBe(`${RESOURCE}/x\n`);
      expect((await k(['get', 'namespaces'])).code).not.toBe(0);
    } finally {
      await dev.close();
    }
  });
});

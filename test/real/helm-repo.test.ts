// Charts from repositories, end to end: charts packaged by the real helm, pushed by `helm push` to
// the real distribution registry (with htpasswd auth) and served as an HTTP chart repository
// (helm repo index + a static server with basic auth); Flows whose template step names them run
// on the embedded API server with the controllers and worker as `flowops up` runs them. A
// registry that answers 401, a manifest that no longer hashes to its digest and a truncated
// layer each fail the step with its own outcome code, and no password reaches a log or a run.

import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readKeys } from 'openpgp';
import { ChartPuller } from '../../src/charts/index.js';
import type { KubeObject } from '../../src/kube/types.js';
import { gpgSigner, helmCli, packageChart, serveStatic, sha256File, type StaticServer } from '../charts/chart-repo.js';
import { startFlowOps, type FlowOpsEnv } from '../helpers/flowops.js';
import { HELM } from '../helpers/kubectl.js';
import { waitFor } from '../helpers/wait.js';
import { registrySkipReason, startRegistry, startTamperProxy, type Registry } from './oci-registry.js';

const PASSWORD = 'flowops-test-password';
// htpasswd -B for alice:flowops-test-password (bcrypt, cost 10), as in oci-source.test.ts.
const HTPASSWD = 'alice:$2a$10$aYgnTDMKIuJOli/jgISDKu99QFFBRItGWIkIYBYhrDY10dNnz9mJ2';
const HTTP_AUTH = { username: 'chartuser', password: 'http-chart-pw-5521' };
const NS = 'charts';

const describeRegistry = (name: string, body: () => void): void => {
  if (!registrySkipReason) {
    describe(name, body);
    return;
  }
  console.warn(`skipped "${name}": ${registrySkipReason}`);
  describe.skip(name, body);
};

describeRegistry('Helm charts from an OCI registry and an HTTP repository, rendered by a Flow', () => {
  let work: string;
  let registry: Registry | undefined;
  let secured: Registry | undefined;
  let proxy: Awaited<ReturnType<typeof startTamperProxy>> | undefined;
  let site: StaticServer | undefined;
  let env: FlowOpsEnv | undefined;
  const tgz: Record<string, string> = {};
  let signerFingerprint = '';
  const savedCache = process.env.FLOWOPS_CHART_CACHE;

  const helmPush = (file: string, host: string) =>
    helmCli(work, ['push', file, `oci://${host}/charts`, '--plain-http']);
  /** The manifest helm push wrote, read back from the registry as a user would (curl). */
  const manifestOf = async (host: string, version: string) => {
    const res = await fetch(`http://${host}/v2/charts/hello/manifests/${version}`, {
      headers: { accept: 'application/vnd.oci.image.manifest.v1+json' },
    });
    return (await res.json()) as {
      config: { mediaType: string };
      layers: Array<{ mediaType: string; digest: string }>;
    };
  };

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'flowops-helm-repo-'));
    process.env.FLOWOPS_CHART_CACHE = join(work, 'chart-cache');
    for (const v of ['1.0.0', '1.1.0', '2.0.0'])
      tgz[v] = await packageChart(work, join(work, 'site', 'charts'), 'hello', v);
    await helmCli(work, ['repo', 'index', join(work, 'site', 'charts')]);
    site = await serveStatic(join(work, 'site'), { auth: HTTP_AUTH });
    registry = await startRegistry(join(work, 'registry'));
    secured = await startRegistry(join(work, 'secured'), HTPASSWD);
    proxy = await startTamperProxy(registry.host);
    for (const v of ['1.0.0', '1.1.0', '2.0.0']) await helmPush(tgz[v] ?? '', registry.host);
    execFileSync(HELM, ['registry', 'login', secured.host, '--username', 'alice', '--password-stdin', '--plain-http'], {
      input: PASSWORD,
      stdio: ['pipe', 'ignore', 'pipe'],
      env: { ...process.env, HOME: work, HELM_CONFIG_HOME: join(work, 'config'), HELM_CACHE_HOME: join(work, 'cache') },
    });
    await helmPush(tgz['1.1.0'] ?? '', secured.host);
    // 3.0.0 signed by `helm package --sign` with a gpg key; `helm push` uploads its .prov as a layer.
    const signer = await gpgSigner(join(work, 'gpg'), 'Chart Signer <charts@example.com>');
    signerFingerprint = (await readKeys({ armoredKeys: signer.armoredPublic }))[0]?.getFingerprint() ?? '';
    tgz['3.0.0'] = await packageChart(work, join(work, 'signed'), 'hello', '3.0.0', signer);
    await helmPush(tgz['3.0.0'] ?? '', registry.host);
    env = await startFlowOps();
    await env.kube.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } });
    const dockerConfig = { auths: { [secured.host]: { auth: Buffer.from(`alice:${PASSWORD}`).toString('base64') } } };
    await env.kube.create({
      apiVersion: 'v1',
      kind: 'Secret',
      type: 'kubernetes.io/dockerconfigjson',
      metadata: { name: 'registry-creds', namespace: NS },
      stringData: { '.dockerconfigjson': JSON.stringify(dockerConfig) },
    });
    await env.kube.create({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'http-creds', namespace: NS },
      stringData: HTTP_AUTH,
    });
    await env.kube.create({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'chart-keys', namespace: NS },
      stringData: { 'signer.asc': signer.armoredPublic },
    });
  });
  afterAll(async () => {
    await env?.stop();
    await proxy?.stop();
    await registry?.stop();
    await secured?.stop();
    await site?.stop();
    if (savedCache === undefined) delete process.env.FLOWOPS_CHART_CACHE;
    else process.env.FLOWOPS_CHART_CACHE = savedCache;
  });

  it('helm push wrote Helm media types; a range resolves to the highest tag, layer digest checked', async () => {
    const manifest = await manifestOf(registry?.host ?? '', '1.1.0');
    expect(manifest.config.mediaType).toBe('application/vnd.cncf.helm.config.v1+json');
    expect(manifest.layers.map((l) => l.mediaType)).toEqual(['application/vnd.cncf.helm.chart.content.v1.tar+gzip']);
    expect(manifest.layers[0]?.digest).toBe(sha256File(tgz['1.1.0'] ?? ''));
    const puller = new ChartPuller({ cacheDir: join(work, 'unit-cache'), resolveTtlMs: 1 });
    const repository = `oci://${registry?.host}/charts`;
    const pulled = await puller.pull({ repository, name: 'hello', version: '^1', insecure: true });
    expect(pulled).toMatchObject({ version: '1.1.0', digest: sha256File(tgz['1.1.0'] ?? ''), cached: false });
    expect(readFileSync(pulled.path)).toEqual(readFileSync(tgz['1.1.0'] ?? ''));
    expect(await puller.pull({ repository, name: 'hello', version: '^1', insecure: true })).toMatchObject({
      cached: true,
      version: '1.1.0',
    });
    expect(await puller.pull({ repository, name: 'hello', version: '2.0.0', insecure: true })).toMatchObject({
      version: '2.0.0',
    });
  });

  it('a 401, a rewritten manifest and a truncated layer are each refused with their own code', async () => {
    const puller = new ChartPuller({ cacheDir: join(work, 'bad-cache'), resolveTtlMs: 1 });
    const secure = `oci://${secured?.host}/charts`;
    await expect(
      puller.pull({ repository: secure, name: 'hello', version: '1.1.0', insecure: true }),
    ).rejects.toMatchObject({ code: 'ChartAuthRequired' });
    const wrong = puller.pull({
      repository: secure,
      name: 'hello',
      version: '1.1.0',
      insecure: true,
      credentials: { username: 'alice', password: 'wrong-pw-3317' },
    });
    await expect(wrong).rejects.toMatchObject({
      code: 'ChartAuthFailed',
      message: expect.not.stringContaining('wrong-pw-3317'),
    });
    const viaProxy = `oci://${proxy?.host}/charts`;
    if (!proxy) throw new Error('no proxy');
    proxy.mode = 'rewrite-manifests';
    await expect(
      puller.pull({ repository: viaProxy, name: 'hello', version: '1.0.0', insecure: true }),
    ).rejects.toMatchObject({ code: 'ChartDigestMismatch' });
    proxy.mode = 'truncate-blobs';
    await expect(
      puller.pull({ repository: viaProxy, name: 'hello', version: '1.0.0', insecure: true }),
    ).rejects.toMatchObject({
      code: 'ChartInvalid',
      message: expect.stringContaining('truncated'),
    });
    proxy.mode = 'pass';
    expect(await puller.pull({ repository: viaProxy, name: 'hello', version: '1.0.0', insecure: true })).toMatchObject({
      cached: false,
    });
  });

  const flow = (name: string, chart: Record<string, unknown>) => ({
    apiVersion: 'flowops.io/v1',
    kind: 'Flow',
    metadata: { name, namespace: NS },
    spec: {
      watch: { apiVersion: 'v1', kind: 'ConfigMap', namespace: NS, labelSelector: { matchLabels: { app: name } } },
      reconcile: {
        steps: [
          {
            name: 'render',
            type: 'template',
            engine: 'helm',
            chart,
            values: { greeting: '{{ .Resource.data.greeting }}' },
          },
        ],
      },
    },
  });
  const watched = (name: string, data: Record<string, string>) =>
    env?.kube.create({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: `${name}-app`, namespace: NS, labels: { app: name } },
      data,
    });
  const rendered = (name: string) =>
    waitFor(() => env?.kube.get({ apiVersion: 'v1', kind: 'ConfigMap', name: `${name}-app-chart`, namespace: NS }), {
      what: `ConfigMap ${name}-app-chart rendered from the remote chart`,
      timeoutMs: 60_000,
    });
  const lastRun = (name: string) =>
    waitFor(
      async () => {
        const h: KubeObject | undefined = await env?.kube.get({
          apiVersion: 'flowops.io/v1',
          kind: 'RunHistory',
          name: `configmap-${name}-app`,
          namespace: NS,
        });
        const runs = (h?.status as { runs?: Array<Record<string, unknown>> } | undefined)?.runs;
        return runs?.[0];
      },
      { what: `a run of ${name}-app`, timeoutMs: 60_000 },
    );

  it('a Flow renders a chart from the password-protected registry with a docker-config Secret', async () => {
    await env?.kube.create(
      flow('oci', {
        repository: `oci://${secured?.host}/charts`,
        name: 'hello',
        version: '~1.1',
        insecure: true,
        secretRef: { name: 'registry-creds' },
      }),
    );
    await watched('oci', { greeting: 'from-oci' });
    const cm = await rendered('oci');
    expect(cm.data).toEqual({ chartVersion: '1.1.0', greeting: 'from-oci' });
    expect(cm.metadata.labels?.['flowops.io/flow']).toBe('oci');
    expect(await lastRun('oci')).toMatchObject({ outcome: 'Succeeded' });
  });

  it('a Flow renders a chart from the basic-auth HTTP repository; without the Secret: ChartAuthRequired', async () => {
    const repository = `${site?.url}/charts`;
    await env?.kube.create(
      flow('web', { repository, name: 'hello', version: '>=1.0.0 <2.0.0', secretRef: { name: 'http-creds' } }),
    );
    await watched('web', { greeting: 'from-http' });
    expect((await rendered('web')).data).toEqual({ chartVersion: '1.1.0', greeting: 'from-http' });

    await env?.kube.create(flow('nocreds', { repository, name: 'hello', version: '1.0.0' }));
    await watched('nocreds', { greeting: 'x' });
    const run = await lastRun('nocreds');
    expect(run).toMatchObject({ outcome: 'Failed', error: { step: 'render', reason: 'ChartAuthRequired' } });
    expect(JSON.stringify(run)).not.toContain(HTTP_AUTH.password);
    const watchedObj = await env?.kube.get({ apiVersion: 'v1', kind: 'ConfigMap', name: 'nocreds-app', namespace: NS });
    expect(JSON.stringify(watchedObj?.status ?? {})).not.toContain(HTTP_AUTH.password);
  });

  it('helm push uploads the .prov as the provenance layer; a Flow with chart.verify renders it, not an unsigned one', async () => {
    const manifest = await manifestOf(registry?.host ?? '', '3.0.0');
    expect(manifest.layers.map((l) => l.mediaType).sort()).toEqual([
      'application/vnd.cncf.helm.chart.content.v1.tar+gzip',
      'application/vnd.cncf.helm.chart.provenance.v1.prov',
    ]);
    const repository = `oci://${registry?.host}/charts`;
    const verify = { secretRef: { name: 'chart-keys' } };
    await env?.kube.create(flow('signed', { repository, name: 'hello', version: '>=2', insecure: true, verify }));
    await watched('signed', { greeting: 'from-signed' });
    expect((await rendered('signed')).data).toEqual({ chartVersion: '3.0.0', greeting: 'from-signed' });
    const ok = await lastRun('signed');
    expect(ok).toMatchObject({ outcome: 'Succeeded' });

    await env?.kube.create(flow('unsigned', { repository, name: 'hello', version: '1.0.0', insecure: true, verify }));
    await watched('unsigned', { greeting: 'x' });
    const refused = await lastRun('unsigned');
    expect(refused).toMatchObject({ outcome: 'Failed', error: { step: 'render', reason: 'ChartProvenanceMissing' } });
    expect(
      await env?.kube.get({ apiVersion: 'v1', kind: 'ConfigMap', name: 'unsigned-app-chart', namespace: NS }),
    ).toBeUndefined();
    // The puller names the signer by the key's fingerprint.
    const puller = new ChartPuller({ cacheDir: join(work, 'signed-cache') });
    const keys = await readKeys({ armoredKeys: gpgArmored(join(work, 'gpg')) });
    const pulled = await puller.pull({ repository, name: 'hello', version: '3.0.0', insecure: true, verify: { keys } });
    expect(pulled.signer).toContain(signerFingerprint.toUpperCase());
  });
});

const gpgArmored = (home: string): string =>
  execFileSync('gpg', ['--homedir', home, '--batch', '--armor', '--export'], { encoding: 'utf8' });

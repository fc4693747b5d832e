// Charts from an HTTP chart repository: index.yaml resolution (exact versions, ranges, the highest
// match), the .tgz checked against index.yaml's digest and cached on disk by it, basic auth and a
// CA bundle, and the template step rendering the pulled chart with the real helm onto the
// embedded API server. The repository is made by the real `helm package` + `helm repo index`.

import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { templateStepSchema } from '../../src/api/flow.js';
import { validateFlowFile } from '../../src/api/validate.js';
import { generateServingPki } from '../../src/admission-webhook/certs.js';
import {
  ChartError,
  ChartPuller,
  highestMatch,
  isVersionConstraint,
  parseIndex,
  resolveEntry,
} from '../../src/charts/index.js';
import { templateExecutor } from '../../src/executors/template.js';
import { typecheckFiles } from '../../src/typecheck/index.js';
import { KubeClient } from '../../src/kube/client.js';
import type { KubeObject } from '../../src/kube/types.js';
import { startTestServer, type TestServer } from '../helpers/apiserver.js';
import { capturingLogger, failure, makeContext } from '../executors/context.js';
import {
  flowReadingChartOutput,
  helmCli,
  packageChart,
  serveStatic,
  sha256File,
  type StaticServer,
} from './chart-repo.js';

const AUTH = { username: 'chartuser', password: 'chart-secret-pw-7731' };

describe('version constraints and index.yaml resolution', () => {
  const index = parseIndex(
    [
      'apiVersion: v1',
      'entries:',
      '  web:',
      ...['1.0.0', '1.4.2', '1.5.0-rc.1', '2.0.0'].flatMap((v) => [
        `  - name: web`,
        `    version: ${v}`,
        `    urls: [web-${v}.tgz]`,
        `    digest: ${v.replace(/\D/g, '').padEnd(64, 'a')}`,
      ]),
      '  - name: web',
      '    version: 3.0.0',
      '',
    ].join('\n'),
    'https://charts.example.com',
  );

  it('picks the highest match of a range, an exact version, and leaves pre-releases to ranges that name one', () => {
    expect(resolveEntry(index, 'web', '^1.0', 'r').version).toBe('1.4.2');
    expect(resolveEntry(index, 'web', '>= 1.0, < 2', 'r').version).toBe('1.4.2');
    expect(resolveEntry(index, 'web', '1.0.0', 'r')).toMatchObject({
      version: '1.0.0',
      digest: `sha256:${'100'.padEnd(64, 'a')}`,
    });
    expect(resolveEntry(index, 'web', '*', 'r').version).toBe('2.0.0');
    expect(highestMatch(['1.4.2', '1.5.0-rc.1'], '>=1.5.0-0')).toBe('1.5.0-rc.1');
    // The entry without urls/digest (3.0.0) is skipped, not fatal to the others.
    expect(index.get('web')?.map((e) => e.version)).not.toContain('3.0.0');
  });

  it('refuses what node-semver alone would silently widen', () => {
    for (const bad of ['>=1.0 <<2', 'latest', '1.2.3.4', '', 'abc']) expect(isVersionConstraint(bad), bad).toBe(false);
    for (const good of [
      '1.2.3',
      'v1.2.3',
      '^1.4',
      '~1.2',
      '1.x',
      '>=1.0.0 <2.0.0',
      '>= 1.0, < 2',
      '1.0 - 1.4',
      '^1 || ^2',
    ]) {
      expect(isVersionConstraint(good), good).toBe(true);
    }
  });

  it('a missing chart and a range with no match are told apart', () => {
    expect(() => resolveEntry(index, 'api', '1.0.0', 'r')).toThrow(expect.objectContaining({ code: 'ChartNotFound' }));
    expect(() => resolveEntry(index, 'web', '^9', 'r')).toThrow(
      expect.objectContaining({ code: 'ChartVersionNotFound', message: expect.stringContaining('1.4.2') }),
    );
  });

  it('a Flow with a bad chart reference is refused at file:line naming the field', () => {
    const flow = (chart: string) =>
      'apiVersion: flowops.io/v1\nkind: Flow\nmetadata: {name: f}\nspec:\n' +
      '  watch: {apiVersion: v1, kind: ConfigMap}\n  reconcile:\n    steps:\n' +
      `      - name: render\n        type: template\n        engine: helm\n        chart:\n${chart}`;
    const errors = (chart: string) =>
      validateFlowFile(flow(chart), 'flow.yaml').errors.map((e) => `${e.line} ${e.field}: ${e.message}`);
    expect(
      errors('          repository: ftp://charts.example.com\n          name: web\n          version: 1.0.0\n'),
    ).toEqual(['12 spec.reconcile.steps[0].chart.repository: expected an https://, http:// or oci:// repository URL']);
    expect(errors('          repository: oci://r.example/charts\n          name: web\n')).toEqual([
      '11 spec.reconcile.steps[0].chart.version: required',
    ]);
    expect(errors('          repository: https://c.example\n          version: 1.0.0\n')).toEqual([
      '11 spec.reconcile.steps[0].chart.name: required',
    ]);
    const indent = '          ';
    const withPassword = `${indent}repository: https://u:pw-4471@c.example\n${indent}name: web\n${indent}version: ^1\n`;
    expect(errors(withPassword)).toEqual([
      '12 spec.reconcile.steps[0].chart.repository: must not hold credentials (user:password@); ' +
        'name a Secret in secretRef',
    ]);
    expect(
      errors('          repository: https://c.example\n          name: web\n          version: ">=1.0 <<2"\n'),
    ).toEqual([
      '14 spec.reconcile.steps[0].chart.version: expected an exact version or a semver range, ' +
        'such as "1.4.2", "^1.4" or ">=1.0.0 <2.0.0"',
    ]);
    expect(
      errors(
        '          repository: https://c.example\n          name: web\n          version: "{{ .Resource.data.v }}"\n',
      ),
    ).toEqual([]);
  });
});

describe('the type check of a later step reading the pulled chart', () => {
  it('knows .Steps.<name>.Outputs.chart.version and names a field it does not have', () => {
    const flow = (read: string) => flowReadingChartOutput(read);
    expect(typecheckFiles([{ path: 'f.yaml', text: flow('version') }])).toEqual([]);
    const found = typecheckFiles([{ path: 'f.yaml', text: flow('revision') }]).map((f) => f.message);
    expect(found).toHaveLength(1);
    expect(found[0]).toContain('revision');
  });
});

describe('an HTTP chart repository made by helm package + helm repo index', () => {
  let work: string;
  let server: StaticServer;
  let repo: string;
  const tgz: Record<string, string> = {};

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'flowops-charts-'));
    const out = join(work, 'site', 'charts');
    for (const v of ['0.1.0', '0.2.0', '1.0.0']) tgz[v] = await packageChart(work, out, 'hello', v);
    await helmCli(work, ['repo', 'index', out]);
    server = await serveStatic(join(work, 'site'), { auth: AUTH });
    repo = `${server.url}/charts`;
  });
  afterAll(async () => server?.stop());

  const puller = (ttl?: number) =>
    new ChartPuller({
      cacheDir: mkdtempSync(join(work, 'cache-')),
      ...(ttl === undefined ? {} : { resolveTtlMs: ttl }),
    });

  it('resolves a range to the highest version, checks the digest helm repo index wrote, and caches by it', async () => {
    const p = puller(1);
    server.requests.length = 0;
    const first = await p.pull({ repository: repo, name: 'hello', version: '<1.0.0', credentials: AUTH });
    expect(first).toMatchObject({
      version: '0.2.0',
      digest: sha256File(tgz['0.2.0'] ?? ''),
      cached: false,
      repository: repo,
    });
    expect(readFileSync(first.path)).toEqual(readFileSync(tgz['0.2.0'] ?? ''));
    expect(server.requests).toEqual(['/charts/index.yaml', '/charts/hello-0.2.0.tgz']);
    // The resolution expired (1 ms): index.yaml is read again, the archive is not.
    server.requests.length = 0;
    const again = await p.pull({ repository: repo, name: 'hello', version: '<1.0.0', credentials: AUTH });
    expect(again).toMatchObject({ version: '0.2.0', cached: true, path: first.path });
    expect(server.requests).toEqual(['/charts/index.yaml']);
  });

  it('within the resolution interval a reconcile asks the repository nothing', async () => {
    const p = puller();
    await p.pull({ repository: repo, name: 'hello', version: '1.0.0', credentials: AUTH });
    server.requests.length = 0;
    expect(await p.pull({ repository: repo, name: 'hello', version: '1.0.0', credentials: AUTH })).toMatchObject({
      cached: true,
      version: '1.0.0',
    });
    expect(server.requests).toEqual([]);
  });

  it('a .tgz that does not hash to index.yaml digest is refused and not cached', async () => {
    const p = puller(1);
    server.override.set('/charts/hello-0.1.0.tgz', readFileSync(tgz['1.0.0'] ?? ''));
    try {
      const err = await failure(() => p.pull({ repository: repo, name: 'hello', version: '0.1.0', credentials: AUTH }));
      expect(err).toBeInstanceOf(ChartError);
      expect(err).toMatchObject({ code: 'ChartDigestMismatch' });
      expect(err.message).toContain(sha256File(tgz['0.1.0'] ?? ''));
    } finally {
      server.override.delete('/charts/hello-0.1.0.tgz');
    }
    expect(await p.pull({ repository: repo, name: 'hello', version: '0.1.0', credentials: AUTH })).toMatchObject({
      cached: false,
    });
  });

  it('401 without and with wrong credentials, 404, no such version: each its own code, no password', async () => {
    const p = puller();
    await expect(p.pull({ repository: repo, name: 'hello', version: '1.0.0' })).rejects.toMatchObject({
      code: 'ChartAuthRequired',
    });
    const wrong = await failure(() =>
      p.pull({
        repository: repo,
        name: 'hello',
        version: '1.0.0',
        credentials: { username: 'chartuser', password: 'not-it-9911' },
      }),
    );
    expect(wrong).toMatchObject({ code: 'ChartAuthFailed' });
    expect(wrong.message).not.toContain('not-it-9911');
    await expect(
      p.pull({ repository: `${server.url}/nowhere`, name: 'hello', version: '1.0.0', credentials: AUTH }),
    ).rejects.toMatchObject({ code: 'ChartNotFound' });
    await expect(p.pull({ repository: repo, name: 'hello', version: '^7', credentials: AUTH })).rejects.toMatchObject({
      code: 'ChartVersionNotFound',
    });
  });

  it('an https repository is trusted through the CA bundle given, and refused without it', async () => {
    const pki = generateServingPki(['127.0.0.1'], 3_600_000);
    const tls = await serveStatic(join(work, 'site'), { auth: AUTH, tls: pki.serving });
    try {
      const p = puller();
      const https = `${tls.url}/charts`;
      await expect(
        p.pull({ repository: https, name: 'hello', version: '1.0.0', credentials: AUTH }),
      ).rejects.toMatchObject({ code: 'ChartFetchFailed' });
      expect(
        await p.pull({ repository: https, name: 'hello', version: '1.0.0', credentials: AUTH, ca: pki.ca.cert }),
      ).toMatchObject({ version: '1.0.0' });
    } finally {
      await tls.stop();
    }
  });

  it("a repository that never answers is given up at the step's signal, HTTP and OCI alike", async () => {
    const hanging = createServer(() => undefined);
    await new Promise<void>((r) => hanging.listen(0, '127.0.0.1', r));
    const address = hanging.address();
    const host = `127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    try {
      const p = puller();
      for (const repository of [`http://${host}/charts`, `oci://${host}/charts`]) {
        const err = await failure(() =>
          p.pull({ repository, name: 'hello', version: '1.0.0', insecure: true, signal: AbortSignal.timeout(300) }),
        );
        expect(err.name, repository).toBe('TimeoutError');
      }
    } finally {
      hanging.closeAllConnections();
      await new Promise((r) => hanging.close(r));
    }
  });

  describe('the template step', () => {
    let ts: TestServer;
    let kube: KubeClient;
    let owner: KubeObject;

    beforeAll(async () => {
      ts = await startTestServer();
      kube = KubeClient.fromKubeconfig(ts.kubeconfig);
      await kube.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'charts' } });
      await kube.create({
        apiVersion: 'v1',
        kind: 'Secret',
        metadata: { name: 'repo-creds', namespace: 'charts' },
        stringData: AUTH,
      });
      owner = await kube.create({
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'shop', namespace: 'charts' },
        data: { chartVersion: '~0.1' },
      });
    });
    afterAll(async () => ts?.stop());

    const run = (chart: Record<string, unknown>, log = capturingLogger()) => {
      const step = templateStepSchema.parse({
        name: 'render',
        type: 'template',
        engine: 'helm',
        chart,
        values: { greeting: 'from-flow' },
      });
      const ctx = makeContext({ kube, resource: owner, log: log.log });
      ctx.charts = puller();
      return { result: templateExecutor.run(step, ctx), log };
    };

    it('renders the pulled chart as a local one and says which version and digest it rendered', async () => {
      const { result, log } = run({
        repository: repo,
        name: 'hello',
        version: '{{ .Resource.data.chartVersion }}',
        secretRef: { name: 'repo-creds' },
      });
      const { outputs } = await result;
      expect(outputs).toMatchObject({
        applied: ['ConfigMap/charts/shop-chart'],
        chart: { repository: repo, name: 'hello', version: '0.1.0', digest: sha256File(tgz['0.1.0'] ?? '') },
      });
      const cm = await kube.get({ apiVersion: 'v1', kind: 'ConfigMap', name: 'shop-chart', namespace: 'charts' });
      expect(cm?.data).toEqual({ chartVersion: '0.1.0', greeting: 'from-flow' });
      expect(log.text()).toContain('chart pulled');
      expect(log.text()).not.toContain(AUTH.password);
    });

    it('a 401 fails the step with ChartAuthRequired; a rendered non-version is refused first', async () => {
      const { result, log } = run({ repository: repo, name: 'hello', version: '1.0.0' });
      const err = await failure(() => result);
      expect(err).toMatchObject({ reason: 'ChartAuthRequired', permanent: false });
      expect(err.message).toMatch(/^render\.chart: .*asks for credentials \(401\)/);
      expect(log.text()).not.toContain(AUTH.password);
      const bad = await failure(
        () => run({ repository: repo, name: 'hello', version: '{{ .Resource.metadata.name }}' }).result,
      );
      expect(bad).toMatchObject({ reason: 'ChartRefInvalid', permanent: true });
      expect(bad.message).toContain('render.chart.version: rendered "shop"');
    });
  });
});

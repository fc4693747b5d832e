// Chart provenance (chart.verify): charts signed by the real `helm package --sign` with a key made
// by the real gpg, served as an HTTP chart repository with their .prov files; the puller verifies
// the signature with OpenPGP.js and that the signed digest is the archive's, as `helm pull
// --verify` does, and each way it can fail has its own code. The template step reads the keyring
// from a Secret and reports the signer.

import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readKeys, type Key } from 'openpgp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { templateStepSchema } from '../../src/api/flow.js';
import { ChartPuller } from '../../src/charts/index.js';
import { templateExecutor } from '../../src/executors/template.js';
import { KubeClient } from '../../src/kube/client.js';
import type { KubeObject } from '../../src/kube/types.js';
import { typecheckFiles } from '../../src/typecheck/index.js';
import { capturingLogger, failure, makeContext } from '../executors/context.js';
import { startTestServer, type TestServer } from '../helpers/apiserver.js';
import {
  flowReadingChartOutput,
  gpgSigner,
  helmCli,
  packageChart,
  serveStatic,
  sha256File,
  type StaticServer,
} from './chart-repo.js';

describe('charts verified by their provenance files (helm package --sign, gpg)', () => {
  let work: string;
  let server: StaticServer;
  let repo: string;
  let trusted: Key[];
  let strangerKeys: Key[];
  let signerArmored: string;
  let fingerprint: string;
  const tgz: Record<string, string> = {};

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'flowops-prov-'));
    const out = join(work, 'site', 'charts');
    const signer = await gpgSigner(join(work, 'gpg-trusted'), 'Chart Signer <charts@example.com>');
    const stranger = await gpgSigner(join(work, 'gpg-stranger'), 'Someone Else <else@example.com>');
    signerArmored = signer.armoredPublic;
    strangerKeys = await readKeys({ armoredKeys: stranger.armoredPublic });
    trusted = await readKeys({ armoredKeys: signer.armoredPublic });
    fingerprint = trusted[0]?.getFingerprint().toUpperCase() ?? '';
    tgz['1.0.0'] = await packageChart(work, out, 'hello', '1.0.0', signer);
    tgz['1.1.0'] = await packageChart(work, out, 'hello', '1.1.0');
    tgz['1.2.0'] = await packageChart(work, out, 'hello', '1.2.0', stranger);
    tgz['1.3.0'] = await packageChart(work, out, 'hello', '1.3.0', signer);
    tgz['1.4.0'] = await packageChart(work, out, 'hello', '1.4.0', signer);
    tgz['1.5.0'] = await packageChart(work, out, 'hello', '1.5.0', signer);
    // 1.3.0: the signed text altered after signing (its digest line rewritten to another chart's).
    const prov13 = readFileSync(`${tgz['1.3.0']}.prov`, 'utf8');
    writeFileSync(`${tgz['1.3.0']}.prov`, prov13.replace(/sha256:[0-9a-f]{64}/, sha256File(tgz['1.0.0'] ?? '')));
    // 1.4.0: a genuine provenance, but 1.0.0's (it vouches for hello-1.0.0.tgz, not this archive).
    copyFileSync(`${tgz['1.0.0']}.prov`, `${tgz['1.4.0']}.prov`);
    // 1.5.0: the archive replaced after signing (the repository re-indexed, so index.yaml agrees).
    const signedDigest = sha256File(tgz['1.5.0'] ?? '');
    writeFileSync(join(work, 'hello-1.5.0', 'values.yaml'), 'greeting: swapped\n');
    await helmCli(work, ['package', join(work, 'hello-1.5.0'), '-d', out]);
    expect(sha256File(tgz['1.5.0'] ?? '')).not.toBe(signedDigest);
    await helmCli(work, ['repo', 'index', out]);
    server = await serveStatic(join(work, 'site'));
    repo = `${server.url}/charts`;
  });
  afterAll(async () => server?.stop());

  const puller = () => new ChartPuller({ cacheDir: mkdtempSync(join(work, 'cache-')) });
  const pull = (p: ChartPuller, version: string, keys = trusted) =>
    p.pull({ repository: repo, name: 'hello', version, verify: { keys } });

  it('a chart signed by a trusted key is pulled, the signer named, the .prov read before the archive', async () => {
    const p = puller();
    server.requests.length = 0;
    const pulled = await pull(p, '1.0.0');
    expect(pulled).toMatchObject({ version: '1.0.0', digest: sha256File(tgz['1.0.0'] ?? ''), cached: false });
    expect(pulled.signer).toBe(`OpenPGP key ${fingerprint} (Chart Signer <charts@example.com>)`);
    expect(server.requests).toEqual(['/charts/index.yaml', '/charts/hello-1.0.0.tgz.prov', '/charts/hello-1.0.0.tgz']);
    // Within the resolution interval the verified memo answers; without verify no .prov is read.
    server.requests.length = 0;
    expect(await pull(p, '1.0.0')).toMatchObject({ cached: true, signer: pulled.signer });
    expect(server.requests).toEqual([]);
    const plain = await puller().pull({ repository: repo, name: 'hello', version: '1.1.0' });
    expect(plain.signer).toBeUndefined();
  });

  it('a verified memo is not reused for another keyring', async () => {
    const p = puller();
    await pull(p, '1.0.0');
    await expect(pull(p, '1.0.0', strangerKeys)).rejects.toMatchObject({ code: 'ChartSignerUntrusted' });
  });

  it('no .prov, an untrusted signer, an altered .prov, another chart’s .prov, a swapped archive: each refused', async () => {
    const cases: Array<[string, string, RegExp]> = [
      ['1.1.0', 'ChartProvenanceMissing', /hello 1\.1\.0: verification asked for, and no provenance file/],
      ['1.2.0', 'ChartSignerUntrusted', /provenance signed by OpenPGP key [0-9A-F]+: the key is not in the trusted/],
      ['1.3.0', 'ChartSignatureInvalid', /the signature does not match the signed text/],
      ['1.4.0', 'ChartProvenanceMismatch', /lists no file named hello-1\.4\.0\.tgz \(it lists hello-1\.0\.0\.tgz\)/],
      ['1.5.0', 'ChartProvenanceMismatch', /vouches for hello-1\.5\.0\.tgz sha256:[0-9a-f]{64}, not the archive's/],
    ];
    for (const [version, code, message] of cases) {
      const p = puller();
      server.requests.length = 0;
      const err = await failure(() => pull(p, version));
      expect(err, version).toMatchObject({ code });
      expect(err.message, version).toMatch(message);
      // Nothing was fetched past the provenance, nothing cached.
      expect(server.requests, version).not.toContain(`/charts/hello-${version}.tgz`);
      expect(await p.cache.get(sha256File(tgz[version] ?? ''))).toBeUndefined();
    }
    // The swapped archive's message names both digests.
    const swapped = await failure(() => pull(puller(), '1.5.0'));
    expect(swapped.message).toContain(sha256File(tgz['1.5.0'] ?? ''));
  });

  it('the type check knows chart.signer only where chart.verify is given', () => {
    const flow = (verify: string) => flowReadingChartOutput('signer', verify);
    expect(typecheckFiles([{ path: 'f.yaml', text: flow(', verify: {secretRef: {name: keys}}') }])).toEqual([]);
    expect(typecheckFiles([{ path: 'f.yaml', text: flow('') }]).map((f) => f.message)).toEqual([
      expect.stringContaining('signer'),
    ]);
  });

  describe('the template step', () => {
    let ts: TestServer;
    let kube: KubeClient;
    let owner: KubeObject;

    beforeAll(async () => {
      ts = await startTestServer();
      kube = KubeClient.fromKubeconfig(ts.kubeconfig);
      await kube.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'signed' } });
      await kube.create({
        apiVersion: 'v1',
        kind: 'Secret',
        metadata: { name: 'chart-keys', namespace: 'signed' },
        stringData: { 'signer.asc': signerArmored },
      });
      await kube.create({
        apiVersion: 'v1',
        kind: 'Secret',
        metadata: { name: 'not-keys', namespace: 'signed' },
        stringData: { 'signer.asc': 'not a key', README: 'x' },
      });
      owner = await kube.create({
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'shop', namespace: 'signed' },
        data: {},
      });
    });
    afterAll(async () => ts?.stop());

    const run = (version: string, secret: string, log = capturingLogger()) => {
      const step = templateStepSchema.parse({
        name: 'render',
        type: 'template',
        engine: 'helm',
        chart: { repository: repo, name: 'hello', version, verify: { secretRef: { name: secret } } },
      });
      const ctx = makeContext({ kube, resource: owner, log: log.log });
      ctx.charts = puller();
      return { result: templateExecutor.run(step, ctx), log };
    };

    it('renders a verified chart and reports its signer; an unsigned one fails the step, nothing applied', async () => {
      const { result, log } = run('1.0.0', 'chart-keys');
      const { outputs } = await result;
      expect(outputs).toMatchObject({
        applied: ['ConfigMap/signed/shop-chart'],
        chart: { version: '1.0.0', signer: expect.stringContaining(fingerprint) },
      });
      expect(log.text()).toContain(fingerprint);
      await kube.delete({ apiVersion: 'v1', kind: 'ConfigMap', name: 'shop-chart', namespace: 'signed' });
      const err = await failure(() => run('1.1.0', 'chart-keys').result);
      expect(err).toMatchObject({ reason: 'ChartProvenanceMissing', permanent: false });
      expect(err.message).toMatch(/^render\.chart: /);
      expect(
        await kube.get({ apiVersion: 'v1', kind: 'ConfigMap', name: 'shop-chart', namespace: 'signed' }),
      ).toBeUndefined();
    });

    it('a keyring Secret without a public key is ChartVerifyKeysInvalid naming the Secret key', async () => {
      const err = await failure(() => run('1.0.0', 'not-keys').result);
      expect(err).toMatchObject({ reason: 'ChartVerifyKeysInvalid' });
      expect(err.message).toContain('render.chart.verify.secretRef');
      expect(err.message).toContain('signer.asc is not an armored OpenPGP public key block');
    });
  });
});

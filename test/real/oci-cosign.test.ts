import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FLOWOPS_BIN, ROOT } from '../helpers/cli.js';
import { waitFor } from '../helpers/wait.js';
import { describeReal, realControlPlane, type RealControlPlane } from './control-plane.js';
import { startFlowOps, type FlowOpsCluster } from './flowops-processes.js';
import { getJson, type Json } from './kube-json.js';
import { registrySkipReason, startRegistry, type Registry } from './oci-registry.js';

// Keyed cosign verification of an OCI FlowSource (spec.oci.verify, as Flux's OCIRepository):
// artifacts pushed by `flowops push artifact` to the real distribution registry and signed by the
// real cosign (`cosign sign --key`, scripts/control-plane/build-cosign.sh); FlowOps checks the
// signature with node:crypto. A signed artifact is applied; an unsigned one and one signed by
// another key are refused with Ready=False naming the digest, and the last verified stays.

const run = promisify(execFile);
const COSIGN =
  process.env.FLOWOPS_COSIGN ??
  join(process.env.FLOWOPS_CACHE ?? join(homedir(), '.cache', 'flowops'), 'cosign-v2.6.5', 'bin', 'cosign');
const skipReason =
  registrySkipReason ||
  (existsSync(COSIGN) ? '' : `no cosign at ${COSIGN} (scripts/control-plane/build-cosign.sh builds it)`);
const controlPlane = realControlPlane();

const describeCosign = (name: string, body: () => void) => {
  if (!skipReason) return describeReal(name, body);
  console.warn(`skipped "${name}": ${skipReason}`);
  describe.skip(name, body);
};

const configMap = (v: string) =>
  `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: signed-app\n  namespace: default\ndata:\n  v: "${v}"\n`;

describeCosign('cosign-signed OCI artifacts as a FlowSource (real cosign, registry, kube-apiserver)', () => {
  let cp: RealControlPlane;
  let flowops: FlowOpsCluster | undefined;
  let registry: Registry | undefined;
  let work: string;
  const cosignEnv = () => ({ ...process.env, COSIGN_PASSWORD: '', HOME: work, DOCKER_CONFIG: join(work, 'docker') });

  const push = async (tag: string, v: string) => {
    const dir = join(work, `artifact-${tag}`);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'app.yaml'), configMap(v));
    const out = await run(
      process.execPath,
      [
        FLOWOPS_BIN,
        'push',
        'artifact',
        dir,
        `oci://${registry?.host}/team/signed:${tag}`,
        '--insecure',
        '--source',
        'https://git.example/team/flows.git',
        '--revision',
        `main@sha1:${'a'.repeat(40)}`,
      ],
      { cwd: ROOT, timeout: 60_000, env: cosignEnv() },
    );
    const digest = /@(sha256:[0-9a-f]{64})/.exec(out.stdout)?.[1];
    if (!digest) throw new Error(`no digest in: ${out.stdout} ${out.stderr}`);
    return digest;
  };
  const sign = (digest: string, key: string) =>
    run(
      COSIGN,
      [
        'sign',
        '--key',
        key,
        '--tlog-upload=false',
        '--allow-http-registry',
        '--allow-insecure-registry',
        '-y',
        `${registry?.host}/team/signed@${digest}`,
      ],
      { cwd: work, timeout: 120_000, env: cosignEnv() },
    );
  const logs = () => `${flowops?.logs() ?? ''}\n--- registry:\n${registry?.logs() ?? ''}`;
  const ready = async () =>
    ((await getJson(cp, ['get', 'flowsource', 'signed', '-n', 'default']))?.status?.conditions ?? []).find(
      (c: Json) => c.type === 'Ready',
    ) as Json | undefined;
  const cm = () => getJson(cp, ['get', 'configmap', 'signed-app', '-n', 'default']);

  beforeAll(async () => {
    cp = controlPlane();
    work = mkdtempSync(join(cp.dir, 'cosign-'));
    registry = await startRegistry(join(work, 'registry'));
    for (const who of ['trusted', 'other']) {
      mkdirSync(join(work, who));
      await run(COSIGN, ['generate-key-pair'], { cwd: join(work, who), env: cosignEnv(), timeout: 60_000 });
    }
    await cp.kubectl.ok(['apply', '-k', join(ROOT, 'config/crd')]);
    await cp.kubectl.ok(['wait', '--for=condition=Established', 'crd/flowsources.flowops.io', '--timeout=60s']);
    await cp.kubectl.ok(
      ['apply', '-f', '-'],
      JSON.stringify({
        apiVersion: 'v1',
        kind: 'Secret',
        metadata: { name: 'cosign-keys', namespace: 'default' },
        stringData: { 'cosign.pub': readFileSync(join(work, 'trusted', 'cosign.pub'), 'utf8') },
      }),
    );
    flowops = await startFlowOps({
      kubeconfig: cp.kubeconfig,
      dataDir: mkdtempSync(join(cp.dir, 'flowops-data-')),
      leaseNamespace: 'default',
      leaseName: 'flowops-cosign',
    });
  });
  afterAll(async () => {
    await flowops?.stop();
    await registry?.stop();
  });

  it('applies an artifact signed by the trusted key; refuses an unsigned and a wrongly signed one by digest', async () => {
    const signed = await push('v1.0.0', '1');
    await sign(signed, join(work, 'trusted', 'cosign.key'));
    await cp.kubectl.ok(
      ['apply', '-f', '-'],
      JSON.stringify({
        apiVersion: 'flowops.io/v1',
        kind: 'FlowSource',
        metadata: { name: 'signed', namespace: 'default' },
        spec: {
          interval: '1s',
          oci: {
            url: `oci://${registry?.host}/team/signed`,
            ref: { semver: '>=1.0.0' },
            insecure: true,
            verify: { provider: 'cosign', secretRef: { name: 'cosign-keys' } },
          },
        },
      }),
    );
    await waitFor(async () => (await cm())?.data?.v === '1', { what: `signed-app v=1\n${logs()}`, timeoutMs: 60_000 });
    await waitFor(async () => (await ready())?.status === 'True', { what: `Ready\n${logs()}` });

    const unsigned = await push('v1.1.0', '2');
    const refusedUnsigned = await waitFor(
      async () => {
        const r = await ready();
        return r?.status === 'False' && r.reason === 'ArtifactUnsigned' ? r : undefined;
      },
      { what: `Ready=False ArtifactUnsigned\n${logs()}`, timeoutMs: 60_000 },
    );
    expect(refusedUnsigned.message).toContain(unsigned);

    const wrong = await push('v1.2.0', '3');
    await sign(wrong, join(work, 'other', 'cosign.key'));
    const refusedWrong = await waitFor(
      async () => {
        const r = await ready();
        return r?.status === 'False' && r.reason === 'ArtifactSignatureInvalid' ? r : undefined;
      },
      { what: `Ready=False ArtifactSignatureInvalid\n${logs()}`, timeoutMs: 60_000 },
    );
    expect(refusedWrong.message).toContain(wrong);
    expect(refusedWrong.message).toContain('no trusted key');
    // The last verified artifact keeps running.
    expect((await cm())?.data?.v).toBe('1');

    // Signed by the trusted key after all: applied.
    await sign(wrong, join(work, 'trusted', 'cosign.key'));
    await waitFor(async () => (await cm())?.data?.v === '3', { what: `signed-app v=3\n${logs()}`, timeoutMs: 60_000 });

    // Keyless (no secretRef) cannot be checked offline: refused, saying so.
    await cp.kubectl.ok([
      'patch',
      'flowsource',
      'signed',
      '-n',
      'default',
      '--type=json',
      '-p',
      '[{"op":"remove","path":"/spec/oci/verify/secretRef"}]',
    ]);
    const keyless = await waitFor(
      async () => {
        const r = await ready();
        return r?.status === 'False' && r.reason === 'VerifyKeysInvalid' ? r : undefined;
      },
      { what: `Ready=False VerifyKeysInvalid\n${logs()}`, timeoutMs: 60_000 },
    );
    expect(keyless.message).toContain('keyless cosign verification');
  });
});

import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FLOWOPS_BIN, ROOT } from '../helpers/cli.js';
import { waitFor } from '../helpers/wait.js';
import { describeReal, realControlPlane, type RealControlPlane } from './control-plane.js';
import { startFlowOps, type FlowOpsCluster } from './flowops-processes.js';
import { getJson, type Json } from './kube-json.js';
import { registrySkipReason, startRegistry, startTamperProxy, type Registry } from './oci-registry.js';

// OCI artifacts as a source, against the real distribution registry and the real kube-apiserver:
// `flowops push artifact` packs a Git checkout's folder, a FlowSource with spec.oci follows a semver
// range, applies with provenance (digest and Git origin), follows a new tag, is rolled back by
// digest; a registry with htpasswd answers 401 without credentials and with wrong ones; a
// truncated layer and a manifest that does not hash to its digest are refused, the last good kept.

const run = promisify(execFile);
const PASSWORD = 'flowops-test-password';
// htpasswd -B for alice:flowops-test-password (bcrypt, cost 10), as the registry's htpasswd auth reads it.
const HTPASSWD = 'alice:$2a$10$aYgnTDMKIuJOli/jgISDKu99QFFBRItGWIkIYBYhrDY10dNnz9mJ2';
const controlPlane = realControlPlane();

const configMap = (name: string, v: string) =>
  `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\n  namespace: default\ndata:\n  v: "${v}"\n`;

const describeOci = (name: string, body: () => void) => {
  if (!registrySkipReason) return describeReal(name, body);
  console.warn(`skipped "${name}": ${registrySkipReason}`);
  describe.skip(name, body);
};

describeOci('OCI artifacts as a FlowSource on the real registry and kube-apiserver', () => {
  let cp: RealControlPlane;
  let flowops: FlowOpsCluster | undefined;
  let registry: Registry | undefined;
  let secured: Registry | undefined;
  let proxy: Awaited<ReturnType<typeof startTamperProxy>> | undefined;
  let work: string;
  let checkout: string;
  const digests: string[] = [];
  const commits: string[] = [];

  const git = (args: string[]) => run('git', ['-C', checkout, ...args]).then((r) => r.stdout.trim());
  const commitAndPush = async (
    host: string,
    tag: string,
    files: Record<string, string>,
    env: Record<string, string> = {},
  ) => {
    for (const [path, text] of Object.entries(files)) writeFileSync(join(checkout, path), text);
    await git(['add', '-A']);
    await git(['-c', 'user.name=T', '-c', 'user.email=t@example.com', 'commit', '-qm', `release ${tag}`]);
    commits.push(await git(['rev-parse', 'HEAD']));
    const out = await run(
      process.execPath,
      [FLOWOPS_BIN, 'push', 'artifact', checkout, `oci://${host}/team/flows:${tag}`, '--insecure'],
      { cwd: ROOT, timeout: 60_000, env: { ...process.env, DOCKER_CONFIG: join(work, 'docker'), ...env } },
    );
    const digest = /@(sha256:[0-9a-f]{64})/.exec(out.stdout)?.[1];
    if (!digest) throw new Error(`no digest in: ${out.stdout} ${out.stderr}`);
    return digest;
  };
  const logs = () => `${flowops?.logs() ?? ''}\n--- registry:\n${registry?.logs() ?? ''}`;
  const source = (name: string) => getJson(cp, ['get', 'flowsource', name, '-n', 'default']);
  const ready = async (name: string) =>
    (await source(name))?.status?.conditions?.find((c: Json) => c.type === 'Ready') as Json | undefined;
  const cm = (name: string) => getJson(cp, ['get', 'configmap', name, '-n', 'default']);
  const cmAt = (name: string, v: string) =>
    waitFor(
      async () => {
        const c = await cm(name);
        return c?.data?.v === v ? c : undefined;
      },
      { what: `ConfigMap ${name} with v=${v}\n${logs()}`, timeoutMs: 60_000 },
    );
  const applySource = (name: string, oci: Json) =>
    cp.kubectl.ok(
      ['apply', '-f', '-'],
      JSON.stringify({
        apiVersion: 'flowops.io/v1',
        kind: 'FlowSource',
        metadata: { name, namespace: 'default' },
        spec: { oci, interval: '1s' },
      }),
    );

  beforeAll(async () => {
    cp = controlPlane();
    work = mkdtempSync(join(cp.dir, 'oci-'));
    checkout = join(work, 'checkout');
    mkdirSync(checkout);
    await git(['init', '-q', '-b', 'main']);
    await git(['remote', 'add', 'origin', 'https://git.example/team/flows.git']);
    registry = await startRegistry(join(work, 'registry'));
    secured = await startRegistry(join(work, 'secured'), HTPASSWD);
    proxy = await startTamperProxy(registry.host);
    await cp.kubectl.ok(['apply', '-k', join(ROOT, 'config/crd')]);
    await cp.kubectl.ok(['wait', '--for=condition=Established', 'crd/flowsources.flowops.io', '--timeout=60s']);
    flowops = await startFlowOps({
      kubeconfig: cp.kubeconfig,
      dataDir: mkdtempSync(join(cp.dir, 'flowops-data-')),
      leaseNamespace: 'default',
      leaseName: 'flowops-oci',
    });
  });
  afterAll(async () => {
    await flowops?.stop();
    await proxy?.stop();
    await registry?.stop();
    await secured?.stop();
  });

  it('a pushed artifact is followed by semver and applied with its digest and Git origin as provenance', async () => {
    digests.push(
      await commitAndPush(registry!.host, 'v1.0.0', {
        'app.yaml': configMap('oci-app', '1'),
        'README.md': '# not applied\n',
      }),
    );
    await applySource('oci', {
      url: `oci://${registry!.host}/team/flows`,
      ref: { semver: '>=1.0.0 <2.0.0' },
      insecure: true,
    });
    const c = await cmAt('oci-app', '1');
    expect(c.metadata.annotations).toMatchObject({
      'flowops.io/source': 'default/oci',
      'flowops.io/revision': `v1.0.0@${digests[0]}`,
      'flowops.io/origin-revision': `main@sha1:${commits[0]}`,
      'flowops.io/path': 'app.yaml',
    });
    await waitFor(async () => (await ready('oci'))?.status === 'True', { what: `FlowSource oci Ready\n${logs()}` });
  });

  it('a new tag in the range is followed; flowops history shows the digests and origins', async () => {
    digests.push(await commitAndPush(registry!.host, 'v1.1.0', { 'app.yaml': configMap('oci-app', '2') }));
    // Outside the range: never followed.
    await commitAndPush(registry!.host, 'v2.0.0', { 'app.yaml': configMap('oci-app', '3') });
    const c = await cmAt('oci-app', '2');
    expect(c.metadata.annotations['flowops.io/revision']).toBe(`v1.1.0@${digests[1]}`);
    const history = await run(
      process.execPath,
      [FLOWOPS_BIN, 'history', 'default/oci', '--kubeconfig', cp.kubeconfig],
      { cwd: ROOT, timeout: 60_000 },
    );
    expect(history.stdout).toMatch(/ORIGIN/);
    expect(history.stdout).toContain(`v1.1.0@${digests[1]}`);
    expect(history.stdout).toContain(`v1.0.0@${digests[0]}`);
    expect(history.stdout).toContain(`main@sha1:${commits[1]}`);
    expect((await cm('oci-app'))?.data?.v).toBe('2');
  });

  it('flowops rollback --to a short digest pins spec.oci.ref.digest and applies that artifact again', async () => {
    const short = digests[0]!.slice('sha256:'.length, 'sha256:'.length + 12);
    const out = await run(
      process.execPath,
      [FLOWOPS_BIN, 'rollback', 'default/oci', '--to', short, '--wait', '--kubeconfig', cp.kubeconfig],
      { cwd: ROOT, timeout: 90_000 },
    );
    expect(out.stdout).toContain(`pinned to ${digests[0]}`);
    expect(out.stdout).toContain(`Applied: ${digests[0]}`);
    const c = await cmAt('oci-app', '1');
    expect(c.metadata.annotations['flowops.io/revision']).toBe(digests[0]);
    expect((await source('oci'))?.spec.oci.ref.digest).toBe(digests[0]);
  });

  it('401 is refused with the reason, without and with wrong credentials; the right ones apply', async () => {
    const url = `oci://${secured!.host}/team/flows`;
    await applySource('locked', { url, ref: { tag: 'v1' }, insecure: true });
    const noCreds = await waitFor(
      async () => {
        const r = await ready('locked');
        return r?.reason === 'AuthRequired' ? r : undefined;
      },
      { what: `FlowSource locked AuthRequired\n${logs()}`, timeoutMs: 30_000 },
    );
    expect(noCreds.message).toContain('401');
    const dockerconfig = (password: string) =>
      Buffer.from(
        JSON.stringify({ auths: { [secured!.host]: { auth: Buffer.from(`alice:${password}`).toString('base64') } } }),
      ).toString('base64');
    const secret = (password: string) =>
      JSON.stringify({
        apiVersion: 'v1',
        kind: 'Secret',
        type: 'kubernetes.io/dockerconfigjson',
        metadata: { name: 'regcred', namespace: 'default' },
        data: { '.dockerconfigjson': dockerconfig(password) },
      });
    await cp.kubectl.ok(['apply', '-f', '-'], secret('wrong-password-x'));
    await applySource('locked', { url, ref: { tag: 'v1' }, insecure: true, secretRef: { name: 'regcred' } });
    const wrong = await waitFor(
      async () => {
        const r = await ready('locked');
        return r?.reason === 'AuthFailed' ? r : undefined;
      },
      { what: `FlowSource locked AuthFailed\n${logs()}`, timeoutMs: 30_000 },
    );
    expect(wrong.message).toContain('refused the credentials (401)');
    // The CLI pushes with the docker config's credentials; then the right Secret applies.
    mkdirSync(join(work, 'docker'), { recursive: true });
    writeFileSync(
      join(work, 'docker', 'config.json'),
      JSON.stringify({ auths: { [secured!.host]: { username: 'alice', password: PASSWORD } } }),
    );
    await commitAndPush(secured!.host, 'v1', { 'locked.yaml': configMap('oci-locked', '1') });
    await cp.kubectl.ok(['apply', '-f', '-'], secret(PASSWORD));
    await cmAt('oci-locked', '1');
    const everything = `${JSON.stringify(await source('locked'))}\n${flowops!.logs()}`;
    expect(everything).not.toContain(PASSWORD);
    expect(everything).not.toContain('wrong-password-x');
  });

  it('a truncated layer and a manifest not matching its digest are refused; the last good stays', async () => {
    await commitAndPush(registry!.host, 'edge', { 'edge.yaml': configMap('oci-edge', '1') });
    await applySource('edge', { url: `oci://${proxy!.host}/team/flows`, ref: { tag: 'edge' }, insecure: true });
    await cmAt('oci-edge', '1');
    proxy!.mode = 'truncate-blobs';
    const truncated = await commitAndPush(registry!.host, 'edge', { 'edge.yaml': configMap('oci-edge', '2') });
    const cut = await waitFor(
      async () => {
        const r = await ready('edge');
        return r?.reason === 'ArtifactInvalid' ? r : undefined;
      },
      { what: `FlowSource edge ArtifactInvalid\n${logs()}`, timeoutMs: 30_000 },
    );
    expect(cut.message).toMatch(/content layer sha256:[0-9a-f]{64} (is truncated|was cut short)/);
    proxy!.mode = 'rewrite-manifests';
    const mismatch = await waitFor(
      async () => {
        const r = await ready('edge');
        return r?.reason === 'DigestMismatch' ? r : undefined;
      },
      { what: `FlowSource edge DigestMismatch\n${logs()}`, timeoutMs: 30_000 },
    );
    expect(mismatch.message).toContain(`not ${truncated} as the registry says`);
    expect((await cm('oci-edge'))?.data?.v).toBe('1');
    proxy!.mode = 'pass';
    await cmAt('oci-edge', '2');
  });
});

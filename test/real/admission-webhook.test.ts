import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { connect } from 'node:tls';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { spawnFlowops, stopGracefully, type Proc } from '../distributed/processes.js';
import { ROOT } from '../helpers/cli.js';
import { waitFor } from '../helpers/wait.js';
import { describeReal, realControlPlane, type RealControlPlane } from './control-plane.js';
import { getJson, helmIn } from './kube-json.js';
import { serviceAccountKubeconfig } from './service-account.js';

// FlowOps' validating admission webhook called by the real kube-apiserver 1.34.4: `flowops run
// --admission-listen` out of cluster, a ValidatingWebhookConfiguration with clientConfig.url, the
// caBundle filled in by FlowOps from the CA it keeps in a Secret. `kubectl apply` of a Flow with a
// misspelled template field is refused naming the field; the example Flow is admitted; the
// certificate (forced to a 30 s life) rotates twice while Flows are applied, none refused; with
// the webhook stopped, failurePolicy Fail refuses and Ignore admits.

const NS = 'flowops-webhook';
const VWC_NAME = 'flowops-validation-real';
const example = (f: string): string => readFileSync(join(ROOT, 'repos-example/database-operator', f), 'utf8');
const GOOD = example('flow.yaml');
const BAD = GOOD.replace('{{ .Resource.spec.replicas }}', '{{ .Resource.spec.replica }}');
const flowNamed = (name: string) => GOOD.replace(/^ {2}name: database-operator$/m, `  name: ${name}`);
const controlPlane = realControlPlane();

function configuration(url: string, failurePolicy: 'Fail' | 'Ignore'): string {
  return JSON.stringify({
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingWebhookConfiguration',
    metadata: { name: VWC_NAME },
    webhooks: [
      {
        name: 'validate.flowops.io',
        clientConfig: { url },
        rules: [
          {
            apiGroups: ['flowops.io'],
            apiVersions: ['*'],
            operations: ['CREATE', 'UPDATE'],
            resources: ['flows', 'flowsources'],
          },
          {
            apiGroups: ['dcontroller.io'],
            apiVersions: ['*'],
            operations: ['CREATE', 'UPDATE'],
            resources: ['operators'],
          },
        ],
        failurePolicy,
        sideEffects: 'None',
        admissionReviewVersions: ['v1'],
        timeoutSeconds: 5,
      },
    ],
  });
}

/** The serial of the certificate the webhook serves to a new connection now. */
function servedSerial(address: string): Promise<string> {
  const [host, port] = address.split(':');
  return new Promise((resolve, reject) => {
    const s = connect({ host, port: Number(port), rejectUnauthorized: false }, () => {
      resolve(s.getPeerCertificate().serialNumber);
      s.end();
    });
    s.on('error', reject);
  });
}

describeReal('admission webhook on the real kube-apiserver', () => {
  let cp: RealControlPlane;
  let run: Proc | undefined;
  let address = '';
  let dataDir = '';
  const logs = () => run?.stderr().slice(-4000) ?? '';
  const apply = (yaml: string) => cp.kubectl(['apply', '-n', 'default', '-f', '-'], yaml);

  beforeAll(async () => {
    cp = controlPlane();
    dataDir = mkdtempSync(join(cp.dir, 'flowops-webhook-'));
    await cp.kubectl.ok(['apply', '-k', join(ROOT, 'config/crd')]);
    await cp.kubectl.ok(['apply', '-f', join(ROOT, 'repos-example/database-operator/crd.yaml')]);
    await cp.kubectl.ok([
      'wait',
      '--for=condition=Established',
      'crd/flows.flowops.io',
      'crd/databases.example.com',
      '--timeout=60s',
    ]);
    await cp.kubectl.ok(['create', 'namespace', NS]);
    run = spawnFlowops('run', [
      'run',
      '--kubeconfig',
      cp.kubeconfig,
      '--metrics-listen',
      '127.0.0.1:0',
      '--no-ui',
      '--queue',
      `real-${randomUUID()}`,
      '--redis-prefix',
      'flowops-test',
      '--lease-namespace',
      NS,
      '--lease-name',
      'flowops-leader',
      '--data',
      join(dataDir, 'data'),
      '--admission-listen',
      '127.0.0.1:0',
      '--admission-hosts',
      '127.0.0.1',
      '--admission-secret',
      `${NS}/webhook-certs`,
      '--admission-configuration',
      VWC_NAME,
      '--admission-cert-lifetime',
      '30s',
      '--admission-cert-check',
      '1s',
      '--admission-ca-propagation',
      '3s',
    ]);
    const listening = await waitFor(
      () => /"address":"([^"]+)","certificates":"self-signed","msg":"admission webhook listening"/.exec(run!.stderr()),
      { what: `the webhook listening\n${logs()}`, timeoutMs: 60_000 },
    );
    address = listening[1]!;
    await cp.kubectl.ok(['apply', '-f', '-'], configuration(`https://${address}/validate`, 'Fail'));
    // FlowOps fills the caBundle in; kube-apiserver then calls the webhook.
    await waitFor(
      async () =>
        (await getJson(cp, ['get', 'validatingwebhookconfiguration', VWC_NAME]))?.webhooks?.[0]?.clientConfig?.caBundle,
      { what: `caBundle written\n${logs()}`, timeoutMs: 30_000 },
    );
  }, 180_000);
  afterAll(async () => {
    if (run) {
      await stopGracefully(run);
      writeFileSync(join(dataDir, 'run.log'), run.stderr());
    }
  });

  it('kubectl apply of a Flow with a misspelled field is refused by the webhook with the field and the fix', async () => {
    const refused = await waitFor(
      async () => {
        const r = await apply(BAD);
        return r.code !== 0 && r.stderr.includes('denied the request') ? r : undefined;
      },
      { what: `the webhook refusing the bad Flow\n${logs()}`, timeoutMs: 30_000 },
    );
    expect(refused.stderr).toContain(
      'admission webhook "validate.flowops.io" denied the request: Flow "database-operator" is invalid: ',
    );
    expect(refused.stderr).toContain(
      'spec.reconcile.steps[0].manifests: unknown field "spec.replica" in Database; did you mean "replicas"?',
    );
    expect(await getJson(cp, ['get', 'flow', 'database-operator', '-n', 'default'])).toBeUndefined();
  });

  it('the example Flow is admitted, and so is an update of it', async () => {
    const created = await apply(GOOD);
    expect(created.code, created.stderr).toBe(0);
    const updated = await apply(GOOD.replace(':latest', ':16'));
    expect(updated.code, updated.stderr).toBe(0);
    expect(JSON.stringify((await getJson(cp, ['get', 'flow', 'database-operator', '-n', 'default']))?.spec)).toContain(
      ':16',
    );
  });

  it('the certificate rotates twice (30 s life) while Flows are applied, and no request is refused', async () => {
    const first = await servedSerial(address);
    const serials = new Set([first]);
    const failures: string[] = [];
    let applied = 0;
    await waitFor(
      async () => {
        const r = await apply(flowNamed(`rotating-${applied % 3}`).replace(':latest', `:${applied}`));
        applied++;
        if (r.code !== 0) failures.push(r.stderr);
        serials.add(await servedSerial(address));
        // Two rotations seen, and Flows applied after the second.
        return serials.size >= 3 && applied > 3 ? true : undefined;
      },
      {
        what: `two certificate rotations (serials seen: ${serials.size})\n${logs()}`,
        timeoutMs: 90_000,
        intervalMs: 200,
      },
    );
    // A refused request would also be a bad Flow admitted: the webhook still answers after rotating.
    expect(failures).toEqual([]);
    expect((await apply(BAD)).stderr).toContain('denied the request');
    const secret = await getJson(cp, ['get', 'secret', 'webhook-certs', '-n', NS]);
    expect(Object.keys(secret?.data ?? {}).sort()).toEqual([
      'ca.crt',
      'ca.key',
      'previous-ca.crt',
      'previous-ca.key',
      'previous-tls.crt',
      'previous-tls.key',
      'tls.crt',
      'tls.key',
    ]);
    const bundle = Buffer.from(
      (await getJson(cp, ['get', 'validatingwebhookconfiguration', VWC_NAME]))?.webhooks?.[0]?.clientConfig?.caBundle ??
        '',
      'base64',
    ).toString();
    expect(bundle.match(/BEGIN CERTIFICATE/g)).toHaveLength(2);
  }, 120_000);

  it('with the webhook down, failurePolicy Fail refuses a Flow and Ignore admits it', async () => {
    if (!run) throw new Error('flowops run is not running');
    await stopGracefully(run);
    const down = await apply(flowNamed('while-down'));
    expect(down.code).not.toBe(0);
    expect(down.stderr).toMatch(/failed calling webhook "validate\.flowops\.io".*connection refused/s);
    const caBundle = (await getJson(cp, ['get', 'validatingwebhookconfiguration', VWC_NAME]))?.webhooks?.[0]
      ?.clientConfig?.caBundle;
    await cp.kubectl.ok([
      'patch',
      'validatingwebhookconfiguration',
      VWC_NAME,
      '--type=json',
      '-p',
      JSON.stringify([{ op: 'replace', path: '/webhooks/0/failurePolicy', value: 'Ignore' }]),
    ]);
    expect(
      (await getJson(cp, ['get', 'validatingwebhookconfiguration', VWC_NAME]))?.webhooks?.[0]?.clientConfig?.caBundle,
    ).toBe(caBundle);
    // kube-apiserver picks the changed configuration up from its informer.
    const admitted = await waitFor(
      async () => {
        const r = await apply(flowNamed('while-down'));
        return r.code === 0 ? r : undefined;
      },
      { what: 'the Flow admitted under failurePolicy Ignore', timeoutMs: 30_000, intervalMs: 250 },
    );
    expect(admitted.stdout).toContain('flow.flowops.io/while-down created');
  });
  it("installed by the chart, as the chart's ServiceAccount: FlowOps creates its CA Secret and fills the caBundle", async () => {
    // The release's configuration points at its Service, which nothing routes to here; the test
    // points it at the process instead, as a Service would reach the pod.
    const ns = 'flowops-chart';
    const release = 'flowops-chart';
    const r = await helmIn(cp, [
      'install',
      release,
      join(ROOT, 'charts/flowops'),
      '-n',
      ns,
      '--create-namespace',
      '--set',
      'installCRDs=false',
      '--set',
      'admissionWebhook.enabled=true',
    ]);
    expect(r.code, r.stderr).toBe(0);
    const kubeconfig = await serviceAccountKubeconfig(cp, ns, release);
    const charted = spawnFlowops('run-chart', [
      'run',
      '--kubeconfig',
      kubeconfig,
      '--metrics-listen',
      '127.0.0.1:0',
      '--no-ui',
      '--queue',
      `real-${randomUUID()}`,
      '--redis-prefix',
      'flowops-test',
      '--lease-namespace',
      ns,
      '--lease-name',
      `${release}-leader`,
      '--data',
      join(dataDir, 'data-chart'),
      '--admission-listen',
      '127.0.0.1:0',
      '--admission-hosts',
      '127.0.0.1',
      '--admission-secret',
      `${ns}/${release}-admission-certs`,
      '--admission-configuration',
      `${release}-validation`,
      '--admission-cert-check',
      '2s',
    ]);
    try {
      const chartLogs = () => charted.stderr().slice(-4000);
      const listening = await waitFor(() => /"address":"([^"]+)","certificates":"self-signed"/.exec(charted.stderr()), {
        what: `the chart's webhook listening\n${chartLogs()}`,
        timeoutMs: 60_000,
      });
      // The caBundle FlowOps wrote stays; only where to call changes.
      const patch = [
        { op: 'remove', path: '/webhooks/0/clientConfig/service' },
        { op: 'add', path: '/webhooks/0/clientConfig/url', value: `https://${listening[1]}/validate` },
      ];
      await cp.kubectl.ok([
        'patch',
        'validatingwebhookconfiguration',
        `${release}-validation`,
        '--type=json',
        '-p',
        JSON.stringify(patch),
      ]);
      const refused = await waitFor(
        async () => {
          const a = await apply(BAD.replace(/^ {2}name: database-operator$/m, '  name: chart-checked'));
          return a.code !== 0 && a.stderr.includes('denied the request') ? a : undefined;
        },
        { what: `the chart's webhook refusing the bad Flow\n${chartLogs()}`, timeoutMs: 60_000 },
      );
      expect(refused.stderr).toContain('unknown field "spec.replica" in Database');
      const secret = await getJson(cp, ['get', 'secret', `${release}-admission-certs`, '-n', ns]);
      expect(Object.keys(secret?.data ?? {}).sort()).toEqual(['ca.crt', 'ca.key', 'tls.crt', 'tls.key']);
      expect(chartLogs()).not.toMatch(/forbidden/i);
    } finally {
      await stopGracefully(charted);
      writeFileSync(join(dataDir, 'run-chart.log'), charted.stderr());
    }
  });
});

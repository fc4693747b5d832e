import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/apiserver.js';
import { kubeconfigCall } from '../helpers/kube-http.js';
import { waitFor } from '../helpers/wait.js';
import { startWebhookServer, type WebhookServer } from '../helpers/webhook-server.js';
import { CASES, caseKey, installCases, runCase, type ApiCall } from '../apiserver/admission/webhook-cases.js';
import { installPolicies, POLICY_CASES, runPolicyCase } from '../apiserver/admission/policy-cases.js';
import { describeReal, realControlPlane } from './control-plane.js';
import { CONFIG_CASES, runConfigCase } from '../apiserver/admission/config-cases.js';

// The same webhook configurations and ValidatingAdmissionPolicies on the real kube-apiserver 1.34.4
// and on the embedded server, one real HTTPS webhook (node:https, a CA of its own) called by both
// through clientConfig.url with its caBundle; every case's status, reason, message, causes,
// warnings and stored labels must be the same on both.

const controlPlane = realControlPlane();

describeReal('admission webhooks and policies answer the same on kube-apiserver and the embedded server', () => {
  let embedded: TestServer;
  let wh: WebhookServer;
  let other: WebhookServer;
  let dir: string;
  let real: ApiCall;
  let ours: ApiCall;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'flowops-admission-real-'));
    wh = await startWebhookServer(join(dir, 'webhook-pki'));
    other = await startWebhookServer(join(dir, 'other-pki'));
    embedded = await startTestServer();
    real = kubeconfigCall(controlPlane().kubeconfig);
    ours = kubeconfigCall(embedded.kubeconfig);
    for (const call of [real, ours]) {
      await installCases(call, wh, other.caBundle);
      await installPolicies(call);
    }
    // kube-apiserver takes webhooks and policies up through informers (and type-checks policies):
    // each is in force once a dry run of a case it refuses is refused.
    const refused = async (f: () => Promise<{ status: number }>) => (await f()).status >= 400;
    await waitFor(() => refused(() => runCase(real, { name: 'deny', object: 'probe', query: '?dryRun=All' })), {
      what: 'webhooks in force',
      timeoutMs: 60_000,
    });
    await waitFor(() => refused(() => runPolicyCase(real, POLICY_CASES[0]!, true)), {
      what: 'policies in force',
      timeoutMs: 60_000,
    });
    await waitFor(
      async () => {
        const hit = POLICY_CASES.find((c) => c.key === 'matchCondition hit')!;
        return refused(() => runPolicyCase(real, hit, true));
      },
      { what: 'the last policy in force', timeoutMs: 60_000 },
    );
  }, 240_000);

  afterAll(async () => {
    await wh?.close();
    await other?.close();
    await embedded?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('webhook cases: refusals, timeouts, garbage, TLS, Ignore, warnings, patches, selectors', async () => {
    for (const c of CASES) {
      const theirs = await runCase(real, c);
      const mine = await runCase(ours, c);
      expect({ case: caseKey(c), ...mine }).toEqual({ case: caseKey(c), ...theirs });
    }
  }, 120_000);

  it('ValidatingAdmissionPolicy cases: Deny, Warn, messageExpression, variables, params, failurePolicy', async () => {
    for (const c of POLICY_CASES) {
      const theirs = await runPolicyCase(real, c);
      const mine = await runPolicyCase(ours, c);
      expect({ case: c.key, ...mine }).toEqual({ case: c.key, ...theirs });
    }
  }, 120_000);

  it('webhook configurations: defaults of a minimal one, refusals of invalid ones', async () => {
    for (const kind of ['Validating', 'Mutating'] as const) {
      for (const [name, webhook] of CONFIG_CASES) {
        const theirs = await runConfigCase(real, kind, name, webhook);
        const mine = await runConfigCase(ours, kind, name, webhook);
        expect({ case: `${kind}/${name}`, ...mine }).toEqual({ case: `${kind}/${name}`, ...theirs });
      }
    }
  });
});

import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/apiserver.js';
import { kubeconfigCall } from '../helpers/kube-http.js';
import { runConfigCase } from './admission/config-cases.js';
import type { ApiCall } from './admission/webhook-cases.js';

// Webhook configurations are defaulted and validated as kube-apiserver stores them (the texts
// are the real server's; test/real/admission-side-by-side compares all of CONFIG_CASES).

let server: TestServer;
let call: ApiCall;
beforeAll(async () => {
  server = await startTestServer();
  call = kubeconfigCall(server.kubeconfig);
});
afterAll(async () => {
  await server?.stop();
});

const BASE = {
  name: 'a.b.c',
  admissionReviewVersions: ['v1'],
  sideEffects: 'None',
  clientConfig: { service: { name: 's', namespace: 'default' } },
  rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'] }],
};

it('a minimal mutating webhook gets v1 defaults', async () => {
  const r = await runConfigCase(call, 'Mutating', 'm', BASE);
  expect(r.status).toBe(201);
  expect(r.webhook).toMatchObject({
    failurePolicy: 'Fail',
    matchPolicy: 'Equivalent',
    namespaceSelector: {},
    objectSelector: {},
    reinvocationPolicy: 'Never',
    timeoutSeconds: 10,
    clientConfig: { service: { port: 443 } },
    rules: [{ scope: '*' }],
  });
});

it('an invalid webhook is refused with the field and the reason', async () => {
  const r = await runConfigCase(call, 'Validating', 'v', { ...BASE, sideEffects: 'Some', timeoutSeconds: 0 });
  expect(r).toMatchObject({
    status: 422,
    message:
      'ValidatingWebhookConfiguration.admissionregistration.k8s.io "v" is invalid: ' +
      '[webhooks[0].sideEffects: Unsupported value: ' +
      '"Some": supported values: "None", "NoneOnDryRun", webhooks[0].timeoutSeconds: Invalid value: 0: ' +
      'the timeout value must be between 1 and 30 seconds]',
  });
});

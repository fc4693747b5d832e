// The admissionregistration.k8s.io kinds' validation (src/apiserver/validation/webhook-configurations.ts,
// admission-policy.ts, admission-rules.ts, cel-compile.ts) over HTTP: each body below was sent to
// kube-apiserver v1.34.4, and the causes expected are the ones it answered, in its order and words.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/apiserver.js';

let ts: TestServer;
beforeAll(async () => {
  ts = await startTestServer();
});
afterAll(async () => ts?.stop());

interface Answer {
  status: number;
  causes: string[];
}

async function post(plural: string, body: object): Promise<Answer> {
  const r = await fetch(`${ts.server.url}/apis/admissionregistration.k8s.io/v1/${plural}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const status = (await r.json()) as { details?: { causes?: Array<{ field: string; message: string }> } };
  return { status: r.status, causes: (status.details?.causes ?? []).map((c) => `${c.field}: ${c.message}`) };
}

const WEBHOOKS = {
  apiVersion: 'admissionregistration.k8s.io/v1',
  kind: 'ValidatingWebhookConfiguration',
  metadata: {
    name: 'w',
  },
  webhooks: [
    {
      name: 'a.b.c',
      clientConfig: {
        url: 'http://u:p@x/y?q#f',
      },
      rules: [
        {
          apiGroups: ['', '*'],
          apiVersions: [''],
          operations: ['GET'],
          resources: ['*/*', 'pods'],
          scope: 'All',
        },
      ],
      sideEffects: 'Some',
      admissionReviewVersions: ['v3', 'v3'],
      timeoutSeconds: 40,
      matchConditions: [
        {
          name: 'm',
          expression: 'x',
        },
      ],
    },
    {
      name: 'a.b.c',
      clientConfig: {
        service: {
          name: 's',
          namespace: 'n',
          path: 'a//b/',
          port: 0,
        },
      },
      sideEffects: 'None',
      admissionReviewVersions: ['v1'],
    },
  ],
};

const POLICY = {
  apiVersion: 'admissionregistration.k8s.io/v1',
  kind: 'ValidatingAdmissionPolicy',
  metadata: {
    name: 'v',
  },
  spec: {
    paramKind: {
      apiVersion: 'a/b/c',
      kind: 'Bad_Kind',
    },
    matchConstraints: {
      resourceRules: [
        {
          apiGroups: [''],
          apiVersions: ['v1'],
          operations: ['CREATE'],
          resources: ['pods/status', 'pods/*'],
          resourceNames: ['a/b', 'a/b'],
        },
      ],
    },
    validations: [
      {
        expression: '1',
        messageExpression: 'true',
        reason: 'Nope',
        message: ' ',
      },
    ],
    variables: [
      {
        name: 'in',
        expression: 'abc',
      },
    ],
    auditAnnotations: [
      {
        key: 'Bad Key',
        valueExpression: "'x'",
      },
    ],
  },
};

it('refuses bad rules, side effects, timeout, URL, service path, port, review versions, a duplicate name', async () => {
  const a = await post('validatingwebhookconfigurations', WEBHOOKS);
  expect(a.status).toBe(422);
  expect(a.causes).toEqual([
    'webhooks[0].rules[0].operations[0]: Unsupported value: "GET": supported values: "*", ' +
      '"CONNECT", "CREATE", "DELETE", "UPDATE"',
    'webhooks[0].rules[0].apiGroups: Invalid value: ["","*"]: if \'*\' is present, must not specify other API groups',
    'webhooks[0].rules[0].apiVersions[0]: Required value',
    'webhooks[0].rules[0].resources: Invalid value: ["*/*","pods"]: if \'*/*\' is present, must not ' +
      'specify other resources',
    'webhooks[0].rules[0].scope: Unsupported value: "All": supported values: "*", "Cluster", "Namespaced"',
    'webhooks[0].sideEffects: Unsupported value: "Some": supported values: "None", "NoneOnDryRun"',
    'webhooks[0].timeoutSeconds: Invalid value: 40: the timeout value must be between 1 and 30 seconds',
    'webhooks[0].clientConfig.url: Invalid value: "http": \'https\' is the only allowed URL scheme; ' +
      'desired format: https://host[/path]',
    'webhooks[0].clientConfig.url: Invalid value: "u:p": user information is not permitted in the URL',
    'webhooks[0].clientConfig.url: Invalid value: "f": fragments are not permitted in the URL',
    'webhooks[0].clientConfig.url: Invalid value: "q": query parameters are not permitted in the URL',
    'webhooks[0].matchConditions[0].expression: Invalid value: "x": compilation failed: ERROR: ' +
      "<input>:1:1: undeclared reference to 'x' (in container '')\n | x\n | ^",
    'webhooks[0].admissionReviewVersions[1]: Invalid value: "v3": duplicate version',
    'webhooks[0].admissionReviewVersions: Invalid value: ["v3","v3"]: must include at least one of v1, v1beta1',
    'webhooks[1].clientConfig.service.port: Invalid value: 0: port is not valid: must be between 1 and ' +
      '65535, inclusive',
    'webhooks[1].clientConfig.service.path: Invalid value: "a//b/": must start with a \'/\'',
    'webhooks[1].clientConfig.service.path: Invalid value: "a//b/": segment[0] may not be empty',
    'webhooks[1].clientConfig.service.path: Invalid value: "a//b/": segment[1] may not be empty',
    'webhooks[1].name: Duplicate value: "a.b.c"',
  ]);
});

it('words a mutating configuration the same way, and lets a valid one through', async () => {
  const a = await post('mutatingwebhookconfigurations', { ...WEBHOOKS, kind: 'MutatingWebhookConfiguration' });
  expect(a.causes).toEqual([
    'webhooks[0].rules[0].operations[0]: Unsupported value: "GET": supported values: "*", ' +
      '"CONNECT", "CREATE", "DELETE", "UPDATE"',
    'webhooks[0].rules[0].apiGroups: Invalid value: ["","*"]: if \'*\' is present, must not specify other API groups',
    'webhooks[0].rules[0].apiVersions[0]: Required value',
    'webhooks[0].rules[0].resources: Invalid value: ["*/*","pods"]: if \'*/*\' is present, must not ' +
      'specify other resources',
    'webhooks[0].rules[0].scope: Unsupported value: "All": supported values: "*", "Cluster", "Namespaced"',
    'webhooks[0].sideEffects: Unsupported value: "Some": supported values: "None", "NoneOnDryRun"',
    'webhooks[0].timeoutSeconds: Invalid value: 40: the timeout value must be between 1 and 30 seconds',
    'webhooks[0].clientConfig.url: Invalid value: "http": \'https\' is the only allowed URL scheme; ' +
      'desired format: https://host[/path]',
    'webhooks[0].clientConfig.url: Invalid value: "u:p": user information is not permitted in the URL',
    'webhooks[0].clientConfig.url: Invalid value: "f": fragments are not permitted in the URL',
    'webhooks[0].clientConfig.url: Invalid value: "q": query parameters are not permitted in the URL',
    'webhooks[0].matchConditions[0].expression: Invalid value: "x": compilation failed: ERROR: ' +
      "<input>:1:1: undeclared reference to 'x' (in container '')\n | x\n | ^",
    'webhooks[0].admissionReviewVersions[1]: Invalid value: "v3": duplicate version',
    'webhooks[0].admissionReviewVersions: Invalid value: ["v3","v3"]: must include at least one of v1, v1beta1',
    'webhooks[1].clientConfig.service.port: Invalid value: 0: port is not valid: must be between 1 and ' +
      '65535, inclusive',
    'webhooks[1].clientConfig.service.path: Invalid value: "a//b/": must start with a \'/\'',
    'webhooks[1].clientConfig.service.path: Invalid value: "a//b/": segment[0] may not be empty',
    'webhooks[1].clientConfig.service.path: Invalid value: "a//b/": segment[1] may not be empty',
    'webhooks[1].name: Duplicate value: "a.b.c"',
  ]);
  const ok = await post('mutatingwebhookconfigurations', {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'MutatingWebhookConfiguration',
    metadata: { name: 'ok' },
    webhooks: [
      {
        name: 'ok.example.com',
        clientConfig: { service: { name: 's', namespace: 'n', path: '/mutate' } },
        rules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['pods'] }],
        matchConditions: [{ name: 'not-kube-system', expression: "object.metadata.namespace != 'kube-system'" }],
        sideEffects: 'None',
        admissionReviewVersions: ['v1'],
      },
    ],
  });
  expect(ok.status, ok.causes.join('\n')).toBe(201);
});

it('refuses a bad paramKind, resource names, variables, CEL results, message, reason and key', async () => {
  const a = await post('validatingadmissionpolicies', POLICY);
  expect(a.status).toBe(422);
  expect(a.causes).toEqual([
    'spec.paramKind.apiVersion: Invalid value: "a/b/c": unexpected GroupVersion string: a/b/c',
    'spec.paramKind.kind: Invalid value: "Bad_Kind": may have mixed case, but should otherwise match:' +
      " a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an " +
      "alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex" +
      " used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')",
    'spec.matchConstraints.resourceRules[0].resourceNames[0]: Invalid value: "a/b": may not contain \'/\'',
    'spec.matchConstraints.resourceRules[0].resourceNames[1]: Invalid value: "a/b": may not contain \'/\'',
    'spec.matchConstraints.resourceRules[0].resourceNames[1]: Duplicate value: "a/b"',
    'spec.variables[0].name: Invalid value: "in": must be a valid CEL identifier',
    'spec.variables[0].expression: Invalid value: "abc": compilation failed: ERROR: <input>:1:1: ' +
      "undeclared reference to 'abc' (in container '')\n | abc\n | ^",
    'spec.validations[0].expression: Invalid value: "1": must evaluate to bool but got int',
    'spec.validations[0].messageExpression: Invalid value: "true": must evaluate to string but got bool',
    'spec.validations[0].message: Invalid value: " ": must be non-empty if specified',
    'spec.validations[0].reason: Unsupported value: "Nope": supported values: "Forbidden", ' +
      '"Invalid", "RequestEntityTooLarge"',
    'spec.auditAnnotations[0].key: Invalid value: "v/Bad Key": name part must consist of alphanumeric' +
      " characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. " +
      "'MyName',  or 'my.name',  or '123-abc', regex used for validation is " +
      "'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
  ]);
});

it("checks a binding's matchResources as a policy's matchConstraints", async () => {
  const a = await post('validatingadmissionpolicybindings', {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingAdmissionPolicyBinding',
    metadata: { name: 'b' },
    spec: {
      policyName: 'p',
      validationActions: ['Deny'],
      matchResources: {
        resourceRules: [{ apiGroups: [], apiVersions: ['v1'], operations: ['CREATE'], resources: ['pods'] }],
      },
    },
  });
  expect(a.causes).toEqual(['spec.matchResources.resourceRules[0].apiGroups: Required value']);
});

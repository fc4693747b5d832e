import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/apiserver.js';
import { installPolicies, POLICY_CASES, runPolicyCase } from './admission/policy-cases.js';
import type { ApiCall, CaseOutcome } from './admission/webhook-cases.js';

// ValidatingAdmissionPolicy + bindings on the embedded server, their CEL evaluated by @bufbuild/cel;
// the texts are kube-apiserver 1.34's (test/real/admission-side-by-side compares them case by case).

let server: TestServer;
let call: ApiCall;
const outcomes = new Map<string, CaseOutcome>();

beforeAll(async () => {
  server = await startTestServer();
  call = async (method, path, body) => {
    const r = await fetch(server.server.url + path, {
      method,
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const warnings = (r.headers.get('warning') ?? '').split(/,\s*(?=299 )/).filter(Boolean);
    return { status: r.status, body: (await r.json()) as Record<string, unknown>, warnings };
  };
  await installPolicies(call);
  for (const c of POLICY_CASES) outcomes.set(c.key, await runPolicyCase(call, c));
}, 60_000);

afterAll(async () => {
  await server?.stop();
});

const outcome = (key: string): CaseOutcome => {
  const o = outcomes.get(key);
  if (!o) throw new Error(`no case ${key}`);
  return o;
};
const denial = (resource: string, name: string, policy: string, message: string) => {
  const text = `ValidatingAdmissionPolicy '${policy}' with binding '${policy}-binding' denied request: ${message}`;
  return { message: `${resource} "${name}" is forbidden: ${text}`, causes: [{ message: text }] };
};

describe('ValidatingAdmissionPolicy', () => {
  it('a failed validation denies with its message, as Invalid (422) unless the validation names a reason', () => {
    expect(outcome('replicas 7 denied')).toMatchObject({
      status: 422,
      reason: 'Invalid',
      ...denial('deployments.apps', 'big', 'max-replicas', 'replicas must be no greater than 5'),
    });
    expect(outcome('replicas 3 allowed').status).toBe(201);
    expect(outcome('no message')).toMatchObject({
      status: 422,
      ...denial(
        'configmaps',
        'forbidden-name',
        'no-message',
        "failed expression: object.metadata.name != 'forbidden-name'",
      ),
    });
  });

  it('messageExpression and variables are CEL too; reason Forbidden answers 403', () => {
    expect(outcome('messageExpression')).toMatchObject({
      status: 403,
      reason: 'Forbidden',
      ...denial('configmaps', 'x', 'message-expression', 'data.team must be team-x'),
    });
    expect(outcome('variables pass').status).toBe(201);
  });

  it('validationActions Warn warns and admits', () => {
    expect(outcome('warn only')).toMatchObject({
      status: 201,
      warnings: [
        '299 - "Validation failed for ValidatingAdmissionPolicy ' +
          "'warn-only' with binding 'warn-only-binding': names should start with ok-\"",
      ],
    });
  });

  it("an expression that errors denies under Fail, in cel-go's words, and is skipped under Ignore", () => {
    expect(outcome('eval error Fail')).toMatchObject({
      status: 422,
      ...denial(
        'configmaps',
        'e1',
        'eval-error',
        'expression \'object.data.missing == "x"\' resulted in error: no such key: data',
      ),
    });
    expect(outcome('eval error Ignore').status).toBe(201);
  });

  it('paramRef binds params; matchConditions choose the requests', () => {
    expect(outcome('params deny')).toMatchObject({
      status: 422,
      ...denial('configmaps', 'p1', 'params', 'size must be large'),
    });
    expect(outcome('params allow').status).toBe(201);
    expect(outcome('matchCondition miss').status).toBe(201);
    expect(outcome('matchCondition hit')).toMatchObject({
      status: 422,
      ...denial('configmaps', 'c2', 'condition', 'prod objects are frozen'),
    });
  });

  it('a missing params object is denied with parameterNotFoundAction Deny', async () => {
    // A binding's update must name the resourceVersion it read (AllowUnconditionalUpdate is false).
    const path = '/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicybindings/params-binding';
    const read = await call('GET', path);
    const resourceVersion = (read.body.metadata as { resourceVersion: string }).resourceVersion;
    const r = await call('PUT', path, {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingAdmissionPolicyBinding',
      metadata: { name: 'params-binding', resourceVersion },
      spec: {
        policyName: 'params',
        validationActions: ['Deny'],
        paramRef: { name: 'absent', namespace: 'default', parameterNotFoundAction: 'Deny' },
      },
    });
    expect(r.status).toBe(200);
    const body = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'p3', labels: { policy: 'params' } },
      data: { size: 'large' },
    };
    const denied = await call('POST', '/api/v1/namespaces/default/configmaps', body);
    expect(denied).toMatchObject({
      status: 422,
      body: { message: expect.stringContaining('no params found for policy binding') },
    });
  });
});

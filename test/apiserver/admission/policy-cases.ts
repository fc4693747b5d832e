import type { ApiCall, CaseOutcome } from './webhook-cases.js';

/**
 * ValidatingAdmissionPolicy cases, shared by test/apiserver/admission-policies.test.ts (embedded
 * server) and test/real/admission-side-by-side.test.ts (both servers, compared). Each policy
 * matches Deployments or ConfigMaps labelled `policy: <name>` so the cases stay apart.
 */
type Json = Record<string, unknown>;

function policy(name: string, spec: Json, resources = ['configmaps']): Json {
  const group = resources[0] === 'deployments' ? 'apps' : '';
  return {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingAdmissionPolicy',
    metadata: { name },
    spec: {
      matchConstraints: {
        resourceRules: [{ apiGroups: [group], apiVersions: ['v1'], operations: ['CREATE', 'UPDATE'], resources }],
        objectSelector: { matchLabels: { policy: name } },
      },
      ...spec,
    },
  };
}

function binding(name: string, policyName: string, actions: string[], extra: Json = {}): Json {
  return {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingAdmissionPolicyBinding',
    metadata: { name },
    spec: { policyName, validationActions: actions, ...extra },
  };
}

export const POLICY_OBJECTS: Json[] = [
  policy(
    'max-replicas',
    { validations: [{ expression: 'object.spec.replicas <= 5', message: 'replicas must be no greater than 5' }] },
    ['deployments'],
  ),
  binding('max-replicas-binding', 'max-replicas', ['Deny']),
  policy('message-expression', {
    variables: [{ name: 'want', expression: "'team-' + object.metadata.name" }],
    validations: [
      {
        expression: "has(object.data) && 'team' in object.data && object.data.team == variables.want",
        messageExpression: "'data.team must be ' + variables.want",
        reason: 'Forbidden',
      },
    ],
  }),
  binding('message-expression-binding', 'message-expression', ['Deny']),
  policy('warn-only', {
    validations: [{ expression: "object.metadata.name.startsWith('ok-')", message: 'names should start with ok-' }],
  }),
  binding('warn-only-binding', 'warn-only', ['Warn']),
  policy('no-message', { validations: [{ expression: "object.metadata.name != 'forbidden-name'" }] }),
  binding('no-message-binding', 'no-message', ['Deny']),
  policy('eval-error', { validations: [{ expression: 'object.data.missing == "x"' }] }),
  binding('eval-error-binding', 'eval-error', ['Deny']),
  policy('eval-error-ignore', { failurePolicy: 'Ignore', validations: [{ expression: 'object.data.missing == "x"' }] }),
  binding('eval-error-ignore-binding', 'eval-error-ignore', ['Deny']),
  policy('params', {
    paramKind: { apiVersion: 'v1', kind: 'ConfigMap' },
    validations: [
      { expression: 'object.data.size == params.data.size', messageExpression: "'size must be ' + params.data.size" },
    ],
  }),
  binding('params-binding', 'params', ['Deny'], {
    paramRef: { name: 'size-params', namespace: 'default', parameterNotFoundAction: 'Deny' },
  }),
  policy('condition', {
    matchConditions: [
      { name: 'only-prod', expression: "has(object.metadata.labels) && object.metadata.labels.env == 'prod'" },
    ],
    validations: [{ expression: 'false', message: 'prod objects are frozen' }],
  }),
  binding('condition-binding', 'condition', ['Deny']),
];

/** The params object the params policy reads (a ConfigMap no policy matches). */
export const PARAMS = {
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name: 'size-params', namespace: 'default' },
  data: { size: 'large' },
};

export interface PolicyCase {
  key: string;
  path: string;
  body: Json;
}

const cm = (name: string, labels: Json, data: Json = {}): Json => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, namespace: 'default', labels },
  data,
});
const deploy = (name: string, replicas: number): Json => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name, namespace: 'default', labels: { policy: 'max-replicas' } },
  spec: {
    replicas,
    selector: { matchLabels: { app: name } },
    template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } },
  },
});
const CM = '/api/v1/namespaces/default/configmaps';
const DEPLOY = '/apis/apps/v1/namespaces/default/deployments';

export const POLICY_CASES: PolicyCase[] = [
  { key: 'replicas 7 denied', path: DEPLOY, body: deploy('big', 7) },
  { key: 'replicas 3 allowed', path: DEPLOY, body: deploy('small', 3) },
  { key: 'messageExpression', path: CM, body: cm('x', { policy: 'message-expression' }, { team: 'team-y' }) },
  { key: 'variables pass', path: CM, body: cm('y', { policy: 'message-expression' }, { team: 'team-y' }) },
  { key: 'warn only', path: CM, body: cm('not-ok', { policy: 'warn-only' }) },
  { key: 'no message', path: CM, body: cm('forbidden-name', { policy: 'no-message' }) },
  { key: 'eval error Fail', path: CM, body: cm('e1', { policy: 'eval-error' }) },
  { key: 'eval error Ignore', path: CM, body: cm('e2', { policy: 'eval-error-ignore' }) },
  { key: 'params deny', path: CM, body: cm('p1', { policy: 'params' }, { size: 'small' }) },
  { key: 'params allow', path: CM, body: cm('p2', { policy: 'params' }, { size: 'large' }) },
  { key: 'matchCondition miss', path: CM, body: cm('c1', { policy: 'condition', env: 'dev' }) },
  { key: 'matchCondition hit', path: CM, body: cm('c2', { policy: 'condition', env: 'prod' }) },
];

export async function installPolicies(call: ApiCall): Promise<void> {
  const p = await call('POST', CM, PARAMS);
  if (p.status !== 201) throw new Error(`params: ${p.status} ${JSON.stringify(p.body)}`);
  for (const o of POLICY_OBJECTS) {
    const plural =
      o.kind === 'ValidatingAdmissionPolicy' ? 'validatingadmissionpolicies' : 'validatingadmissionpolicybindings';
    const r = await call('POST', `/apis/admissionregistration.k8s.io/v1/${plural}`, o);
    if (r.status !== 201) throw new Error(`${plural}: ${r.status} ${JSON.stringify(r.body)}`);
  }
}

export async function runPolicyCase(call: ApiCall, c: PolicyCase, dryRun = false): Promise<CaseOutcome> {
  const r = await call('POST', c.path + (dryRun ? '?dryRun=All' : ''), c.body);
  const details = r.body.details as { causes?: unknown } | undefined;
  return {
    status: r.status,
    reason: r.body.reason,
    message: r.body.message,
    code: r.body.code,
    causes: details?.causes,
    labels: undefined,
    warnings: r.warnings,
  };
}

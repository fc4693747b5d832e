// Label selectors are validated at the door as kube-apiserver validates them (issue 20, item 5): every
// built-in kind with a LabelSelector refuses one that does not parse, with kube's field and text,
// and nothing is stored. The same requests are fidelity scenarios against the real server
// (test/fidelity/scenarios/selectors.ts); the texts here are the real v1.34.4 server's.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SELECTOR_SCENARIOS } from '../fidelity/scenarios/selectors.js';
import { startTestServer, type TestServer } from '../helpers/apiserver.js';

let ts: TestServer;
beforeAll(async () => {
  ts = await startTestServer();
  await call('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'sel' } });
});
afterAll(async () => ts?.stop());

async function call(
  method: string,
  path: string,
  body?: unknown,
  type = 'application/json',
): Promise<{ status: number; body: any }> {
  const r = await fetch(`${ts.server.url}${path}`, {
    method,
    headers: { 'content-type': type },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  return { status: r.status, body: await r.json() };
}

const inNs = (s: string): string => s.replaceAll('{ns}', 'sel');
const OPERATOR = 'Invalid value: "Sometimes": not a valid selector operator';

describe('invalid label selectors are refused at the door', () => {
  it.each(SELECTOR_SCENARIOS.map((s) => [s.name, s.steps] as const))(
    '%s: 422 Invalid, nothing stored',
    async (_name, steps) => {
      for (const setup of steps.slice(0, -1))
        await call(setup.method, inNs(setup.path), JSON.parse(inNs(JSON.stringify(setup.body))));
      const step = steps[steps.length - 1]!;
      const body = JSON.parse(inNs(JSON.stringify(step.body))) as { metadata: { name: string } };
      const answer = await call(step.method, inNs(step.path), body);
      expect(answer.status).toBe(422);
      expect(answer.body).toMatchObject({ kind: 'Status', status: 'Failure', reason: 'Invalid', code: 422 });
      expect(answer.body.details.causes.length).toBeGreaterThan(0);
      expect((await call('GET', `${inNs(step.path)}/${body.metadata.name}`)).status).toBe(404);
    },
  );

  it("the issue's ClusterRole: kube's causes for the selector and for LabelSelectorAsSelector", async () => {
    const scenario = SELECTOR_SCENARIOS.find(
      (s) => s.name === 'selector: 422 ClusterRole aggregationRule operator Sometimes',
    );
    const step = scenario!.steps[0]!;
    const answer = await call('POST', step.path, JSON.parse(inNs(JSON.stringify(step.body))));
    expect(answer.body.details.causes).toEqual([
      {
        reason: 'FieldValueInvalid',
        message: OPERATOR,
        field: 'aggregationRule.clusterRoleSelectors[1].matchExpressions[0].operator',
      },
      {
        reason: 'FieldValueInvalid',
        message: 'Invalid value: null: invalid label selector.',
        field: 'aggregationRule.clusterRoleSelectors[1]',
      },
    ]);
  });

  it('a Deployment: the selector rendered as JSON in Go field order, and no template check against it', async () => {
    const selector = {
      matchExpressions: [{ values: ['x'], operator: 'Sometimes', key: 'app' }],
      matchLabels: { b: '1', a: '2' },
    };
    const template = { metadata: { labels: { app: 'x' } }, spec: { containers: [] } };
    const answer = await call('POST', '/apis/apps/v1/namespaces/sel/deployments', {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'd' },
      spec: { selector, template },
    });
    expect(answer.body.message).toBe(
      `Deployment.apps "d" is invalid: [spec.selector.matchExpressions[0].operator: ${OPERATOR}, ` +
        'spec.selector: Invalid value: {"matchLabels":{"a":"2","b":"1"},' +
        '"matchExpressions":[{"key":"app","operator":"Sometimes","values":["x"]}]}: invalid label selector]',
    );
  });

  it('an update to an invalid aggregationRule is refused too, and the stored role keeps its rule', async () => {
    const role = {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: { name: 'sel-agg' },
      aggregationRule: { clusterRoleSelectors: [{ matchLabels: { agg: 'x' } }] },
    };
    expect((await call('POST', '/apis/rbac.authorization.k8s.io/v1/clusterroles', role)).status).toBe(201);
    const bad = {
      aggregationRule: { clusterRoleSelectors: [{ matchExpressions: [{ key: 'agg', operator: 'Sometimes' }] }] },
    };
    const patched = await call(
      'PATCH',
      '/apis/rbac.authorization.k8s.io/v1/clusterroles/sel-agg',
      bad,
      'application/merge-patch+json',
    );
    expect(patched.status).toBe(422);
    expect(patched.body.details.causes[0]).toEqual({
      reason: 'FieldValueInvalid',
      message: OPERATOR,
      field: 'aggregationRule.clusterRoleSelectors[0].matchExpressions[0].operator',
    });
    const stored = await call('GET', '/apis/rbac.authorization.k8s.io/v1/clusterroles/sel-agg');
    expect(stored.body.aggregationRule).toEqual(role.aggregationRule);
  });
});

// A LimitRange's items, a container's resources and its env as kube-apiserver v1.34 validates them
// (ValidateLimitRange, validateResourceRequirements, ValidateEnv); test/fidelity/scenarios/resources.ts
// compares the same cases with the real server in test:real.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiCalls } from '../helpers/api-call.js';
import { startTestServer, type TestServer } from '../helpers/apiserver.js';

let ts: TestServer;
beforeAll(async () => {
  ts = await startTestServer();
});
afterAll(async () => ts?.stop());

interface Body {
  spec?: { limits?: unknown[]; behavior?: unknown };
}

const { call, causes } = apiCalls<Body>(() => ts);
const create = (path: string, body: object) => call('POST', path, body);

let n = 0;
const limitRange = (limits: unknown[]) =>
  create('/api/v1/namespaces/default/limitranges', {
    apiVersion: 'v1',
    kind: 'LimitRange',
    metadata: { name: `lr-${n++}` },
    spec: { limits },
  });
const pod = (container: Record<string, unknown>) =>
  create('/api/v1/namespaces/default/pods', {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: `p-${n++}` },
    spec: { containers: [{ name: 'c', image: 'busybox', ...container }] },
  });

describe('LimitRange', () => {
  it('stores a valid Container item with its defaults', async () => {
    const a = await limitRange([{ type: 'Container', max: { cpu: '2' }, min: { memory: '64Mi' } }]);
    expect(a.status).toBe(201);
    expect(a.body.spec?.limits?.[0]).toMatchObject({
      default: { cpu: '2' },
      defaultRequest: { cpu: '2', memory: '64Mi' },
    });
  });

  it.each([
    [
      [{ type: 'Node', max: { cpu: '1' } }],
      'spec.limits[0].type: Invalid value: "Node": must be a standard limit type or fully qualified',
    ],
    [[{ type: 'Pod' }, { type: 'Pod' }], 'spec.limits[1].type: Duplicate value: "Pod"'],
    [
      [{ type: 'Pod', default: { cpu: '1' } }],
      "spec.limits[0].default: Forbidden: may not be specified when `type` is 'Pod'",
    ],
    [
      [{ type: 'Container', max: { pods: '1' } }],
      'spec.limits[0].max[pods]: Invalid value: "pods": must be a standard resource for containers',
    ],
    [
      [{ type: 'PersistentVolumeClaim', max: { cpu: '1' } }],
      'spec.limits[0].limits: Required value: either minimum or maximum storage value is required, but neither was provided',
    ],
    [
      [{ type: 'Pod', min: { cpu: '2' }, max: { cpu: '1500m' } }],
      'spec.limits[0].min[cpu]: Invalid value: "2": min value 2 is greater than max value 1500m',
    ],
    [
      [{ type: 'Pod', maxLimitRequestRatio: { cpu: '500m' } }],
      'spec.limits[0].maxLimitRequestRatio[cpu]: Invalid value: "500m": ratio 500m is less than 1',
    ],
    [
      [{ type: 'Pod', min: { cpu: '100m' }, max: { cpu: '1' }, maxLimitRequestRatio: { cpu: '20' } }],
      'spec.limits[0].maxLimitRequestRatio[cpu]: Invalid value: "20": ratio 20 is greater than max/min = 10.000000',
    ],
  ])('refuses %j', async (limits, cause) => {
    const a = await limitRange(limits);
    expect(a.status).toBe(422);
    expect(causes(a)).toContain(cause);
  });
});

describe('HorizontalPodAutoscaler metrics and behavior', () => {
  const hpa = (spec: Record<string, unknown>, version = 'v2') =>
    create(`/apis/autoscaling/${version}/namespaces/default/horizontalpodautoscalers`, {
      apiVersion: `autoscaling/${version}`,
      kind: 'HorizontalPodAutoscaler',
      metadata: { name: `h-${n++}` },
      spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'd' }, maxReplicas: 3, ...spec },
    });
  const cpu = (target: Record<string, unknown>) => ({ type: 'Resource', resource: { name: 'cpu', target } });

  it('defaults a behavior it is given and drops a tolerance (HPAConfigurableTolerance is off)', async () => {
    const a = await hpa({
      behavior: { scaleUp: { tolerance: '0.05' }, scaleDown: { stabilizationWindowSeconds: 60 } },
    });
    expect(a.status).toBe(201);
    expect((a.body.spec as { behavior?: unknown }).behavior).toEqual({
      scaleUp: {
        stabilizationWindowSeconds: 0,
        selectPolicy: 'Max',
        policies: [
          { type: 'Pods', value: 4, periodSeconds: 15 },
          { type: 'Percent', value: 100, periodSeconds: 15 },
        ],
      },
      scaleDown: {
        stabilizationWindowSeconds: 60,
        selectPolicy: 'Max',
        policies: [{ type: 'Percent', value: 100, periodSeconds: 15 }],
      },
    });
  });

  it.each([
    [
      { metrics: [cpu({ type: 'Utilization', averageUtilization: 0 })] },
      'spec.metrics[0].resource.target.averageUtilization: Invalid value: 0: must be greater than 0',
    ],
    [
      { metrics: [{ type: 'Pods' }] },
      'spec.metrics[0].pods: Required value: must populate information for the given metric source',
    ],
    [
      { metrics: [cpu({ type: 'AverageValue', averageValue: '-1' })] },
      'spec.metrics[0].resource.target.averageValue: Invalid value: "-1": must be positive',
    ],
    [
      { behavior: { scaleDown: { policies: [] } } },
      'spec.behavior.scaleDown.policies: Required value: must specify at least one Policy',
    ],
    [
      { behavior: { scaleUp: { policies: [{ type: 'Pods', value: 1, periodSeconds: 1801 }] } } },
      'spec.behavior.scaleUp.policies[0].periodSeconds: Invalid value: 1801: must be less than or equal to 1800',
    ],
  ])('refuses %j', async (spec, cause) => {
    const a = await hpa(spec);
    expect(a.status).toBe(422);
    expect(causes(a)).toContain(cause);
  });

  it('refuses a v1 CPU target below 1 at the metric it converts to', async () => {
    const a = await hpa({ targetCPUUtilizationPercentage: 0 }, 'v1');
    expect(causes(a)).toEqual([
      'spec.metrics[0].resource.target.averageUtilization: Invalid value: 0: must be greater than 0',
    ]);
  });
});

describe("a container's resources and env", () => {
  it.each([
    [
      { resources: { limits: { cpu: '1' }, requests: { cpu: '2' } } },
      'spec.containers[0].resources.requests: Invalid value: "2": must be less than or equal to cpu limit of 1',
    ],
    [
      { resources: { limits: { memory: '-1Mi' } } },
      'spec.containers[0].resources.limits[memory]: Invalid value: "-1Mi": must be greater than or equal to 0',
    ],
    [
      { resources: { limits: { 'example.com/gpu': '500m' } } },
      'spec.containers[0].resources.limits[example.com/gpu]: Invalid value: "500m": must be an integer',
    ],
    [
      { resources: { requests: { 'example.com/gpu': '1' } } },
      'spec.containers[0].resources.limits: Required value: Limit must be set for non overcommitable resources',
    ],
    [
      { resources: { limits: { 'hugepages-2Mi': '2Mi' } } },
      'spec.containers[0].resources: Forbidden: HugePages require cpu or memory',
    ],
    [{ env: [{ value: 'x' }] }, 'spec.containers[0].env[0].name: Required value'],
    [
      { env: [{ name: 'A', valueFrom: {} }] },
      'spec.containers[0].env[0].valueFrom: Invalid value: "": must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef` or `secretKeyRef`',
    ],
    [
      { env: [{ name: 'A', valueFrom: { configMapKeyRef: { name: 'm' } } }] },
      'spec.containers[0].env[0].valueFrom.configMapKeyRef.key: Required value',
    ],
    [
      { env: [{ name: 'A', valueFrom: { fieldRef: { fieldPath: 'spec.nothing' } } }] },
      'spec.containers[0].env[0].valueFrom.fieldRef.fieldPath: Invalid value: "spec.nothing": error converting fieldPath: field label not supported: spec.nothing',
    ],
    [
      { env: [{ name: 'A', valueFrom: { resourceFieldRef: { resource: 'limits.cpu', divisor: '2' } } }] },
      'spec.containers[0].env[0].valueFrom.resourceFieldRef.divisor: Invalid value: "limits.cpu": only divisor\'s values 1m and 1 are supported with the cpu resource',
    ],
    [
      { envFrom: [{ prefix: 'P_' }] },
      'spec.containers[0].envFrom: Invalid value: "": must specify one of: `configMapRef` or `secretRef`',
    ],
  ])('refuses %j', async (container, cause) => {
    const a = await pod(container);
    expect(a.status).toBe(422);
    expect(causes(a)).toContain(cause);
  });

  it('stores a container with env from every source and resources within their limits', async () => {
    const a = await pod({
      env: [
        { name: 'NAME', valueFrom: { fieldRef: { fieldPath: "metadata.labels['app']" } } },
        { name: 'CPU', valueFrom: { resourceFieldRef: { resource: 'limits.cpu', divisor: '1m' } } },
        { name: 'KEY', valueFrom: { secretKeyRef: { name: 's', key: 'k' } } },
        { name: 'weird.name-1', value: 'x' },
      ],
      envFrom: [{ configMapRef: { name: 'm' }, prefix: 'P_' }],
      resources: { limits: { cpu: '1', memory: '1Gi', 'example.com/gpu': 1 }, requests: { cpu: '500m' } },
    });
    expect(a.status).toBe(201);
  });
});

// config/default (kustomize) renders a complete install with the real kubectl, and the result
// applies to the embedded API server.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/apiserver.js';
import { kubectlFor, type Kubectl } from '../helpers/kubectl.js';
import {
  expectEngine,
  expectRbac,
  find,
  generatedCrds,
  kustomize,
  ofKind,
  parseManifests,
  type K8sObject,
} from './manifests.js';

const NS = 'flowops-system';
let rendered: string;
let objs: K8sObject[];

beforeAll(() => {
  rendered = kustomize('config/default');
  objs = parseManifests(rendered);
});

describe('kubectl kustomize config/default', () => {
  it('creates the flowops-system namespace and puts every namespaced object in it', () => {
    expect(find(objs, 'Namespace', NS)).toBeDefined();
    const clusterScoped = new Set(['Namespace', 'CustomResourceDefinition', 'ClusterRole', 'ClusterRoleBinding']);
    for (const o of objs.filter((x) => !clusterScoped.has(x.kind)))
      expect(o.metadata.namespace, `${o.kind}/${o.metadata.name}`).toBe(NS);
  });

  it('includes every generated CRD unchanged apart from labels', () => {
    const crds = generatedCrds();
    expect(crds.map((c) => c.crd.metadata.name)).toContain('flows.flowops.io');
    for (const { crd } of crds)
      expect(find(objs, 'CustomResourceDefinition', crd.metadata.name).spec).toEqual(crd.spec);
    expect(ofKind(objs, 'CustomResourceDefinition')).toHaveLength(crds.length);
  });

  it('grants the controller its own resources, leases, events, secrets, CRDs, and what Flows apply', () => {
    expectRbac(objs, {
      namespace: NS,
      serviceAccount: 'flowops',
      clusterRole: 'flowops',
      flowResourcesRole: 'flowops-flow-resources',
      leaderRole: 'flowops-leader-election',
    });
  });

  it('runs `run` and `worker` Deployments labelled app=flowops-engine, with metrics and webhook Services', () => {
    expectEngine(objs, {
      namespace: NS,
      controller: 'flowops-controller',
      worker: 'flowops-worker',
      metricsService: 'flowops-metrics',
      webhooksService: 'flowops-webhooks',
      uiService: 'flowops-ui',
      serviceAccount: 'flowops',
      leaseName: 'flowops-leader',
      redisUrl: 'redis://flowops-redis:6379',
    });
  });

  it('bundles a non-persistent Redis that REDIS_URL points at, with eviction off', () => {
    const svc = find(objs, 'Service', 'flowops-redis');
    expect(svc.spec.ports[0].port).toBe(6379);
    const redis = find(objs, 'Deployment', 'flowops-redis');
    expect(Object.entries(svc.spec.selector).every(([k, v]) => redis.spec.template.metadata.labels[k] === v)).toBe(
      true,
    );
    const args: string[] = redis.spec.template.spec.containers[0].args;
    expect(args.join(' ')).toContain('--maxmemory-policy noeviction');
    expect(args.join(' ')).toContain('--appendonly no');
  });

  it('labels every object and pod template app.kubernetes.io/name=flowops without touching selectors', () => {
    for (const o of objs)
      expect(o.metadata.labels?.['app.kubernetes.io/name'], `${o.kind}/${o.metadata.name}`).toBe('flowops');
    for (const d of ofKind(objs, 'Deployment')) {
      expect(d.spec.template.metadata.labels['app.kubernetes.io/name']).toBe('flowops');
      expect(d.spec.selector.matchLabels['app.kubernetes.io/name']).toBeUndefined();
    }
  });
});

describe('applying config/default to the embedded API server', () => {
  let server: TestServer;
  let kubectl: Kubectl;
  beforeAll(async () => {
    server = await startTestServer();
    kubectl = kubectlFor(server.kubeconfig, join(server.dir, 'kube-cache'));
  });
  afterAll(async () => server?.stop());

  it('creates every object; `-l app=flowops-engine` finds both Deployments', async () => {
    const out = await kubectl.ok(['apply', '-f', '-'], rendered);
    expect(out.trim().split('\n')).toHaveLength(objs.length);
    const deploys = await kubectl.ok(['get', 'deploy', '-n', NS, '-l', 'app=flowops-engine', '-o', 'name']);
    expect(deploys.trim().split('\n').sort()).toEqual([
      'deployment.apps/flowops-controller',
      'deployment.apps/flowops-worker',
    ]);
    const crds = await kubectl.ok(['get', 'crd', '-l', 'app.kubernetes.io/name=flowops', '-o', 'name']);
    expect(crds).toContain('customresourcedefinition.apiextensions.k8s.io/flows.flowops.io');
    // The CRDs serve: the API now lists Flows.
    expect((await kubectl(['get', 'flows', '-A'])).code).toBe(0);
    // A second apply is a no-op, as `kubectl apply -k` on an upgrade would be.
    const again = await kubectl.ok(['apply', '-f', '-'], rendered);
    expect(again).not.toMatch(/ (created|configured)$/m);
  });
});

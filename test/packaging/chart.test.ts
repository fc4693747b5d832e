// charts/flowops renders with the real helm (lint + template), produces the same install as
// config/default, keeps its CRD copies identical to config/crd, and applies to the embedded server.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/apiserver.js';
import { kubectlFor, type Kubectl } from '../helpers/kubectl.js';
import {
  CHART,
  CHART_CRD_DIR,
  chartCrdFiles,
  expectEngine,
  expectRbac,
  find,
  flagsOf,
  generatedCrds,
  helm,
  helmTemplate,
  kustomize,
  ofKind,
  parseManifests,
  type K8sObject,
} from './manifests.js';

const NS = 'flowops-system';
const names = (objs: K8sObject[]) => objs.map((o) => `${o.kind}/${o.metadata.name}`).sort();
const container = (objs: K8sObject[], deployment: string) =>
  find(objs, 'Deployment', deployment).spec.template.spec.containers[0];
const envOf = (c: { env: Array<{ name: string; value?: string; valueFrom?: unknown }> }, name: string) => {
  const e = c.env.find((x) => x.name === name);
  return e?.value ?? e?.valueFrom;
};

let defaults: K8sObject[];
let bundledText: string;
let bundled: K8sObject[];
beforeAll(() => {
  defaults = parseManifests(helmTemplate());
  bundledText = helmTemplate(['redis.bundled=true']);
  bundled = parseManifests(bundledText);
});

describe('helm lint / template charts/flowops', () => {
  it('lints clean, with default values and with the bundled Redis', () => {
    for (const extra of [[], ['--set', 'redis.bundled=true']]) {
      const r = helm(['lint', CHART, '--strict', ...extra]);
      expect(r.code, r.stdout + r.stderr).toBe(0);
    }
  });

  it('renders the engine like config/default: app=flowops-engine pods, run/worker flags, probes, Services', () => {
    for (const [objs, redisUrl] of [
      [defaults, 'redis://redis:6379'],
      [bundled, 'redis://flowops-redis:6379'],
    ] as const) {
      expectEngine(objs, {
        namespace: NS,
        controller: 'flowops-controller',
        worker: 'flowops-worker',
        metricsService: 'flowops-metrics',
        webhooksService: 'flowops-webhooks',
        uiService: 'flowops-ui',
        serviceAccount: 'flowops',
        leaseName: 'flowops-leader',
        redisUrl,
      });
      expectRbac(objs, {
        namespace: NS,
        serviceAccount: 'flowops',
        clusterRole: 'flowops',
        flowResourcesRole: 'flowops-flow-resources',
        leaderRole: 'flowops-leader-election',
      });
    }
  });

  it('with redis.bundled=true holds the same objects as config/default (which brings its own namespace)', () => {
    const fromKustomize = parseManifests(kustomize('config/default')).filter((o) => o.kind !== 'Namespace');
    expect(names(bundled)).toEqual(names(fromKustomize));
    expect(names(defaults)).toEqual(names(bundled).filter((n) => !n.endsWith('/flowops-redis')));
    // Same worker command line; `run` additionally gets the leader-election timings.
    expect(container(bundled, 'flowops-worker').args).toEqual(container(fromKustomize, 'flowops-worker').args);
    const kRun = flagsOf(container(fromKustomize, 'flowops-controller').args);
    const hRun = flagsOf(container(bundled, 'flowops-controller').args);
    for (const [flag, value] of kRun) expect(hRun.get(flag), flag).toBe(value);
  });

  it('passes the values through: replicas, concurrency, leader election timings, image, ports', () => {
    const objs = parseManifests(
      helmTemplate([
        'controller.replicas=3',
        'worker.replicas=5',
        'worker.concurrency=16',
        'leaderElection.leaseDuration=30s',
        'leaderElection.renewDeadline=20s',
        'leaderElection.retryPeriod=5s',
        'image.repository=registry.example/flowops',
        'image.tag=1.2.3',
        'image.pullPolicy=Always',
        'metrics.port=9090',
        'webhooks.port=9443',
        'worker.resources.limits.memory=4Gi',
      ]),
    );
    expect(find(objs, 'Deployment', 'flowops-controller').spec.replicas).toBe(3);
    expect(find(objs, 'Deployment', 'flowops-worker').spec.replicas).toBe(5);
    const run = container(objs, 'flowops-controller');
    const worker = container(objs, 'flowops-worker');
    expect(flagsOf(worker.args).get('concurrency')).toBe('16');
    const runFlags = flagsOf(run.args);
    expect([runFlags.get('lease-duration'), runFlags.get('renew-deadline'), runFlags.get('retry-period')]).toEqual([
      '30s',
      '20s',
      '5s',
    ]);
    expect(runFlags.get('metrics-listen')).toBe('0.0.0.0:9090');
    expect(run.ports.find((p: { name: string }) => p.name === 'webhooks').containerPort).toBe(9443);
    for (const c of [run, worker]) {
      expect(c.image).toBe('registry.example/flowops:1.2.3');
      expect(c.imagePullPolicy).toBe('Always');
      expect(c.ports.find((p: { name: string }) => p.name === 'metrics').containerPort).toBe(9090);
    }
    expect(worker.resources.limits.memory).toBe('4Gi');
    expect(find(objs, 'Service', 'flowops-metrics').spec.ports[0].port).toBe(9090);
    expect(find(objs, 'Service', 'flowops-webhooks').spec.ports[0].port).toBe(9443);
  });

  it('reads REDIS_URL from a Secret when redis.existingSecret is set, and refuses to render without any Redis', () => {
    const objs = parseManifests(helmTemplate(['redis.existingSecret=redis-auth']));
    for (const d of ['flowops-controller', 'flowops-worker'])
      expect(envOf(container(objs, d), 'REDIS_URL')).toEqual({ secretKeyRef: { name: 'redis-auth', key: 'url' } });
    const r = helm(['template', 'flowops', CHART, '--set', 'redis.url=']);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('set redis.url, redis.existingSecret or redis.bundled=true');
  });

  it('rejects values the schema forbids', () => {
    for (const bad of ['worker.concurrency=0', 'leaderElection.leaseDuration=15', 'image.pullPolicy=Sometimes']) {
      const r = helm(['template', 'flowops', CHART, '--set', bad]);
      expect(r.code, bad).not.toBe(0);
    }
  });

  it('turns off RBAC, the ServiceAccount, the CRDs and the webhook Service on request', () => {
    const objs = parseManifests(
      helmTemplate([
        'rbac.create=false',
        'serviceAccount.create=false',
        'serviceAccount.name=platform-sa',
        'installCRDs=false',
        'webhooks.enabled=false',
      ]),
    );
    expect(objs.filter((o) => o.apiVersion.startsWith('rbac.authorization.k8s.io/'))).toEqual([]);
    expect(ofKind(objs, 'ServiceAccount')).toEqual([]);
    expect(ofKind(objs, 'CustomResourceDefinition')).toEqual([]);
    expect(objs.find((o) => o.metadata.name === 'flowops-webhooks')).toBeUndefined();
    const run = container(objs, 'flowops-controller');
    expect(flagsOf(run.args).has('webhook-listen')).toBe(false);
    expect(run.ports.map((p: { name: string }) => p.name)).toEqual(['metrics']);
    expect(find(objs, 'Deployment', 'flowops-worker').spec.template.spec.serviceAccountName).toBe('platform-sa');
    expect(helm(['template', 'flowops', CHART, '--set', 'serviceAccount.create=false']).code).not.toBe(0);
  });

  it('narrows what Flows may touch through rbac.flowResourceRules', () => {
    const objs = parseManifests(
      helmTemplate([
        'rbac.flowResourceRules[0].apiGroups[0]=apps',
        'rbac.flowResourceRules[0].resources[0]=statefulsets',
        'rbac.flowResourceRules[0].verbs[0]=get',
      ]),
    );
    expect(find(objs, 'ClusterRole', 'flowops-flow-resources').rules).toEqual([
      { apiGroups: ['apps'], resources: ['statefulsets'], verbs: ['get'] },
    ]);
  });

  it('names objects after the release, so two releases do not collide', () => {
    const objs = parseManifests(helmTemplate([], { release: 'team-a', namespace: 'team-a' }));
    expect(find(objs, 'Deployment', 'team-a-flowops-controller').metadata.namespace).toBe('team-a');
    expect(flagsOf(container(objs, 'team-a-flowops-controller').args).get('lease-name')).toBe('team-a-flowops-leader');
    expect(find(objs, 'ClusterRoleBinding', 'team-a-flowops').subjects).toEqual([
      { kind: 'ServiceAccount', name: 'team-a-flowops', namespace: 'team-a' },
    ]);
    const worker = find(objs, 'Deployment', 'team-a-flowops-worker');
    expect(worker.spec.selector.matchLabels['app.kubernetes.io/instance']).toBe('team-a');
    expect(worker.spec.template.metadata.labels.app).toBe('flowops-engine');
  });
});

describe('chart CRDs', () => {
  it('are byte-for-byte the generated config/crd files (copy them after `npm run gen:crds`)', () => {
    const generated = generatedCrds();
    const hint = `run: cp ${generated.map((g) => `config/crd/${g.file}`).join(' ')} charts/flowops/files/crds/`;
    expect(chartCrdFiles(), hint).toEqual(generated.map((g) => g.file).sort());
    for (const { file, text } of generated)
      expect(readFileSync(join(CHART_CRD_DIR, file), 'utf8') === text, `${file} differs; ${hint}`).toBe(true);
  });

  it('render with the same spec, kept on uninstall', () => {
    for (const { crd } of generatedCrds()) {
      const rendered = find(defaults, 'CustomResourceDefinition', crd.metadata.name);
      expect(rendered.spec).toEqual(crd.spec);
      expect(rendered.metadata.annotations?.['helm.sh/resource-policy']).toBe('keep');
    }
  });
});

describe('applying the chart to the embedded API server', () => {
  let server: TestServer;
  let kubectl: Kubectl;
  beforeAll(async () => {
    server = await startTestServer();
    kubectl = kubectlFor(server.kubeconfig, join(server.dir, 'kube-cache'));
  });
  afterAll(async () => server?.stop());

  it('creates every object of the bundled-Redis install (namespace created first, as --create-namespace does)', async () => {
    await kubectl.ok(['create', 'namespace', NS]);
    const out = await kubectl.ok(['apply', '-f', '-'], bundledText);
    expect(out.trim().split('\n')).toHaveLength(bundled.length);
    const deploys = await kubectl.ok(['get', 'deploy', '-n', NS, '-l', 'app=flowops-engine', '-o', 'name']);
    expect(deploys.trim().split('\n').sort()).toEqual([
      'deployment.apps/flowops-controller',
      'deployment.apps/flowops-worker',
    ]);
    expect(await kubectl.ok(['get', 'deploy', 'flowops-redis', '-n', NS, '-o', 'name'])).toContain('flowops-redis');
    expect((await kubectl(['get', 'flowsources', '-A'])).code).toBe(0);
  });

  it('upgrades in place to the external-Redis values (the bundled Redis is left for helm to prune)', async () => {
    await kubectl.ok(['apply', '-f', '-'], helmTemplate(['redis.url=redis://redis.example:6379', 'worker.replicas=4']));
    const worker = JSON.parse(await kubectl.ok(['get', 'deploy', 'flowops-worker', '-n', NS, '-o', 'json']));
    expect(worker.spec.replicas).toBe(4);
    expect(envOf(worker.spec.template.spec.containers[0], 'REDIS_URL')).toBe('redis://redis.example:6379');
  });
});

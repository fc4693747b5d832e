// Shared by the packaging tests: render config/ (kustomize) and charts/flowops (helm) with the real
// binaries, parse the output, and check the objects both must contain in the same shape.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';
import { ROOT } from '../helpers/cli.js';
import { HELM, KUBECTL } from '../helpers/kubectl.js';

export { ROOT };
export const CHART = join(ROOT, 'charts/flowops');
export const CRD_DIR = join(ROOT, 'config/crd');
export const CHART_CRD_DIR = join(CHART, 'files/crds');

export type K8sObject = {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  [k: string]: any;
};

export function parseManifests(text: string): K8sObject[] {
  return parseAllDocuments(text)
    .map((d) => {
      if (d.errors.length) throw new Error(`invalid YAML in rendered output: ${d.errors[0]!.message}`);
      return d.toJS() as K8sObject | null;
    })
    .filter((o): o is K8sObject => o !== null && typeof o === 'object');
}

function run(
  binary: string,
  args: string[],
  env: Record<string, string> = {},
): { code: number; stdout: string; stderr: string } {
  const r = spawnSync(binary, args, {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, ...env },
    maxBuffer: 64 * 1024 * 1024,
  });
  if (r.error) throw r.error;
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

export function kustomize(dir: string): string {
  const r = run(KUBECTL, ['kustomize', dir]);
  if (r.code !== 0) throw new Error(`kubectl kustomize ${dir} failed (${r.code}): ${r.stderr}`);
  return r.stdout;
}

// Helm writes caches and config under these; keep them out of $HOME.
const helmHome = mkdtempSync(join(tmpdir(), 'flowops-helm-'));
const HELM_ENV = {
  HELM_CACHE_HOME: join(helmHome, 'cache'),
  HELM_CONFIG_HOME: join(helmHome, 'config'),
  HELM_DATA_HOME: join(helmHome, 'data'),
};

export function helm(args: string[]): { code: number; stdout: string; stderr: string } {
  return run(HELM, args, HELM_ENV);
}

/** `helm template <release> charts/flowops -n <namespace> [--set k=v ...]`, throwing on failure. */
export function helmTemplate(sets: string[] = [], opts: { release?: string; namespace?: string } = {}): string {
  const args = [
    'template',
    opts.release ?? 'flowops',
    CHART,
    '--namespace',
    opts.namespace ?? 'flowops-system',
    ...sets.flatMap((s) => ['--set', s]),
  ];
  const r = helm(args);
  if (r.code !== 0) throw new Error(`helm ${args.join(' ')} failed (${r.code}): ${r.stderr}`);
  return r.stdout;
}

export function find(objs: K8sObject[], kind: string, name: string): K8sObject {
  const o = objs.find((x) => x.kind === kind && x.metadata.name === name);
  if (!o) throw new Error(`no ${kind} ${name} among: ${objs.map((x) => `${x.kind}/${x.metadata.name}`).join(', ')}`);
  return o;
}

export const ofKind = (objs: K8sObject[], kind: string): K8sObject[] => objs.filter((o) => o.kind === kind);

/** The generated CRD files listed by config/crd/kustomization.yaml, parsed. */
export function generatedCrds(): Array<{ file: string; text: string; crd: K8sObject }> {
  const kustomization = parse(readFileSync(join(CRD_DIR, 'kustomization.yaml'), 'utf8')) as { resources: string[] };
  return kustomization.resources.map((file) => {
    const text = readFileSync(join(CRD_DIR, file), 'utf8');
    return { file, text, crd: parse(text) as K8sObject };
  });
}

export const chartCrdFiles = (): string[] =>
  readdirSync(CHART_CRD_DIR)
    .filter((f) => f.endsWith('.yaml'))
    .sort();

const labelsMatch = (selector: Record<string, string>, labels: Record<string, string> = {}): boolean =>
  Object.entries(selector).every(([k, v]) => labels[k] === v);

/** Flags passed to a container (`--name=value` or `--name value`), by name. */
export function flagsOf(args: string[]): Map<string, string> {
  const out = new Map<string, string>();
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (!a.startsWith('--')) continue;
    const eq = a.indexOf('=');
    if (eq > 0) out.set(a.slice(2, eq), a.slice(eq + 1));
    else out.set(a.slice(2), args[i + 1] && !args[i + 1]!.startsWith('--') ? args[++i]! : 'true');
  }
  return out;
}

export interface EngineNames {
  namespace: string;
  controller: string;
  worker: string;
  metricsService: string;
  webhooksService: string;
  uiService: string;
  serviceAccount: string;
  leaseName: string;
  redisUrl: string;
}

/**
 * What a FlowOps install must contain, whichever tool rendered it: the two engine Deployments with
 * the `app: flowops-engine` pod label, the flags of `run` / `worker`, probes, hardening, volumes,
 * and the metrics / webhook Services routing to the right pods.
 */
export function expectEngine(objs: K8sObject[], n: EngineNames): { controller: K8sObject; worker: K8sObject } {
  const controller = find(objs, 'Deployment', n.controller);
  const worker = find(objs, 'Deployment', n.worker);
  for (const [d, component] of [
    [controller, 'controller'],
    [worker, 'worker'],
  ] as const) {
    expect(d.metadata.namespace).toBe(n.namespace);
    expect(d.spec.replicas).toBe(2);
    const labels = d.spec.template.metadata.labels;
    expect(labels).toMatchObject({ app: 'flowops-engine', 'app.kubernetes.io/component': component });
    expect(labelsMatch(d.spec.selector.matchLabels, labels), `${d.metadata.name}: selector matches its pods`).toBe(
      true,
    );
    const pod = d.spec.template.spec;
    expect(pod.serviceAccountName).toBe(n.serviceAccount);
    expect(pod.securityContext).toMatchObject({
      runAsNonRoot: true,
      runAsUser: 65532,
      seccompProfile: { type: 'RuntimeDefault' },
    });
    expect(pod.containers).toHaveLength(1);
    const c = pod.containers[0];
    expect(c.image).toMatch(/^ghcr\.io\/flowops\/flowops:\d/);
    expect(c.args[0]).toBe(component === 'controller' ? 'run' : 'worker');
    expect(c.securityContext).toMatchObject({
      allowPrivilegeEscalation: false,
      readOnlyRootFilesystem: true,
      capabilities: { drop: ['ALL'] },
    });
    expect(c.resources.requests).toMatchObject({ cpu: expect.any(String), memory: expect.any(String) });
    expect(c.resources.limits).toMatchObject({ cpu: expect.any(String), memory: expect.any(String) });
    const metricsPort = c.ports.find((p: { name: string }) => p.name === 'metrics');
    expect(metricsPort.containerPort).toBe(8080);
    expect(flagsOf(c.args).get('metrics-listen')).toBe('0.0.0.0:8080');
    expect(c.livenessProbe.httpGet).toEqual({ path: '/healthz', port: 'metrics' });
    expect(c.readinessProbe.httpGet).toEqual({ path: '/readyz', port: 'metrics' });
    expect(c.startupProbe.httpGet).toEqual({ path: '/healthz', port: 'metrics' });
    // Read-only root: every writable path is an emptyDir.
    const mounts = Object.fromEntries(
      c.volumeMounts.map((m: { name: string; mountPath: string }) => [m.mountPath, m.name]),
    );
    expect(Object.keys(mounts).sort()).toEqual(['/data', '/tmp']);
    for (const vol of Object.values(mounts))
      expect(pod.volumes.find((v: { name: string }) => v.name === vol)).toHaveProperty('emptyDir');
    const env = Object.fromEntries(
      c.env.map((e: { name: string; value?: string; valueFrom?: unknown }) => [e.name, e.value ?? e.valueFrom]),
    );
    expect(env.REDIS_URL).toBe(n.redisUrl);
    expect(env.POD_NAMESPACE).toEqual({ fieldRef: { fieldPath: 'metadata.namespace' } });
  }

  const run = controller.spec.template.spec.containers[0];
  const runFlags = flagsOf(run.args);
  // $(POD_NAMESPACE) is expanded by the kubelet to the namespace the pod runs in.
  expect(runFlags.get('lease-namespace')).toBe('$(POD_NAMESPACE)');
  expect(runFlags.get('lease-name')).toBe(n.leaseName);
  // --webhook-listen is checked against `flowops run --help` in flags.test.ts.
  expect(run.ports.find((p: { name: string }) => p.name === 'webhooks').containerPort).toBe(8081);
  expect(flagsOf(worker.spec.template.spec.containers[0].args).get('concurrency')).toBe('4');

  // Services: metrics reaches every engine pod, webhooks only the `run` pods.
  const metrics = find(objs, 'Service', n.metricsService);
  const webhooks = find(objs, 'Service', n.webhooksService);
  expect(metrics.spec.ports).toEqual([expect.objectContaining({ name: 'metrics', port: 8080, targetPort: 'metrics' })]);
  expect(webhooks.spec.ports).toEqual([
    expect.objectContaining({ name: 'webhooks', port: 8081, targetPort: 'webhooks' }),
  ]);
  const podLabels = (d: K8sObject) => d.spec.template.metadata.labels as Record<string, string>;
  expect(labelsMatch(metrics.spec.selector, podLabels(controller))).toBe(true);
  expect(labelsMatch(metrics.spec.selector, podLabels(worker))).toBe(true);
  expect(labelsMatch(webhooks.spec.selector, podLabels(controller))).toBe(true);
  expect(labelsMatch(webhooks.spec.selector, podLabels(worker))).toBe(false);
  // The web view: the controller pods' metrics port (`flowops run` serves /ui/ there), nothing else.
  const ui = find(objs, 'Service', n.uiService);
  expect(ui.spec.ports).toEqual([expect.objectContaining({ name: 'http-ui', port: 80, targetPort: 'metrics' })]);
  expect(labelsMatch(ui.spec.selector, podLabels(controller))).toBe(true);
  expect(labelsMatch(ui.spec.selector, podLabels(worker))).toBe(false);
  // No other pods (e.g. the bundled Redis) behind the metrics Service.
  for (const d of ofKind(objs, 'Deployment').filter((x) => x !== controller && x !== worker)) {
    expect(
      labelsMatch(metrics.spec.selector, podLabels(d)),
      `${d.metadata.name} is not behind the metrics Service`,
    ).toBe(false);
  }
  return { controller, worker };
}

export interface RbacNames {
  namespace: string;
  serviceAccount: string;
  clusterRole: string;
  flowResourcesRole: string;
  leaderRole: string;
}

type Rule = { apiGroups: string[]; resources: string[]; verbs: string[] };

/** True when some rule grants `verb` on `group`/`resource` (with "*" wildcards). */
export function allows(rules: Rule[], group: string, resource: string, verb: string): boolean {
  return rules.some(
    (r) =>
      (r.apiGroups.includes('*') || r.apiGroups.includes(group)) &&
      (r.resources.includes('*') || r.resources.includes(resource)) &&
      (r.verbs.includes('*') || r.verbs.includes(verb)),
  );
}

export function expectRbac(objs: K8sObject[], n: RbacNames): void {
  const sa = find(objs, 'ServiceAccount', n.serviceAccount);
  expect(sa.metadata.namespace).toBe(n.namespace);
  const own: Rule[] = find(objs, 'ClusterRole', n.clusterRole).rules;
  const crud = ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete'];
  for (const res of ['flows', 'flowsources']) {
    for (const verb of crud) expect(allows(own, 'flowops.io', res, verb), `${verb} ${res}`).toBe(true);
    for (const sub of ['status', 'finalizers'])
      expect(allows(own, 'flowops.io', `${res}/${sub}`, 'update'), `update ${res}/${sub}`).toBe(true);
  }
  for (const verb of ['get', 'list', 'watch'])
    expect(allows(own, 'dcontroller.io', 'operators', verb), `${verb} operators`).toBe(true);
  expect(allows(own, 'dcontroller.io', 'operators/status', 'patch'), 'patch operators/status').toBe(true);
  for (const verb of ['create', 'patch']) expect(allows(own, '', 'events', verb)).toBe(true);
  for (const verb of ['get', 'list', 'watch']) {
    expect(allows(own, '', 'secrets', verb)).toBe(true);
    expect(allows(own, 'apiextensions.k8s.io', 'customresourcedefinitions', verb)).toBe(true);
  }
  expect(allows(own, '', 'secrets', 'create'), 'own role does not write Secrets').toBe(false);

  const flowRules: Rule[] = find(objs, 'ClusterRole', n.flowResourcesRole).rules;
  for (const verb of crud) expect(allows(flowRules, 'apps', 'statefulsets', verb)).toBe(true);
  // Listed verbs, never "*": no escalate / bind / impersonate.
  for (const verb of ['escalate', 'bind', 'impersonate', '*'])
    expect(
      flowRules.some((r) => r.verbs.includes(verb)),
      verb,
    ).toBe(false);

  const leader = find(objs, 'Role', n.leaderRole);
  expect(leader.metadata.namespace).toBe(n.namespace);
  for (const verb of ['get', 'create', 'update'])
    expect(allows(leader.rules, 'coordination.k8s.io', 'leases', verb)).toBe(true);

  const subject = { kind: 'ServiceAccount', name: n.serviceAccount, namespace: n.namespace };
  for (const [kind, role] of [
    ['ClusterRoleBinding', n.clusterRole],
    ['ClusterRoleBinding', n.flowResourcesRole],
    ['RoleBinding', n.leaderRole],
  ] as const) {
    const binding = objs.find((o) => o.kind === kind && o.roleRef?.name === role);
    expect(binding, `${kind} for ${role}`).toBeDefined();
    expect(binding!.subjects).toEqual([subject]);
  }
}

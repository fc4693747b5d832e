import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FLOWOPS_BIN } from '../helpers/cli.js';
import { find, flagsOf, helm, helmTemplate, kustomize, parseManifests, ROOT, type K8sObject } from './manifests.js';

// The admission webhook as the chart (admissionWebhook.*) and config/admission-webhook install it:
// a Service to the controller pods' admission port, the ValidatingWebhookConfiguration for Flow,
// FlowSource and Operator with the failurePolicy asked for, `flowops run` told to serve it with the
// Secret, configuration and host names those objects have, and RBAC for exactly those.

const runHelp = spawnSync(process.execPath, [FLOWOPS_BIN, 'run', '--help'], { cwd: ROOT, encoding: 'utf8' }).stdout;
const knownFlags = new Set([...runHelp.matchAll(/^\s+(?:-\w, )?--([\w-]+)/gm)].map((m) => m[1]));
const controllerArgs = (objs: K8sObject[]): string[] =>
  find(objs, 'Deployment', 'flowops-controller').spec.template.spec.containers[0].args;

function expectWebhook(objs: K8sObject[], failurePolicy: string): Map<string, string> {
  const vwc = find(objs, 'ValidatingWebhookConfiguration', 'flowops-validation');
  const hook = vwc.webhooks[0];
  expect(hook.clientConfig.service).toEqual({
    name: 'flowops-admission',
    namespace: 'flowops-system',
    path: '/validate',
    port: 443,
  });
  expect(hook.failurePolicy).toBe(failurePolicy);
  expect(hook.rules.flatMap((r: { resources: string[] }) => r.resources)).toEqual([
    'flows',
    'flowsources',
    'operators',
  ]);
  expect(find(objs, 'Service', 'flowops-admission').spec.ports[0].targetPort).toBe('admission');
  const args = controllerArgs(objs);
  for (const flag of flagsOf(args).keys()) expect(knownFlags.has(flag), `--${flag} unknown to flowops run`).toBe(true);
  return flagsOf(args);
}

describe('admission webhook install', () => {
  it('the chart installs nothing of it by default', () => {
    const objs = parseManifests(helmTemplate(['redis.bundled=true']));
    expect(objs.filter((o) => o.kind === 'ValidatingWebhookConfiguration')).toEqual([]);
    expect(controllerArgs(objs).some((a) => a.startsWith('--admission-'))).toBe(false);
  });

  it("the chart with FlowOps' own CA: the flags name the Secret, configuration and Service; RBAC limited to them", () => {
    const objs = parseManifests(
      helmTemplate(['redis.bundled=true', 'admissionWebhook.enabled=true', 'admissionWebhook.failurePolicy=Ignore']),
    );
    const flags = expectWebhook(objs, 'Ignore');
    expect(Object.fromEntries(flags)).toMatchObject({
      'admission-listen': '0.0.0.0:9443',
      'admission-secret': 'flowops-system/flowops-admission-certs',
      'admission-configuration': 'flowops-validation',
      'admission-hosts': 'flowops-admission.flowops-system.svc,flowops-admission.flowops-system.svc.cluster.local',
      'admission-cert-lifetime': '8760h',
    });
    expect(find(objs, 'Role', 'flowops-admission').rules[1]).toEqual({
      apiGroups: [''],
      resources: ['secrets'],
      resourceNames: ['flowops-admission-certs'],
      verbs: ['get', 'update'],
    });
    expect(find(objs, 'ClusterRole', 'flowops-admission').rules[0].resourceNames).toEqual(['flowops-validation']);
  });

  it('the chart with cert-manager: a Certificate for the Service, its Secret mounted, the CA injected', () => {
    const objs = parseManifests(
      helmTemplate([
        'redis.bundled=true',
        'admissionWebhook.enabled=true',
        'admissionWebhook.certificates.source=cert-manager',
      ]),
    );
    const flags = expectWebhook(objs, 'Fail');
    expect(flags.get('admission-cert-dir')).toBe('/etc/flowops/admission-certs');
    expect(find(objs, 'ValidatingWebhookConfiguration', 'flowops-validation').metadata.annotations).toEqual({
      'cert-manager.io/inject-ca-from': 'flowops-system/flowops-admission',
    });
    const cert = find(objs, 'Certificate', 'flowops-admission');
    expect(cert.spec).toMatchObject({
      secretName: 'flowops-admission-certs',
      dnsNames: ['flowops-admission.flowops-system.svc', 'flowops-admission.flowops-system.svc.cluster.local'],
      issuerRef: { kind: 'Issuer', name: 'flowops-admission' },
    });
    const pod = find(objs, 'Deployment', 'flowops-controller').spec.template.spec;
    expect(pod.volumes).toContainEqual({ name: 'admission-certs', secret: { secretName: 'flowops-admission-certs' } });
    expect(objs.some((o) => o.kind === 'Role' && o.metadata.name === 'flowops-admission')).toBe(false);
  });

  it('the chart refuses a failurePolicy kube-apiserver does not know', () => {
    const r = helm([
      'template',
      'flowops',
      join(ROOT, 'charts/flowops'),
      '--set',
      'redis.bundled=true',
      '--set',
      'admissionWebhook.failurePolicy=Sometimes',
    ]);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('failurePolicy');
  });

  it('config/admission-webhook as a Component of an overlay of config/default', () => {
    const dir = mkdtempSync(join(tmpdir(), 'flowops-overlay-'));
    cpSync(join(ROOT, 'config'), join(dir, 'config'), { recursive: true });
    mkdirSync(join(dir, 'overlay'));
    writeFileSync(
      join(dir, 'overlay/kustomization.yaml'),
      'apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources: [../config/default]\ncomponents: [../config/admission-webhook]\n',
    );
    const objs = parseManifests(kustomize(join(dir, 'overlay')));
    const flags = expectWebhook(objs, 'Fail');
    // The rest are `flowops run`'s defaults, which name these very objects.
    expect(Object.fromEntries(flags)).toMatchObject({ 'admission-listen': '0.0.0.0:9443' });
    expect(runHelp).toContain('flowops-system/flowops-admission-certs');
    expect(runHelp.replace(/\s+/g, ' ')).toContain(
      'flowops-admission.flowops-system.svc,flowops-admission.flowops-system.svc.cluster.local',
    );
    expect(find(objs, 'Role', 'flowops-admission').rules[1].resourceNames).toEqual(['flowops-admission-certs']);
  });
});

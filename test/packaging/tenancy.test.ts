import { cpSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { allows, find, helmTemplate, kustomize, parseManifests, ROOT, type K8sObject } from './manifests.js';

// The lockdown as a user installs it: the chart's tenancy values and config/tenancy (a kustomize
// Component) both pass the flags to run and worker and leave FlowOps' flow-resources role reading
// and impersonating ServiceAccounts only.

function argsOf(objs: K8sObject[], name: string): string[] {
  return find(objs, 'Deployment', name).spec.template.spec.containers[0].args as string[];
}

function expectLockdown(objs: K8sObject[], names: { controller: string; worker: string; flowRole: string }): void {
  for (const d of [names.controller, names.worker])
    expect(argsOf(objs, d)).toEqual(
      expect.arrayContaining(['--default-service-account=flow-runner', '--no-cross-namespace-refs']),
    );
  const rules = find(objs, 'ClusterRole', names.flowRole).rules;
  expect(allows(rules, 'apps', 'statefulsets', 'get')).toBe(true);
  expect(allows(rules, 'apps', 'statefulsets', 'watch')).toBe(true);
  for (const verb of ['create', 'update', 'patch', 'delete'])
    expect(allows(rules, 'apps', 'statefulsets', verb), verb).toBe(false);
  expect(allows(rules, '', 'serviceaccounts', 'impersonate')).toBe(true);
  expect(allows(rules, '', 'groups', 'impersonate')).toBe(false);
  expect(allows(rules, '', 'users', 'impersonate')).toBe(false);
}

describe('multi-tenancy in the install', () => {
  it('chart: tenancy.defaultServiceAccount and tenancy.crossNamespaceRefs', () => {
    const objs = parseManifests(
      helmTemplate(['tenancy.defaultServiceAccount=flow-runner', 'tenancy.crossNamespaceRefs=false']),
    );
    expectLockdown(objs, {
      controller: 'flowops-controller',
      worker: 'flowops-worker',
      flowRole: 'flowops-flow-resources',
    });
  });

  it('chart defaults: no lockdown flags, the flow-resources role as configured', () => {
    const objs = parseManifests(helmTemplate());
    expect(
      argsOf(objs, 'flowops-controller').some(
        (a) => a.startsWith('--default-service-account') || a === '--no-cross-namespace-refs',
      ),
    ).toBe(false);
    expect(allows(find(objs, 'ClusterRole', 'flowops-flow-resources').rules, 'apps', 'statefulsets', 'create')).toBe(
      true,
    );
  });

  it('config/tenancy as a Component of an overlay of config/default', () => {
    const dir = mkdtempSync(join(tmpdir(), 'flowops-overlay-'));
    cpSync(join(ROOT, 'config'), join(dir, 'config'), { recursive: true });
    mkdirSync(join(dir, 'overlay'));
    writeFileSync(
      join(dir, 'overlay/kustomization.yaml'),
      'apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources: [../config/default]\ncomponents: [../config/tenancy]\n',
    );
    const objs = parseManifests(kustomize(join(dir, 'overlay')));
    expectLockdown(objs, {
      controller: 'flowops-controller',
      worker: 'flowops-worker',
      flowRole: 'flowops-flow-resources',
    });
  });
});

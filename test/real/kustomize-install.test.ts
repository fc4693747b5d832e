import { join } from 'node:path';
import { expect, it } from 'vitest';
import { ROOT } from '../helpers/cli.js';
import { describeReal, realControlPlane } from './control-plane.js';

// `kubectl apply -k config/default` exactly as docs/install.md tells a user, against a real
// kube-apiserver: every object is accepted (schemas, RBAC escalation checks, admission), and the
// ServiceAccount ends up with the rights FlowOps needs. No pod runs (no kubelet), as in envtest.

const NS = 'flowops-system';
const SA = `system:serviceaccount:${NS}:flowops`;
const controlPlane = realControlPlane();

describeReal('kubectl apply -k config/default on a real kube-apiserver', () => {
  it('creates the CRDs, RBAC, Deployments and Services, and applying again changes nothing', async () => {
    const { kubectl } = controlPlane();
    await kubectl.ok(['apply', '-k', join(ROOT, 'config/default')]);

    for (const crd of ['flows.flowops.io', 'flowsources.flowops.io', 'operators.dcontroller.io']) {
      await kubectl.ok(['wait', '--for=condition=Established', `crd/${crd}`, '--timeout=60s']);
    }
    expect((await kubectl.ok(['get', 'clusterrole,clusterrolebinding', '-o', 'name'])).split('\n')).toEqual(
      expect.arrayContaining(['clusterrole.rbac.authorization.k8s.io/flowops', 'clusterrole.rbac.authorization.k8s.io/flowops-flow-resources', 'clusterrolebinding.rbac.authorization.k8s.io/flowops', 'clusterrolebinding.rbac.authorization.k8s.io/flowops-flow-resources']),
    );
    const inNamespace = (await kubectl.ok(['get', 'deployment,service,serviceaccount,role,rolebinding', '-n', NS, '-o', 'name'])).split('\n');
    expect(inNamespace).toEqual(
      expect.arrayContaining(['deployment.apps/flowops-controller', 'deployment.apps/flowops-worker', 'service/flowops-metrics', 'serviceaccount/flowops', 'role.rbac.authorization.k8s.io/flowops-leader-election', 'rolebinding.rbac.authorization.k8s.io/flowops-leader-election']),
    );
    // The Flow CRD is served: the printer columns and short name work through discovery.
    expect(await kubectl.ok(['get', 'flows', '-A'])).toBe('');

    // The real server's defaulting does not fight the manifests: a second apply is a no-op.
    const diff = await kubectl(['diff', '-k', join(ROOT, 'config/default')]);
    expect(diff.code, diff.stdout + diff.stderr).toBe(0);
  });

  it("gives the ServiceAccount what FlowOps uses, and not what it must not have", async () => {
    const { kubectl } = controlPlane();
    const can = async (...args: string[]) => (await kubectl(['auth', 'can-i', `--as=${SA}`, ...args])).stdout.trim();
    expect(await can('watch', 'flows.flowops.io', '-A')).toBe('yes');
    expect(await can('patch', 'flows.flowops.io/status', '-A')).toBe('yes');
    expect(await can('update', 'leases.coordination.k8s.io', '-n', NS)).toBe('yes');
    expect(await can('create', 'events.events.k8s.io', '-n', 'default')).toBe('yes');
    expect(await can('list', 'customresourcedefinitions.apiextensions.k8s.io')).toBe('yes');
    expect(await can('create', 'statefulsets.apps', '-n', 'default')).toBe('yes');
    // escalate, bind and impersonate are left out on purpose (config/rbac/role.yaml).
    expect(await can('impersonate', 'users')).toBe('no');
    expect(await can('escalate', 'clusterroles.rbac.authorization.k8s.io')).toBe('no');
  });
});

import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { WIDGET_CRD } from '../fixtures/widgets.js';
import { ROOT } from '../helpers/cli.js';
import { startGitServer, type GitServer, type TestRepo } from '../helpers/git-server.js';
import { waitFor } from '../helpers/wait.js';
import { describeReal, realControlPlane, type RealControlPlane } from './control-plane.js';
import { startFlowOps, type FlowOpsCluster } from './flowops-processes.js';
import { startFlux, type FluxControllers } from './flux-controllers.js';
import { getJson, helmIn, type Json } from './kube-json.js';
import { serviceAccountKubeconfig } from './service-account.js';

// FlowOps beside real Flux (source-controller + kustomize-controller built from source) on the
// real kube-apiserver: one Git repository, a Flux Kustomization syncing ./flux and a FlowSource
// syncing ./flowops into the same cluster. Flux delivers a Flow (CRD, Flow, Widget) that FlowOps
// runs, and Flux's `wait: true` reads the health FlowOps writes (kstatus). An object Flux tracks
// is left alone by FlowOps unless it says flowops.io/adopt: "true"; Flux sees nothing change.

const NS = 'flowops-flux';
const RELEASE = 'flowops-flux';
const controlPlane = realControlPlane();

const configMap = (name: string, owner: string, annotations: Record<string, string> = {}) => `apiVersion: v1
kind: ConfigMap
metadata:
  name: ${name}
  namespace: default
  annotations: ${JSON.stringify(annotations)}
data:
  owner: ${owner}
`;

// A Flow as a Flux path carries it: namespaced explicitly (kustomize-controller has no default).
const flow = (name: string, kind: string, manifests: string) => `apiVersion: flowops.io/v1
kind: Flow
metadata:
  name: ${name}
  namespace: default
spec:
  watch:
    apiVersion: example.com/v1
    kind: ${kind}
  reconcile:
    steps:
      - name: make-config
        type: kubectl
        action: apply
        manifests: |
${manifests.replace(/^/gm, '          ')}
`;
const GREETER = flow(
  'greeter',
  'Widget',
  'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: "{{ .Resource.metadata.name }}-greeting"\n  namespace: "{{ .Resource.metadata.namespace }}"\ndata:\n  hello: world',
);
const WIDGET =
  'apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: w1\n  namespace: default\nspec:\n  size: 1\n';
// The same Widget CRD, renamed: a second watched kind whose Flow fails for good (a ConfigMap name
// that is no DNS-1123 subdomain: the server's 422 is a terminal error, so the object goes Stalled).
const GADGET_CRD = WIDGET_CRD.replaceAll('widgets', 'gadgets')
  .replaceAll('Widget', 'Gadget')
  .replaceAll('widget', 'gadget')
  .replace('shortNames: [wd]', 'shortNames: [gd]');
const BROKEN = flow(
  'broken',
  'Gadget',
  'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: "{{ .Resource.metadata.name }}_Broken"\n  namespace: "{{ .Resource.metadata.namespace }}"',
);
const gadget = (name: string) =>
  `apiVersion: example.com/v1\nkind: Gadget\nmetadata:\n  name: ${name}\n  namespace: default\nspec:\n  size: 1\n`;
// What docs/gitops-tools.md tells Flux users to add for a kind a Flow watches: health read from
// FlowOps' conditions by CEL, so an object FlowOps has not reconciled yet is in progress, not Current.
const HEALTH_CHECK_EXPRS = [
  {
    apiVersion: 'example.com/v1',
    kind: 'Gadget',
    inProgress:
      "!has(status.conditions) || status.conditions.all(e, e.type != 'Ready' || e.observedGeneration != metadata.generation)",
    failed: "status.conditions.exists(e, e.type == 'Stalled' && e.status == 'True')",
    current: "status.conditions.exists(e, e.type == 'Ready' && e.status == 'True')",
  },
];

describeReal(
  'FlowOps beside real Flux: two paths of one repository, a Flow delivered by Flux, kstatus, hands off Flux objects',
  () => {
    let cp: RealControlPlane;
    let flux: FluxControllers | undefined;
    let flowops: FlowOpsCluster | undefined;
    let git: GitServer | undefined;
    let repo: TestRepo;
    let firstSha: string;

    beforeAll(async () => {
      if (!inject('fluxDir')) return;
      cp = controlPlane();
      git = await startGitServer();
      repo = git.repo('fleet');
      firstSha = await repo.commit({
        'flux/crd.yaml': WIDGET_CRD,
        'flux/flow.yaml': GREETER,
        'flux/widget.yaml': WIDGET,
        'flux/shared.yaml': configMap('shared', 'flux'),
        'flux/gadget-crd.yaml': GADGET_CRD,
        'flux-broken/flow.yaml': BROKEN,
        'flux-broken/gadget.yaml': gadget('g1'),
        'flux-broken-cel/gadget.yaml': gadget('g2'),
        'flowops/own.yaml': configMap('flowops-own', 'flowops'),
        'flowops/shared.yaml': configMap('shared', 'flowops'),
      });
      const r = await helmIn(cp, ['install', RELEASE, join(ROOT, 'charts/flowops'), '-n', NS, '--create-namespace']);
      expect(r.code, r.stderr).toBe(0);
      await cp.kubectl.ok([
        'wait',
        '--for=condition=Established',
        'crd/flowsources.flowops.io',
        'crd/flows.flowops.io',
        '--timeout=60s',
      ]);
      flowops = await startFlowOps({
        kubeconfig: await serviceAccountKubeconfig(cp, NS, RELEASE),
        dataDir: mkdtempSync(join(cp.dir, 'flowops-data-')),
        leaseNamespace: NS,
        leaseName: `${RELEASE}-leader`,
      });
      flux = await startFlux(cp);
      const gitRepository = {
        apiVersion: 'source.toolkit.fluxcd.io/v1',
        kind: 'GitRepository',
        metadata: { name: 'fleet', namespace: flux.namespace },
        spec: { url: repo.url, ref: { branch: 'main' }, interval: '1h' },
      };
      const kustomization = (name: string, path: string, extra: Record<string, unknown> = {}) => ({
        apiVersion: 'kustomize.toolkit.fluxcd.io/v1',
        kind: 'Kustomization',
        metadata: { name, namespace: flux!.namespace },
        spec: {
          sourceRef: { kind: 'GitRepository', name: 'fleet' },
          path,
          prune: true,
          interval: '1h',
          wait: true,
          timeout: '45s',
          ...extra,
        },
      });
      const afterFleet = { dependsOn: [{ name: 'fleet' }] };
      const flowSource = {
        apiVersion: 'flowops.io/v1',
        kind: 'FlowSource',
        metadata: { name: 'fleet', namespace: 'default' },
        spec: { url: repo.url, ref: { branch: 'main' }, path: 'flowops', interval: '1h' },
      };
      // Flux first: FlowOps meets `shared` already tracked by Flux, as on a cluster Flux ran before.
      await cp.kubectl.ok(
        ['apply', '-f', '-'],
        [
          gitRepository,
          kustomization('fleet', './flux'),
          kustomization('broken', './flux-broken', afterFleet),
          kustomization('broken-cel', './flux-broken-cel', { ...afterFleet, healthCheckExprs: HEALTH_CHECK_EXPRS }),
        ]
          .map((o) => JSON.stringify(o))
          .join('\n'),
      );
      await waitFor(async () => condition(await kustomizationOf('fleet'), 'Ready')?.status === 'True', {
        what: `Kustomization fleet Ready\n${logs()}`,
        timeoutMs: 150_000,
      });
      await cp.kubectl.ok(['apply', '-f', '-'], JSON.stringify(flowSource));
      await waitFor(async () => (await sourceOf())?.status?.lastAppliedRevision === `main@sha1:${firstSha}`, {
        what: `FlowSource fleet at ${firstSha}\n${logs()}`,
        timeoutMs: 60_000,
      });
    }, 300_000);
    afterAll(async () => {
      await flux?.stop();
      await flowops?.stop();
      await git?.stop();
    });

    const logs = () => `${flowops?.logs() ?? ''}\n${flux?.logs() ?? ''}`;
    const kustomizationOf = (name: string) => getJson(cp, ['get', 'kustomization', name, '-n', 'flux-system']);
    const sourceOf = () => getJson(cp, ['get', 'flowsource', 'fleet', '-n', 'default']);
    const get = (kind: string, name: string) =>
      getJson(cp, ['get', kind, name, '-n', 'default', '--show-managed-fields']);
    const managers = (o: Json | undefined) => (o?.metadata.managedFields ?? []).map((m: Json) => m.manager as string);
    const itWithFlux = inject('fluxDir') ? it : it.skip;

    itWithFlux(
      "the Kustomization and the FlowSource each apply their own path of the repository; neither takes the other's objects",
      async () => {
        const fleet = await kustomizationOf('fleet');
        expect(fleet!.status.lastAppliedRevision).toBe(`main@sha1:${firstSha}`);
        const fluxInventory = (fleet!.status.inventory?.entries ?? []).map((e: Json) => e.id as string);
        expect(fluxInventory).toContain('default_shared__ConfigMap');
        expect(fluxInventory).toContain('default_greeter_flowops.io_Flow');
        expect(fluxInventory.some((id: string) => id.includes('flowops-own'))).toBe(false);

        const own = await get('configmap', 'flowops-own');
        expect(own!.metadata.annotations['flowops.io/source']).toBe('default/fleet');
        expect(own!.metadata.annotations['flowops.io/revision']).toBe(`main@sha1:${firstSha}`);
        expect(Object.keys(own!.metadata.labels ?? {}).some((l) => l.includes('fluxcd.io'))).toBe(false);
        const inventory = ((await sourceOf())!.status.inventory ?? []).map((e: Json) => `${e.kind}/${e.name}`);
        expect(inventory).toContain('ConfigMap/flowops-own');
        expect(inventory).not.toContain('ConfigMap/shared');
      },
    );

    itWithFlux(
      "a Flow delivered by Flux runs in FlowOps, and Flux's wait: true reads its health and the watched object's",
      async () => {
        const greeting = await waitFor(() => get('configmap', 'w1-greeting'), {
          what: `ConfigMap w1-greeting made by the Flow Flux delivered\n${logs()}`,
          timeoutMs: 60_000,
        });
        expect(greeting.metadata.labels['flowops.io/flow']).toBe('greeter');
        const greeter = await get('flow', 'greeter');
        expect(condition(greeter, 'Ready')?.status).toBe('True');
        expect(greeter!.metadata.labels['kustomize.toolkit.fluxcd.io/name']).toBe('fleet');
        // wait: true made Flux poll the Flow and the Widget with kstatus before it said Ready.
        const fleet = await kustomizationOf('fleet');
        expect(condition(fleet, 'Healthy')?.status).toBe('True');
        expect(condition(await get('widget', 'w1'), 'Ready')?.status).toBe('True');

        // A Gadget whose Flow fails for good goes Stalled (kstatus: Failed), and Flux's health check
        // says so. Flux's first health check ran before FlowOps' first reconcile: an object with no
        // status reads Current to kstatus (docs/flux.md: healthCheckExprs closes that window), so the
        // check that counts is the next one.
        const g1 = await waitFor(
          async () => {
            const g = await get('gadget', 'g1');
            return condition(g, 'Stalled')?.status === 'True' ? g : undefined;
          },
          { what: `Gadget g1 Stalled\n${logs()}`, timeoutMs: 60_000 },
        );
        expect(condition(g1, 'Ready')).toMatchObject({ status: 'False' });
        const requestedAt = `${Date.now()}`;
        await cp.kubectl.ok([
          'annotate',
          '--overwrite',
          '-n',
          'flux-system',
          'kustomization/broken',
          `reconcile.fluxcd.io/requestedAt=${requestedAt}`,
        ]);
        const broken = await waitFor(
          async () => {
            const k = await kustomizationOf('broken');
            return k?.status.lastHandledReconcileAt === requestedAt && condition(k, 'Ready')?.status === 'False'
              ? k
              : undefined;
          },
          { what: `Kustomization broken failing its health check on Gadget g1\n${logs()}`, timeoutMs: 120_000 },
        );
        expect(condition(broken, 'Ready')).toMatchObject({
          reason: 'HealthCheckFailed',
          message: expect.stringContaining('Gadget/default/g1'),
        });

        // With healthCheckExprs the first health check already waits for FlowOps and fails on Stalled.
        const cel = await waitFor(
          async () => {
            const k = await kustomizationOf('broken-cel');
            return condition(k, 'Ready')?.status === 'False' && condition(k, 'Ready')?.reason === 'HealthCheckFailed'
              ? k
              : undefined;
          },
          {
            what: `Kustomization broken-cel failing its first health check on Gadget g2\n${logs()}`,
            timeoutMs: 120_000,
          },
        );
        expect(condition(cel, 'Ready')!.message).toContain('Gadget/default/g2');
        expect(cel!.status.lastHandledReconcileAt).toBeUndefined();
      },
      240_000,
    );

    itWithFlux(
      'an object Flux tracks is skipped with its reason, and Flux never sees it change; flowops.io/adopt: "true" hands it over',
      async () => {
        const skipped = (await sourceOf())!.status.skipped as Json[];
        expect(skipped).toEqual([
          expect.objectContaining({
            kind: 'ConfigMap',
            name: 'shared',
            reason: expect.stringContaining('tracked by Flux Kustomization flux-system/fleet'),
          }),
        ]);
        const before = await get('configmap', 'shared');
        expect(before!.data.owner).toBe('flux');
        expect(managers(before)).toEqual(['kustomize-controller']);

        // Flux reconciles again: nothing drifted under it, so it applies nothing and the object is as it left it.
        const requestedAt = `${Date.now()}`;
        await cp.kubectl.ok([
          'annotate',
          '--overwrite',
          '-n',
          'flux-system',
          'kustomization/fleet',
          `reconcile.fluxcd.io/requestedAt=${requestedAt}`,
        ]);
        const again = await waitFor(
          async () => {
            const k = await kustomizationOf('fleet');
            return k?.status.lastHandledReconcileAt === requestedAt && condition(k, 'Ready')?.status === 'True'
              ? k
              : undefined;
          },
          { what: `Kustomization fleet reconciled again\n${logs()}`, timeoutMs: 90_000 },
        );
        expect(condition(again, 'Ready')!.message).toContain(`main@sha1:${firstSha}`);
        const after = await get('configmap', 'shared');
        expect(after!.metadata.resourceVersion).toBe(before!.metadata.resourceVersion);

        // The commit that says adopt: FlowOps takes the object over (its own field manager, its value).
        const adoptSha = await repo.commit({
          'flowops/shared.yaml': configMap('shared', 'flowops', { 'flowops.io/adopt': 'true' }),
        });
        await cp.kubectl.ok([
          'annotate',
          '--overwrite',
          '-n',
          'default',
          'flowsource/fleet',
          `flowops.io/reconcile-requested-at=${Date.now()}`,
        ]);
        await waitFor(async () => (await sourceOf())?.status?.lastAppliedRevision === `main@sha1:${adoptSha}`, {
          what: `FlowSource fleet at ${adoptSha}\n${logs()}`,
          timeoutMs: 60_000,
        });
        const adopted = await get('configmap', 'shared');
        expect(adopted!.data.owner).toBe('flowops');
        expect(adopted!.metadata.annotations['flowops.io/source']).toBe('default/fleet');
        expect(managers(adopted).length).toBeGreaterThan(1);
      },
    );
  },
);

function condition(o: Json | undefined, type: string): Json | undefined {
  return (o?.status?.conditions as Json[] | undefined)?.find((c) => c.type === type);
}

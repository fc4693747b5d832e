import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/apiserver.js';
import { startGitServer, type GitServer, type TestRepo } from '../helpers/git-server.js';
import { kubectlFor, type Kubectl } from '../helpers/kubectl.js';
import { waitFor } from '../helpers/wait.js';
import {
  FLUX_LEASES,
  inClusterNamespaceUnavailable,
  startFlux,
  type FluxController,
  type FluxControllers,
} from './flux-controllers.js';

/**
 * Flux's source-controller and kustomize-controller v1.9.6 on the embedded API server as a Flux install runs them:
 * leader election on (its coordination.k8s.io/v1 Lease created and renewed in protobuf, as client-go sends it),
 * two replicas of source-controller of which one stands by, a GitRepository and a Kustomization reconciled. Out of
 * cluster, controller-runtime finds its Lease namespace only in the in-cluster namespace file: each controller gets
 * one in a mount namespace of its own (scripts/control-plane/in-cluster-namespace.sh).
 */

const skipReason = !inject('fluxDir')
  ? 'Flux is not built here (scripts/control-plane/build-flux.sh)'
  : inClusterNamespaceUnavailable();
if (skipReason) console.warn(`flux-on-embedded: skipped, ${skipReason}`);

/** Lines that mean the server refused or could not read what the controllers sent. */
const WIRE_TROUBLE = /no protobuf decoder|unknown format|cannot be handled as|does not implement the protobuf/;
/** client-go's leaderelection line once a replica holds the Lease. */
const ACQUIRED = /successfully acquired lease/i;

interface Lease {
  metadata: { resourceVersion: string };
  spec: { holderIdentity?: string; renewTime?: string; leaseDurationSeconds?: number; leaseTransitions?: number };
}
interface Condition {
  type: string;
  status: string;
  message?: string;
}
interface FluxObject {
  status?: { conditions?: Condition[]; artifact?: { revision?: string }; lastAppliedRevision?: string };
}

const configMap = (value: string): string =>
  `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: delivered\n  namespace: default\ndata:\n  value: ${value}\n`;

describe.skipIf(!!skipReason)('Flux with leader election on, on the embedded API server', () => {
  let ts: TestServer;
  let kubectl: Kubectl;
  let git: GitServer | undefined;
  let repo: TestRepo;
  let flux: FluxControllers | undefined;
  let firstSha: string;
  const NS = 'flux-system';

  const get = async <T>(path: string): Promise<T | undefined> => {
    const r = await fetch(`${ts.server.url}${path}`);
    return r.status === 200 ? ((await r.json()) as T) : undefined;
  };
  const lease = (name: string) => get<Lease>(`/apis/coordination.k8s.io/v1/namespaces/${NS}/leases/${name}`);
  const gitRepository = () =>
    get<FluxObject>(`/apis/source.toolkit.fluxcd.io/v1/namespaces/${NS}/gitrepositories/fleet`);
  const kustomization = () =>
    get<FluxObject>(`/apis/kustomize.toolkit.fluxcd.io/v1/namespaces/${NS}/kustomizations/fleet`);
  const delivered = () => get<{ data?: { value?: string } }>('/api/v1/namespaces/default/configmaps/delivered');
  const ready = (o: FluxObject | undefined): boolean =>
    o?.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false;
  const logs = (): string => flux?.logs() ?? '';
  const sources = (): FluxController[] => flux?.controllers.filter((c) => c.name.startsWith('source-')) ?? [];
  const running = (c: FluxController): boolean => c.child.exitCode === null && c.child.signalCode === null;

  beforeAll(async () => {
    ts = await startTestServer();
    kubectl = kubectlFor(ts.kubeconfig, mkdtempSync(join(ts.dir, 'kubectl-cache-')));
    git = await startGitServer();
    repo = git.repo('fleet');
    firstSha = await repo.commit({ 'app/configmap.yaml': configMap('first') });
    flux = await startFlux(
      { dir: ts.dir, kubeconfig: ts.kubeconfig, kubectl },
      { leaderElection: true, sourceReplicas: 2 },
    );
  }, 240_000);
  afterAll(async () => {
    await flux?.stop();
    await git?.stop();
    await ts?.stop();
  });

  it('each controller takes its Lease in flux-system and renews it; a second source-controller stands by', async () => {
    for (const name of Object.values(FLUX_LEASES)) {
      const first = await waitFor(async () => ((await lease(name))?.spec.holderIdentity ? lease(name) : undefined), {
        timeoutMs: 90_000,
        what: `Lease ${NS}/${name} held\n${logs()}`,
      });
      // Renewed: the holder writes renewTime again every retry period (an update of the Lease in protobuf).
      const renewed = await waitFor(
        async () => {
          const now = await lease(name);
          return now && now.spec.renewTime !== first.spec.renewTime ? now : undefined;
        },
        { timeoutMs: 60_000, what: `Lease ${NS}/${name} renewed after ${first.spec.renewTime}\n${logs()}` },
      );
      expect(renewed.spec.holderIdentity).toBe(first.spec.holderIdentity);
      expect(Number(renewed.metadata.resourceVersion)).toBeGreaterThan(Number(first.metadata.resourceVersion));
    }
    const leaders = await waitFor(
      () => {
        const l = sources().filter((c) => ACQUIRED.test(c.output()));
        return l.length ? l : undefined;
      },
      { what: `a source-controller replica logging that it acquired its Lease\n${logs()}` },
    );
    expect(leaders, 'exactly one source-controller replica leads').toHaveLength(1);
    const standby = sources().find((c) => c !== leaders[0]);
    expect(standby && running(standby)).toBe(true);
    expect(standby?.output()).toMatch(/attempting to acquire leader lease/i);
  }, 180_000);

  it('reconciles a GitRepository and a Kustomization: the artifact of the commit is applied', async () => {
    const objects = [
      {
        apiVersion: 'source.toolkit.fluxcd.io/v1',
        kind: 'GitRepository',
        metadata: { name: 'fleet', namespace: NS },
        spec: { url: repo.url, ref: { branch: 'main' }, interval: '1h' },
      },
      {
        apiVersion: 'kustomize.toolkit.fluxcd.io/v1',
        kind: 'Kustomization',
        metadata: { name: 'fleet', namespace: NS },
        spec: {
          sourceRef: { kind: 'GitRepository', name: 'fleet' },
          path: './app',
          prune: true,
          interval: '1h',
          wait: true,
          timeout: '45s',
        },
      },
    ];
    await kubectl.ok(['apply', '-f', '-'], objects.map((o) => JSON.stringify(o)).join('\n'));
    const source = await waitFor(
      async () => ((await gitRepository())?.status?.artifact ? gitRepository() : undefined),
      { timeoutMs: 120_000, what: `GitRepository fleet with an artifact\n${logs()}` },
    );
    expect(source?.status?.artifact?.revision).toBe(`main@sha1:${firstSha}`);
    // kustomize-controller's patch helper writes the conditions first and the rest of the status
    // after, so Ready=True can be read before lastAppliedRevision is there: wait for both in one read.
    const k = await waitFor(
      async () => {
        const now = await kustomization();
        return ready(now) && now?.status?.lastAppliedRevision ? now : undefined;
      },
      { timeoutMs: 120_000, what: `Kustomization fleet Ready with a lastAppliedRevision\n${logs()}` },
    );
    expect(k?.status?.lastAppliedRevision).toBe(`main@sha1:${firstSha}`);
    expect((await delivered())?.data?.value).toBe('first');
  }, 240_000);

  it('the standby source-controller takes the Lease of a killed (-9) leader and serves the next commit', async () => {
    const leader = sources().find((c) => ACQUIRED.test(c.output()) && running(c));
    const standby = sources().find((c) => c !== leader && running(c));
    expect(leader && standby, `a leader and a standby\n${logs()}`).toBeTruthy();
    if (!leader || !standby) return;
    const before = await lease(FLUX_LEASES['source-controller']);
    const exited = new Promise((r) => leader.child.once('exit', r));
    leader.child.kill('SIGKILL');
    await exited;
    // A killed leader never releases its Lease: the standby takes it once leaseDurationSeconds have passed
    // since the last renewal, checking every retry period (Flux's defaults: 35 s and 5 s).
    const duration = before?.spec.leaseDurationSeconds ?? 35;
    const after = await waitFor(
      async () => {
        const now = await lease(FLUX_LEASES['source-controller']);
        return now?.spec.holderIdentity && now.spec.holderIdentity !== before?.spec.holderIdentity ? now : undefined;
      },
      { timeoutMs: (duration + 20) * 1000, what: `the standby holding the Lease\n${logs()}` },
    );
    expect(after.spec.leaseTransitions).toBe((before?.spec.leaseTransitions ?? 0) + 1);
    expect(standby.output()).toMatch(ACQUIRED);

    const nextSha = await repo.commit({ 'app/configmap.yaml': configMap('second') });
    const requestedAt = `${Date.now()}`;
    const annotation = `reconcile.fluxcd.io/requestedAt=${requestedAt}`;
    await kubectl.ok(['annotate', '--overwrite', '-n', NS, 'gitrepository/fleet', annotation]);
    await waitFor(async () => (await gitRepository())?.status?.artifact?.revision === `main@sha1:${nextSha}`, {
      timeoutMs: 90_000,
      what: `GitRepository fleet at ${nextSha} from the new leader\n${logs()}`,
    });
    // kustomize-controller follows the new artifact, served by the new leader's storage.
    await waitFor(async () => (await kustomization())?.status?.lastAppliedRevision === `main@sha1:${nextSha}`, {
      timeoutMs: 90_000,
      what: `Kustomization fleet applied ${nextSha}\n${logs()}`,
    });
    expect((await delivered())?.data?.value).toBe('second');
  }, 240_000);

  it('logs no refused body and no undecodable answer', () => {
    const bad = (flux?.controllers ?? []).flatMap((c) =>
      c
        .output()
        .split('\n')
        .filter((l) => WIRE_TROUBLE.test(l))
        .map((l) => `${c.name}: ${l}`),
    );
    expect(bad).toEqual([]);
  });
});

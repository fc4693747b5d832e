import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runUpIn, type CliProcess } from '../helpers/cli.js';
import { kubectlFor, type Kubectl } from '../helpers/kubectl.js';
import { waitFor } from '../helpers/wait.js';
import { cachedBinDir } from './control-plane-paths.js';

/**
 * `flowops up --kube-controller-manager`: the real kube-controller-manager v1.34.4 (the control-plane cache's)
 * beside the embedded server, the simulator playing only the kubelet. Rollouts, Jobs, namespace deletion and
 * quota status come from Kubernetes' own controllers; pods become Running and Ready by the simulated kubelet.
 */

const bin = cachedBinDir();
const haveKcm = !!bin && existsSync(join(bin, 'kube-controller-manager'));
if (!haveKcm) {
  console.warn(
    'up-kube-controller-manager: skipped, no kube-controller-manager in the control-plane cache ' +
      '(scripts/control-plane/build.sh)',
  );
}

interface Obj {
  metadata: {
    name: string;
    managedFields?: Array<{ manager: string }>;
    ownerReferences?: Array<{ kind: string; name: string }>;
  };
  status?: {
    phase?: string;
    conditions?: Array<{ type: string; status: string }>;
    availableReplicas?: number;
    hard?: Record<string, string>;
    used?: Record<string, string>;
  };
}

describe.skipIf(!haveKcm)('flowops up --kube-controller-manager', () => {
  let dir: string;
  let up: CliProcess;
  let kubectl: Kubectl;
  const NS = 'kcm-up';

  const getJson = async <T = Obj>(args: string[]): Promise<T | undefined> => {
    const r = await kubectl([...args, '-o', 'json', '--show-managed-fields']);
    return r.code === 0 ? (JSON.parse(r.stdout) as T) : undefined;
  };
  const items = async (args: string[]): Promise<Obj[]> => (await getJson<{ items: Obj[] }>(args))?.items ?? [];
  const logFile = (): string => join(dir, 'data', 'kube-controller-manager', 'kube-controller-manager.log');
  const kcmLog = (): string => (existsSync(logFile()) ? readFileSync(logFile(), 'utf8').slice(-3000) : '(no log)');
  const condition = (o: Obj | undefined, type: string): string | undefined =>
    o?.status?.conditions?.find((c) => c.type === type)?.status;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'flowops-up-kcm-'));
    const kubeconfig = join(dir, 'kubeconfig');
    up = runUpIn(dir, '--kube-controller-manager');
    // Its last line once every part has started (the seed synced too), which takes a while on a busy machine.
    await waitFor(() => up.stdout().includes('FlowOps is up.') || up.child.exitCode !== null, {
      timeoutMs: 120_000,
      what: `flowops up started\n${up.stderr().slice(-2000)}`,
    });
    expect(up.child.exitCode, up.stderr().slice(-2000)).toBeNull();
    kubectl = kubectlFor(kubeconfig, mkdtempSync(join(tmpdir(), 'kubectl-cache-')));
    // Nothing runs before it holds its leader Lease (leader election on, as its default).
    const lease = ['get', 'lease', '-n', 'kube-system', 'kube-controller-manager'];
    await waitFor(async () => (await kubectl(lease)).code === 0, {
      timeoutMs: 90_000,
      what: `kube-controller-manager holding its Lease\n${up.stderr().slice(-2000)}\n${kcmLog()}`,
    });
    await kubectl.ok(['create', 'namespace', NS]);
  }, 180_000);
  afterAll(async () => {
    if (up && up.child.exitCode === null) {
      up.child.kill('SIGTERM');
      await up.exited;
    }
  });

  it('says where its log is; the simulator runs only the kubelet', () => {
    expect(up.stdout()).toContain(`its log: ${logFile()}`);
    expect(readFileSync(logFile(), 'utf8')).toMatch(/Started controller|Starting controller/);
    const started = up
      .stderr()
      .split('\n')
      .find((l) => l.includes('"msg":"workload simulator started"'));
    expect(JSON.parse(started ?? '{}')).toMatchObject({ kubeletOnly: true });
  });

  it('a Deployment gets a ReplicaSet from kube-controller-manager and Pods that become Ready', async () => {
    await kubectl.ok(['create', 'deployment', 'web', '--image=nginx:1', '--replicas=2', '-n', NS]);
    const rs = await waitFor(
      async () =>
        (await items(['get', 'replicasets', '-n', NS])).find((r) => r.metadata.ownerReferences?.[0]?.name === 'web'),
      { timeoutMs: 60_000, what: `ReplicaSet of web\n${kcmLog()}` },
    );
    const managers = rs.metadata.managedFields?.map((m) => m.manager) ?? [];
    expect(managers).toContain('kube-controller-manager');
    expect(managers).not.toContain('flowops-simulator');
    const available = async () => (await getJson(['get', 'deployment', 'web', '-n', NS]))?.status?.availableReplicas;
    await waitFor(async () => (await available()) === 2, {
      timeoutMs: 60_000,
      what: `Deployment web with 2 available replicas\n${kcmLog()}`,
    });
    const owned = (p: Obj) => p.metadata.ownerReferences?.[0]?.name === rs.metadata.name;
    const pods = (await items(['get', 'pods', '-n', NS])).filter(owned);
    expect(pods.map((p) => [p.status?.phase, condition(p, 'Ready')])).toEqual([
      ['Running', 'True'],
      ['Running', 'True'],
    ]);
  });

  it('the simulated kubelet registers a Ready Node and renews its Lease; pods are bound to it', async () => {
    const node = await getJson(['get', 'node', 'flowops-node']);
    expect(condition(node, 'Ready')).toBe('True');
    type NodeLease = { spec: { renewTime?: string } };
    const renewed = async () =>
      (await getJson<NodeLease>(['get', 'lease', '-n', 'kube-node-lease', 'flowops-node']))?.spec.renewTime;
    const first = await waitFor(renewed, { what: 'the Lease of Node flowops-node' });
    await waitFor(async () => (await renewed()) !== first, { timeoutMs: 30_000, what: 'the node Lease renewed' });
    const bound = await items(['get', 'pods', '-n', NS, '-l', 'app=web']);
    expect(bound.map((p) => (p as Obj & { spec?: { nodeName?: string } }).spec?.nodeName)).toEqual([
      'flowops-node',
      'flowops-node',
    ]);
    // Its node lifecycle controller sees the heartbeat: no not-ready or unreachable taint.
    const taints = (await getJson<{ spec: { taints?: unknown[] } }>(['get', 'node', 'flowops-node']))?.spec.taints;
    expect(taints ?? []).toEqual([]);
  });

  it('a Service gets an EndpointSlice of its ready pods, and a DaemonSet a pod on the Node', async () => {
    await kubectl.ok(['expose', 'deployment', 'web', '--port=80', '-n', NS]);
    type Slice = Obj & { endpoints?: Array<{ nodeName?: string; conditions?: { ready?: boolean } }> };
    const slice = (await waitFor(
      async () =>
        (
          await items(['get', 'endpointslices', '-n', NS, '-l', 'kubernetes.io/service-name=web'])
        ).find((e) => ((e as Slice).endpoints ?? []).length === 2),
      { timeoutMs: 60_000, what: `an EndpointSlice of Service web with 2 endpoints\n${kcmLog()}` },
    )) as Slice;
    expect(slice.metadata.managedFields?.map((m) => m.manager)).toContain('kube-controller-manager');
    expect(slice.endpoints?.map((e) => [e.nodeName, e.conditions?.ready])).toEqual([
      ['flowops-node', true],
      ['flowops-node', true],
    ]);
    const ds = {
      apiVersion: 'apps/v1',
      kind: 'DaemonSet',
      metadata: { name: 'agent', namespace: NS },
      spec: {
        selector: { matchLabels: { app: 'agent' } },
        template: { metadata: { labels: { app: 'agent' } }, spec: { containers: [{ name: 'a', image: 'busybox' }] } },
      },
    };
    await kubectl.ok(['apply', '-f', '-'], JSON.stringify(ds));
    type DsStatus = { status?: { desiredNumberScheduled?: number; numberReady?: number } };
    await waitFor(
      async () => {
        const s = (await getJson<DsStatus>(['get', 'daemonset', 'agent', '-n', NS]))?.status;
        return s?.desiredNumberScheduled === 1 && s.numberReady === 1;
      },
      { timeoutMs: 60_000, what: `DaemonSet agent with its one pod ready\n${kcmLog()}` },
    );
  });

  it("a Job's Pod runs to Succeeded (simulated kubelet) and kube-controller-manager completes the Job", async () => {
    await kubectl.ok(['create', 'job', 'once', '--image=busybox', '-n', NS]);
    const job = await waitFor(
      async () => {
        const j = await getJson(['get', 'job', 'once', '-n', NS]);
        return condition(j, 'Complete') === 'True' ? j : undefined;
      },
      { timeoutMs: 60_000, what: `Job once Complete\n${kcmLog()}` },
    );
    expect(job.metadata.managedFields?.map((m) => m.manager)).toContain('kube-controller-manager');
    const ofJob = (p: Obj) => p.metadata.ownerReferences?.[0]?.kind === 'Job';
    const pods = (await items(['get', 'pods', '-n', NS])).filter(ofJob);
    expect(pods.map((p) => p.status?.phase)).toEqual(['Succeeded']);
  });

  it('a ResourceQuota gets its status from the resourcequota controller, and usage goes down again', async () => {
    await kubectl.ok(['create', 'configmap', 'counted', '-n', NS, '--from-literal=a=b']);
    await kubectl.ok(['create', 'quota', 'q', '-n', NS, '--hard=configmaps=10,pods=10']);
    const used = async (): Promise<Record<string, string> | undefined> =>
      (await getJson(['get', 'resourcequota', 'q', '-n', NS]))?.status?.used;
    // kube-root-ca.crt (KCM's root-ca-cert-publisher) and `counted`; web's two pods and agent's (the Job's
    // Succeeded pod is not counted).
    const first = await waitFor(async () => ((await used())?.configmaps ? used() : undefined), {
      timeoutMs: 60_000,
      what: `status.used of ResourceQuota q\n${kcmLog()}`,
    });
    expect(first).toMatchObject({ configmaps: '2', pods: '3' });
    // Admission charges a create at once; only the controller gives usage back after a delete.
    await kubectl.ok(['delete', 'configmap', 'counted', '-n', NS]);
    await waitFor(async () => (await used())?.configmaps === '1', {
      timeoutMs: 60_000,
      what: `ResourceQuota q's configmaps usage back to 1\n${kcmLog()}`,
    });
  });

  it("a namespace's deletion finishes: its objects are removed and the namespace goes", async () => {
    await kubectl.ok(['create', 'namespace', 'doomed']);
    await kubectl.ok(['create', 'configmap', 'inside', '-n', 'doomed']);
    await kubectl.ok(['delete', 'namespace', 'doomed', '--wait=false']);
    await waitFor(async () => (await kubectl(['get', 'namespace', 'doomed'])).code !== 0, {
      timeoutMs: 60_000,
      what: `namespace doomed gone\n${kcmLog()}`,
    });
  });

  it('its log has no refused body and no undecodable answer', () => {
    const wire = /no protobuf decoder|unknown format|cannot be handled as|does not implement the protobuf/;
    const bad = readFileSync(logFile(), 'utf8')
      .split('\n')
      .filter((l) => wire.test(l));
    expect(bad).toEqual([]);
  });

  it("stops kube-controller-manager on Ctrl-C (a part of up's manager) and exits 0", async () => {
    const started = up
      .stderr()
      .split('\n')
      .find((l) => l.includes('"msg":"kube-controller-manager started"'));
    const { pid } = JSON.parse(started ?? '{}') as { pid?: number };
    expect(pid).toBeGreaterThan(0);
    up.child.kill('SIGINT');
    expect(await up.exited).toEqual({ code: 0, signal: null });
    expect(() => process.kill(pid ?? 0, 0)).toThrow();
  });
});

describe.skipIf(!haveKcm)('flowops up --kube-controller-manager, killed with SIGKILL', () => {
  it('takes kube-controller-manager with it (no controller left running against a server that is gone)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'flowops-up-kcm-kill-'));
    const up = runUpIn(dir, '--kube-controller-manager');
    const started = await waitFor(
      () =>
        up.child.exitCode !== null
          ? 'exited'
          : up
              .stderr()
              .split('\n')
              .find((l) => l.includes('"msg":"kube-controller-manager started"')),
      { timeoutMs: 120_000, what: `kube-controller-manager started\n${up.stderr().slice(-2000)}` },
    );
    const { pid } = JSON.parse(started === 'exited' ? '{}' : started) as { pid?: number };
    expect(pid, up.stderr().slice(-2000)).toBeGreaterThan(0);
    expect(() => process.kill(pid ?? 0, 0)).not.toThrow();
    up.child.kill('SIGKILL');
    await up.exited;
    await waitFor(
      () => {
        try {
          process.kill(pid ?? 0, 0);
        } catch {
          return true;
        }
        // Killed but not reaped yet (a container's pid 1 may never reap it): a zombie is gone too.
        const stat = existsSync(`/proc/${pid}/stat`) ? readFileSync(`/proc/${pid}/stat`, 'utf8') : '';
        return / Z /.test(stat.slice(stat.lastIndexOf(')') + 1, stat.lastIndexOf(')') + 4));
      },
      { timeoutMs: 15_000, what: `kube-controller-manager (pid ${pid}) gone after up was killed` },
    );
  }, 180_000);
});

describe('flowops up --kube-controller-manager=PATH', () => {
  it('refuses a path that is no file, naming the flag, before anything starts', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'flowops-up-kcm-bad-'));
    const up = runUpIn(dir, `--kube-controller-manager=${join(dir, 'missing')}`);
    expect(await up.exited).toEqual({ code: 2, signal: null });
    expect(up.stderr()).toContain(`--kube-controller-manager=${join(dir, 'missing')}: no such file`);
    expect(existsSync(join(dir, 'kubeconfig'))).toBe(false);
  });
});

import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { metricsAddressOf } from '../distributed/processes.js';
import { ROOT } from '../helpers/cli.js';
import { waitFor } from '../helpers/wait.js';
import { describeReal, realControlPlane, type RealControlPlane } from './control-plane.js';
import { startFlowOps, type FlowOpsCluster } from './flowops-processes.js';
import { helmIn } from './kube-json.js';
import { serviceAccountKubeconfig } from './service-account.js';

// The web view of `flowops run` on the real kube-apiserver: each person signs in with their own
// token, and every read and action is made with it, so the real RBAC authorizer decides what they
// see: a ServiceAccount without rights sees the API server's 403 messages and no data, one with
// read rights sees the Flows but may not act, and the change stream tells each only of what they
// may get.

const NS = 'flowops-ui';
const RELEASE = 'flowops-ui';
const controlPlane = realControlPlane();

const READER_RBAC = `apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: flowops-reader}
rules:
  - apiGroups: [flowops.io]
    resources: [flows, flowsources]
    verbs: [get, list, watch]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: flowops-reader}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: flowops-reader}
subjects:
  - {kind: ServiceAccount, name: reader, namespace: default}
`;

describeReal("the web view of `flowops run`: signed in with the user's own token, RBAC decides", () => {
  let cp: RealControlPlane;
  let flowops: FlowOpsCluster | undefined;
  let base: string;
  const tokens: Record<string, string> = {};

  beforeAll(async () => {
    cp = controlPlane();
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
    base = await metricsAddressOf(flowops.leader);
    await cp.kubectl.ok([
      'apply',
      '-f',
      join(ROOT, 'repos-example/database-operator/crd.yaml'),
      '-f',
      join(ROOT, 'repos-example/database-operator/flow.yaml'),
    ]);
    await cp.kubectl.ok(
      ['apply', '-f', '-'],
      JSON.stringify({
        apiVersion: 'flowops.io/v1',
        kind: 'FlowSource',
        metadata: { name: 'shop', namespace: 'default' },
        spec: { url: 'http://127.0.0.1:1/none.git', ref: { branch: 'main' }, interval: '1h', suspend: true },
      }),
    );
    await cp.kubectl.ok(['create', 'serviceaccount', 'nobody', '-n', 'default']);
    await cp.kubectl.ok(['create', 'serviceaccount', 'reader', '-n', 'default']);
    await cp.kubectl.ok(['apply', '-f', '-'], READER_RBAC);
    for (const sa of ['nobody', 'reader'])
      tokens[sa] = (await cp.kubectl.ok(['create', 'token', sa, '-n', 'default'])).trim();
  });
  afterAll(async () => {
    await flowops?.stop();
  });

  const api = (path: string, init: RequestInit = {}) =>
    fetch(`${base}/ui/api/${path}`, {
      ...init,
      headers: { Accept: 'application/json', ...(init.headers as Record<string, string> | undefined) },
    });
  const signIn = async (token: string): Promise<string> => {
    const res = await api('session', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ token }),
    });
    expect(res.status, await res.clone().text()).toBe(200);
    const cookie = res.headers.get('set-cookie')!;
    expect(cookie).toMatch(/^flowops-ui-session=[\w-]{43}; Path=\/ui\/; HttpOnly; SameSite=Strict/);
    return cookie.split(';')[0]!;
  };

  it('asks for a token, and refuses one the API server does not accept', async () => {
    const anonymous = await api('overview');
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toMatchObject({ signIn: true });
    const bad = await api('session', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ token: 'not-a-token' }),
    });
    expect(bad.status).toBe(401);
    expect(await bad.json()).toEqual({ error: 'the API server did not accept this token' });
  });

  it("a user without rights sees the API server's 403 messages, not data", async () => {
    const cookie = await signIn(tokens.nobody!);
    const who = await api('session', { headers: { Cookie: cookie } });
    expect(await who.json()).toEqual({ user: 'system:serviceaccount:default:nobody', signInNeeded: true });
    const overview = (await (await api('overview', { headers: { Cookie: cookie } })).json()) as {
      flows: unknown[];
      sources: unknown[];
      forbidden?: string[];
    };
    expect(overview.flows).toEqual([]);
    expect(overview.sources).toEqual([]);
    expect(overview.forbidden).toEqual(
      expect.arrayContaining([
        'flows.flowops.io is forbidden: User "system:serviceaccount:default:nobody" cannot list resource "flows" in API group "flowops.io" at the cluster scope',
        'flowsources.flowops.io is forbidden: User "system:serviceaccount:default:nobody" cannot list resource "flowsources" in API group "flowops.io" at the cluster scope',
      ]),
    );
    const flow = await api('flows/default/database-operator', { headers: { Cookie: cookie } });
    expect(flow.status).toBe(403);
    expect(((await flow.json()) as { error: string }).error).toBe(
      'flows.flowops.io "database-operator" is forbidden: User "system:serviceaccount:default:nobody" cannot get resource "flows" in API group "flowops.io" in the namespace "default"',
    );
    // The same with the token in an Authorization header (curl, a port-forward), no session.
    const bearer = await api('flows/default/database-operator', {
      headers: { Authorization: `Bearer ${tokens.nobody}` },
    });
    expect(bearer.status).toBe(403);
  });

  it('a reader sees the Flows and the source, may not act on them, and is told of their changes', async () => {
    const cookie = await signIn(tokens.reader!);
    const overview = (await (await api('overview', { headers: { Cookie: cookie } })).json()) as {
      flows: Array<{ name: string }>;
      sources: Array<{ name: string }>;
      forbidden?: string[];
    };
    expect(overview.flows.map((f) => f.name)).toEqual(['database-operator']);
    expect(overview.sources.map((s) => s.name)).toEqual(['shop']);
    expect(overview.forbidden?.some((m) => m.startsWith('events is forbidden'))).toBe(true);
    expect((await api('flows/default/database-operator', { headers: { Cookie: cookie } })).status).toBe(200);

    const action = await api('sources/default/shop/actions', {
      method: 'POST',
      headers: { Cookie: cookie, 'Content-Type': 'application/json' },
      body: JSON.stringify({ action: 'resume' }),
    });
    expect(action.status).toBe(403);
    expect(((await action.json()) as { error: string }).error).toContain(
      'User "system:serviceaccount:default:reader" cannot patch resource "flowsources"',
    );

    // The change stream: a change to the Flow reaches the reader (they may get Flows).
    const stream = await api('stream', { headers: { Cookie: cookie, Accept: 'text/event-stream' } });
    expect(stream.status).toBe(200);
    const reader = stream.body!.getReader();
    let text = '';
    const read = (async () => {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        text += new TextDecoder().decode(value);
      }
    })();
    await waitFor(() => text.includes('event: hello'), { what: "the stream's hello" });
    // Changed until the reader hears of it (the feed's watches may still be starting).
    await waitFor(
      async () => {
        await cp.kubectl.ok([
          'annotate',
          '--overwrite',
          'flow',
          'database-operator',
          '-n',
          'default',
          `touched=${Date.now()}`,
        ]);
        return /event: changes\ndata: .*"kind":"Flow".*"name":"database-operator"/.test(text);
      },
      {
        what: `a change of Flow database-operator on the reader's stream\n${text}`,
        timeoutMs: 30_000,
        intervalMs: 1000,
      },
    );
    await reader.cancel();
    await read.catch(() => undefined);
  });
});

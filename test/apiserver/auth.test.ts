import { mkdtempSync, writeFileSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueClientCertificate } from '../../src/apiserver/auth/pki.js';
import { WIDGET_CRD } from '../fixtures/widgets.js';
import { startAuthTestServer, type AuthTestServer } from '../helpers/apiserver.js';
import { kubectlFor, type Kubectl } from '../helpers/kubectl.js';
import { waitFor } from '../helpers/wait.js';
import { serviceAccountWithRole } from '../fixtures/tenant-rbac.js';

// The embedded server authenticates (tokens it signs, static tokens, client certificates) and
// authorizes with RBAC, and the real kubectl sees what it sees from kube-apiserver: the same 401s,
// 403 messages, `auth can-i`, `auth whoami` and `create token`.

let ts: AuthTestServer;
let kubectl: Kubectl;
const SA = 'system:serviceaccount:team-a:builder';

const TEAM_A = serviceAccountWithRole(
  'team-a',
  'builder',
  `  - apiGroups: [""]
    resources: [configmaps]
    verbs: [get, list, create]
  - apiGroups: [""]
    resources: [secrets]
    resourceNames: [allowed]
    verbs: [get]
  - apiGroups: [apps]
    resources: [deployments/scale]
    verbs: [get]`,
);

/** A raw HTTPS request trusting the server's CA, for what kubectl would not send (no credentials). */
function call(
  path: string,
  headers: Record<string, string> = {},
  server: AuthTestServer = ts,
): Promise<{ status: number; body: Record<string, unknown> | string }> {
  return new Promise((resolve, reject) => {
    const r = request(`${server.server.url}${path}`, { ca: server.pki.caCert, headers }, (res) => {
      let text = '';
      res.on('data', (d: Buffer) => (text += d.toString()));
      res.on('end', () => {
        let body: Record<string, unknown> | string = text;
        try {
          body = JSON.parse(text) as Record<string, unknown>;
        } catch {
          // plain text (a health probe)
        }
        resolve({ status: res.statusCode ?? 0, body });
      });
    });
    r.on('error', reject);
    r.end();
  });
}

beforeAll(async () => {
  ts = await startAuthTestServer();
  kubectl = kubectlFor(ts.kubeconfig, mkdtempSync(join(tmpdir(), 'kubectl-cache-')));
  for (const ns of ['team-a', 'team-b']) await kubectl.ok(['create', 'namespace', ns]);
  await kubectl.ok(['apply', '-f', '-'], TEAM_A);
});
afterAll(async () => {
  await ts?.stop();
});

describe('authentication', () => {
  it('refuses a request without credentials with 401, but answers the health and version probes', async () => {
    const r = await call('/api/v1/namespaces');
    expect(r.status).toBe(401);
    expect(r.body).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'Unauthorized',
      reason: 'Unauthorized',
      code: 401,
    });
    for (const p of ['/healthz', '/readyz', '/livez', '/version']) expect((await call(p)).status, p).toBe(200);
    expect((await call('/api/v1/namespaces', { Authorization: 'Bearer not-a-token' })).status).toBe(401);
  });

  it('serves a route mounted behind authentication (/metrics) only to a user RBAC allows its path', async () => {
    ts.server.addRoute(
      (_req, res, url) => {
        if (url.pathname !== '/metrics') return false;
        res.writeHead(200, { 'content-type': 'text/plain' }).end('flowops_up 1\n');
        return true;
      },
      { behindAuth: true },
    );
    expect((await call('/metrics')).status).toBe(401);
    const token = (await kubectl.ok(['create', 'token', 'builder', '-n', 'team-a'])).trim();
    const refused = await call('/metrics', { Authorization: `Bearer ${token}` });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({
      reason: 'Forbidden',
      message: 'forbidden: User "system:serviceaccount:team-a:builder" cannot get path "/metrics"',
    });
    expect(await call('/metrics', { Authorization: `Bearer ${ts.pki.adminToken}` })).toEqual({
      status: 200,
      body: 'flowops_up 1\n',
    });
  });

  it('the admin kubeconfig is system:masters', async () => {
    const who = JSON.parse(await kubectl.ok(['auth', 'whoami', '-o', 'json']));
    expect(who.status.userInfo).toEqual({
      username: 'flowops-admin',
      groups: ['system:masters', 'system:authenticated'],
    });
  });

  it('kubectl create token signs a ServiceAccount token that authenticates as it and is held to its RBAC', async () => {
    const token = (await kubectl.ok(['create', 'token', 'builder', '-n', 'team-a'])).trim();
    const [, payload] = token.split('.');
    const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString());
    const uid = JSON.parse(await kubectl.ok(['get', 'sa', 'builder', '-n', 'team-a', '-o', 'json'])).metadata.uid;
    expect(claims).toMatchObject({
      iss: 'https://kubernetes.default.svc.cluster.local',
      aud: ['https://kubernetes.default.svc.cluster.local'],
      sub: SA,
      'kubernetes.io': { namespace: 'team-a', serviceaccount: { name: 'builder', uid } },
    });
    expect(claims.exp - claims.iat).toBe(3600);
    const as = (args: string[]) => kubectl(['--token', token, ...args]);
    const who = JSON.parse((await as(['auth', 'whoami', '-o', 'json'])).stdout);
    expect(who.status.userInfo).toMatchObject({
      username: SA,
      uid,
      groups: ['system:serviceaccounts', 'system:serviceaccounts:team-a', 'system:authenticated'],
    });
    expect((await as(['create', 'configmap', 'mine', '-n', 'team-a'])).code).toBe(0);
    const other = await as(['create', 'configmap', 'theirs', '-n', 'team-b']);
    expect(other.stderr).toContain(
      `configmaps is forbidden: User "${SA}" cannot create resource "configmaps" in API group "" in the namespace "team-b"`,
    );
    const cluster = await as(['get', 'clusterroles']);
    expect(cluster.stderr).toContain(
      `clusterroles.rbac.authorization.k8s.io is forbidden: User "${SA}" cannot list resource "clusterroles" in API group "rbac.authorization.k8s.io" at the cluster scope`,
    );
    // A token outlives nothing: the ServiceAccount deleted and made again (a new uid) does not revive it.
    await kubectl.ok(['create', 'sa', 'short-lived', '-n', 'team-a']);
    const t2 = (await kubectl.ok(['create', 'token', 'short-lived', '-n', 'team-a', '--duration', '10m'])).trim();
    expect((await kubectl(['--token', t2, 'auth', 'whoami'])).code).toBe(0);
    await kubectl.ok(['delete', 'sa', 'short-lived', '-n', 'team-a']);
    await kubectl.ok(['create', 'sa', 'short-lived', '-n', 'team-a']);
    expect((await kubectl(['--token', t2, 'auth', 'whoami'])).stderr).toContain('Unauthorized');
    const tooShort = await kubectl(['create', 'token', 'builder', '-n', 'team-a', '--duration', '1m']);
    expect(tooShort.stderr).toContain(
      'spec.expirationSeconds: Invalid value: 60: may not specify a duration less than 10 minutes',
    );
    expect((await kubectl(['create', 'token', 'nobody', '-n', 'team-a'])).stderr).toContain(
      'serviceaccounts "nobody" not found',
    );
  });

  it('a client certificate from the CA authenticates: CN the user, O the groups', async () => {
    const cert = await issueClientCertificate(ts.pki.dir, 'alice', 'alice', ['team-a-admins', 'devs']);
    const dir = mkdtempSync(join(tmpdir(), 'client-cert-'));
    writeFileSync(join(dir, 'alice.crt'), cert.cert);
    writeFileSync(join(dir, 'alice.key'), cert.key);
    const ca = join(dir, 'ca.crt');
    writeFileSync(ca, ts.pki.caCert);
    const kc = `apiVersion: v1
kind: Config
clusters: [{ name: c, cluster: { server: "${ts.server.url}", certificate-authority: "${ca}" } }]
users: [{ name: alice, user: { client-certificate: "${join(dir, 'alice.crt')}", client-key: "${join(dir, 'alice.key')}" } }]
contexts: [{ name: c, context: { cluster: c, user: alice } }]
current-context: c
`;
    writeFileSync(join(dir, 'kubeconfig'), kc);
    const alice = kubectlFor(join(dir, 'kubeconfig'), join(dir, 'cache'));
    const who = JSON.parse(await alice.ok(['auth', 'whoami', '-o', 'json']));
    expect(who.status.userInfo).toEqual({
      username: 'alice',
      groups: ['team-a-admins', 'devs', 'system:authenticated'],
    });
    await kubectl.ok([
      'create',
      'rolebinding',
      'admins',
      '-n',
      'team-a',
      '--clusterrole=admin',
      '--group=team-a-admins',
    ]);
    await waitFor(async () => (await alice(['get', 'secrets', '-n', 'team-a'])).code === 0, {
      what: 'alice (group team-a-admins → admin) lists secrets in team-a',
    });
    expect((await alice(['get', 'secrets', '-n', 'team-b'])).stderr).toContain(
      'User "alice" cannot list resource "secrets" in API group "" in the namespace "team-b"',
    );
  });
});

describe('RBAC', () => {
  const asSa = (args: string[]) => kubectl([...args, `--as=${SA}`]);

  it('kubectl auth can-i answers what the server then does', async () => {
    const cases: Array<[string[], boolean]> = [
      [['create', 'configmaps', '-n', 'team-a'], true],
      [['create', 'configmaps', '-n', 'team-b'], false],
      [['delete', 'configmaps', '-n', 'team-a'], false],
      [['create', 'clusterroles'], false],
      [['get', 'secrets/allowed', '-n', 'team-a'], true],
      [['get', 'secrets/other', '-n', 'team-a'], false],
      [['list', 'secrets', '-n', 'team-a'], false],
      [['get', 'deployments.apps', '--subresource=scale', '-n', 'team-a'], true],
      [['get', 'deployments.apps', '-n', 'team-a'], false],
    ];
    for (const [args, expected] of cases) {
      const r = await asSa(['auth', 'can-i', ...args]);
      expect(r.stdout.trim(), args.join(' ')).toBe(expected ? 'yes' : 'no');
    }
    // Non-resource URLs: system:discovery lets every authenticated user read /api, nothing else.
    expect((await asSa(['auth', 'can-i', 'get', '/api'])).stdout.trim()).toBe('yes');
    expect((await asSa(['auth', 'can-i', 'get', '/metrics'])).stdout.trim()).toBe('no');
    const list = (await asSa(['auth', 'can-i', '--list', '-n', 'team-a'])).stdout;
    expect(list).toMatch(/^configmaps\s+\[\]\s+\[\]\s+\[get list create\]$/m);
    expect(list).toMatch(/^secrets\s+\[\]\s+\[allowed\]\s+\[get\]$/m);
    // What the server does agrees.
    await kubectl.ok(['create', 'secret', 'generic', 'allowed', '-n', 'team-a']);
    await kubectl.ok(['create', 'secret', 'generic', 'other', '-n', 'team-a']);
    expect((await asSa(['get', 'secret', 'allowed', '-n', 'team-a'])).code).toBe(0);
    expect((await asSa(['get', 'secret', 'other', '-n', 'team-a'])).stderr).toContain(
      `secrets "other" is forbidden: User "${SA}" cannot get resource "secrets" in API group "" in the namespace "team-a"`,
    );
    await kubectl.ok(['create', 'deployment', 'web', '--image=nginx', '-n', 'team-a']);
    expect((await asSa(['get', '--raw', '/apis/apps/v1/namespaces/team-a/deployments/web/scale'])).code).toBe(0);
    expect((await asSa(['get', 'deployment', 'web', '-n', 'team-a'])).stderr).toContain(
      'cannot get resource "deployments" in API group "apps"',
    );
  });

  it('aggregates ClusterRoles by label into admin, edit and view, as kube-controller-manager does', async () => {
    await kubectl.ok(['apply', '-f', '-'], WIDGET_CRD);
    await kubectl.ok(
      ['apply', '-f', '-'],
      `apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: widgets-view
  labels: { rbac.authorization.k8s.io/aggregate-to-view: "true" }
rules: [{ apiGroups: [example.com], resources: [widgets], verbs: [get, list, watch] }]
`,
    );
    const viewHasWidgets = async () =>
      JSON.stringify(JSON.parse(await kubectl.ok(['get', 'clusterrole', 'view', '-o', 'json'])).rules).includes(
        '"widgets"',
      );
    await waitFor(viewHasWidgets, { what: 'the view ClusterRole to aggregate widgets-view' });
    const edit = JSON.parse(await kubectl.ok(['get', 'clusterrole', 'edit', '-o', 'json']));
    expect(JSON.stringify(edit.rules)).toContain('"widgets"');
    await kubectl.ok(['create', 'rolebinding', 'viewer', '-n', 'team-b', '--clusterrole=view', '--user=vera']);
    await waitFor(
      async () =>
        (await kubectl(['auth', 'can-i', 'list', 'widgets.example.com', '-n', 'team-b', '--as=vera'])).stdout.trim() ===
        'yes',
      { what: 'vera may list widgets in team-b' },
    );
    expect((await kubectl(['auth', 'can-i', 'list', 'secrets', '-n', 'team-b', '--as=vera'])).stdout.trim()).toBe('no');
    expect((await kubectl(['auth', 'can-i', 'list', 'configmaps', '-n', 'team-b', '--as=vera'])).stdout.trim()).toBe(
      'yes',
    );
    await kubectl.ok(['delete', 'clusterrole', 'widgets-view']);
    await waitFor(async () => !(await viewHasWidgets()), { what: 'the view ClusterRole to drop widgets again' });
  });
});

describe('RBAC escalation prevention', () => {
  it('lets a user grant, by a Role or a binding, only what they hold themselves, or what bind/escalate allows', async () => {
    const BINDER = 'system:serviceaccount:team-a:binder';
    await kubectl.ok(['create', 'sa', 'binder', '-n', 'team-a']);
    await kubectl.ok([
      'create',
      'role',
      'rbac-writer',
      '-n',
      'team-a',
      '--verb=create,update,patch,get',
      '--resource=roles.rbac.authorization.k8s.io,rolebindings.rbac.authorization.k8s.io,configmaps',
    ]);
    await kubectl.ok([
      'create',
      'rolebinding',
      'rbac-writer',
      '-n',
      'team-a',
      '--role=rbac-writer',
      '--serviceaccount=team-a:binder',
    ]);
    const as = (args: string[]) => kubectl([...args, `--as=${BINDER}`]);
    const toAdmin = await as([
      'create',
      'rolebinding',
      'me-admin',
      '-n',
      'team-a',
      '--clusterrole=cluster-admin',
      '--serviceaccount=team-a:binder',
    ]);
    expect(toAdmin.stderr).toContain(
      `rolebindings.rbac.authorization.k8s.io "me-admin" is forbidden: user "${BINDER}" (groups=["system:serviceaccounts" "system:serviceaccounts:team-a" "system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n{APIGroups:["*"], Resources:["*"], Verbs:["*"]}`,
    );
    const secrets = await as(['create', 'role', 'secret-reader', '-n', 'team-a', '--verb=get', '--resource=secrets']);
    expect(secrets.stderr).toContain(
      'is attempting to grant RBAC permissions not currently held:\n{APIGroups:[""], Resources:["secrets"], Verbs:["get"]}',
    );
    // What it holds it may hand on.
    expect(
      (await as(['create', 'role', 'cm-reader', '-n', 'team-a', '--verb=get', '--resource=configmaps'])).code,
    ).toBe(0);
    expect(
      (await as(['create', 'rolebinding', 'cm-reader', '-n', 'team-a', '--role=cm-reader', '--user=carol'])).code,
    ).toBe(0);
    // bind on one ClusterRole by name: that one may be bound without holding its rules.
    await kubectl.ok([
      'create',
      'role',
      'bind-view',
      '-n',
      'team-a',
      '--verb=bind',
      '--resource=clusterroles.rbac.authorization.k8s.io',
      '--resource-name=view',
    ]);
    await kubectl.ok([
      'create',
      'rolebinding',
      'bind-view',
      '-n',
      'team-a',
      '--role=bind-view',
      '--serviceaccount=team-a:binder',
    ]);
    expect(
      (await as(['create', 'rolebinding', 'viewers', '-n', 'team-a', '--clusterrole=view', '--user=dan'])).code,
    ).toBe(0);
    expect(
      (await as(['create', 'rolebinding', 'editors', '-n', 'team-a', '--clusterrole=edit', '--user=dan'])).stderr,
    ).toContain('is attempting to grant RBAC permissions not currently held');
  });
});

describe('impersonation', () => {
  it('needs the impersonate verb, checked for each user, group and ServiceAccount', async () => {
    const token = (await kubectl.ok(['create', 'token', 'builder', '-n', 'team-a'])).trim();
    const as = (args: string[]) => kubectl(['--token', token, ...args]);
    expect((await as(['get', 'configmaps', '-n', 'team-a', '--as=bob'])).stderr).toContain(
      `users "bob" is forbidden: User "${SA}" cannot impersonate resource "users" in API group "" at the cluster scope`,
    );
    await kubectl.ok(['create', 'sa', 'deployer', '-n', 'team-a']);
    expect(
      (await as(['get', 'configmaps', '-n', 'team-a', '--as=system:serviceaccount:team-a:deployer'])).stderr,
    ).toContain(
      `serviceaccounts "deployer" is forbidden: User "${SA}" cannot impersonate resource "serviceaccounts" in API group "" in the namespace "team-a"`,
    );
    await kubectl.ok([
      'create',
      'role',
      'impersonate-deployer',
      '-n',
      'team-a',
      '--verb=impersonate',
      '--resource=serviceaccounts',
      '--resource-name=deployer',
    ]);
    await kubectl.ok([
      'create',
      'rolebinding',
      'impersonate-deployer',
      '-n',
      'team-a',
      '--role=impersonate-deployer',
      '--serviceaccount=team-a:builder',
    ]);
    const who = JSON.parse(
      (await as(['auth', 'whoami', '-o', 'json', '--as=system:serviceaccount:team-a:deployer'])).stdout,
    );
    // A ServiceAccount impersonated without groups gets the groups kube-apiserver gives it.
    expect(who.status.userInfo).toEqual({
      username: 'system:serviceaccount:team-a:deployer',
      groups: ['system:serviceaccounts', 'system:serviceaccounts:team-a', 'system:authenticated'],
    });
    // Claiming a group as well needs impersonate on that group.
    expect(
      (
        await as([
          'get',
          'configmaps',
          '-n',
          'team-a',
          '--as=system:serviceaccount:team-a:deployer',
          '--as-group=system:masters',
        ])
      ).stderr,
    ).toContain(
      `groups "system:masters" is forbidden: User "${SA}" cannot impersonate resource "groups" in API group "" at the cluster scope`,
    );
    // The admin may impersonate anyone; the impersonated user is then held to its own rights.
    const bob = JSON.parse(await kubectl.ok(['auth', 'whoami', '-o', 'json', '--as=bob', '--as-group=devs']));
    expect(bob.status.userInfo).toEqual({ username: 'bob', groups: ['devs', 'system:authenticated'] });
    expect((await kubectl(['get', 'configmaps', '-n', 'team-a', '--as=bob'])).stderr).toContain(
      'User "bob" cannot list resource "configmaps"',
    );
  });
});

describe('--anonymous', () => {
  it('makes a request without credentials system:anonymous, which RBAC then refuses by name', async () => {
    const open = await startAuthTestServer({ anonymous: true });
    try {
      const r = await call('/api/v1/namespaces', {}, open);
      expect(r.status).toBe(403);
      expect((r.body as { message: string }).message).toBe(
        'namespaces is forbidden: User "system:anonymous" cannot list resource "namespaces" in API group "" at the cluster scope',
      );
    } finally {
      await open.stop();
    }
  });
});

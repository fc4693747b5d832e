import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { startApiServer, type ApiServer, type ApiServerOptions } from '../../src/apiserver/index.js';
import { writeKubeconfig } from '../../src/kube/kubeconfig.js';
import { ensureServerPki, type ServerPki } from '../../src/apiserver/auth/pki.js';
import { ADMIN_USER } from '../../src/apiserver/auth/index.js';
import { kubectlFor, type Kubectl } from './kubectl.js';

export interface TestServer {
  server: ApiServer;
  dir: string;
  kubeconfig: string;
  stop(): Promise<void>;
}

/** An embedded API server on a free loopback port with its own data dir and kubeconfig. */
export async function startTestServer(opts: Partial<ApiServerOptions> = {}): Promise<TestServer> {
  const dir = mkdtempSync(join(tmpdir(), 'flowops-test-'));
  const server = await startApiServer({ port: 0, dataDir: join(dir, 'data'), ...opts });
  return served(server, dir);
}

/** The server with a kubeconfig for it in `dir` (admin credentials when given), and a stop that removes `dir`. */
function served(server: ApiServer, dir: string, credentials?: { caCert: string; token: string }): TestServer {
  const kubeconfig = join(dir, 'kubeconfig');
  writeKubeconfig(kubeconfig, server.url, credentials);
  return {
    server,
    dir,
    kubeconfig,
    stop: async () => {
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface AuthTestServer extends TestServer {
  /** The CA, keys and admin token in `${dir}/pki`. */
  pki: ServerPki;
}

/**
 * An embedded API server with authentication and RBAC on, as `flowops up` runs it: HTTPS with its
 * own CA, the bootstrap policy, and `kubeconfig` as the admin (a static token in system:masters).
 */
export async function startAuthTestServer(opts: { anonymous?: boolean } = {}): Promise<AuthTestServer> {
  const dir = mkdtempSync(join(tmpdir(), 'flowops-auth-test-'));
  const pki = await ensureServerPki(join(dir, 'pki'), ['127.0.0.1']);
  const server = await startApiServer({
    port: 0,
    dataDir: join(dir, 'data'),
    tls: { key: pki.serverKey, cert: pki.serverCert, clientCa: pki.caCert },
    csrSigner: { caCertFile: join(pki.dir, 'ca.crt'), caKeyFile: join(pki.dir, 'ca.key') },
    auth: {
      serviceAccountKey: pki.serviceAccountKey,
      staticTokens: [{ token: pki.adminToken, user: ADMIN_USER }],
      ...(opts.anonymous ? { anonymous: true } : {}),
    },
  });
  return { ...served(server, dir, { caCert: pki.caCert, token: pki.adminToken }), pki };
}

export interface ServerFixture {
  /** Set once the file's beforeAll has run. */
  readonly ts: TestServer;
  readonly kubectl: Kubectl;
}

/**
 * The setup most API server test files share: one embedded server and a real kubectl for it,
 * started before the file's tests and stopped after them. Read `ts` and `kubectl` inside tests.
 */
export function useTestServer(opts: Partial<ApiServerOptions> = {}): ServerFixture {
  let ts: TestServer | undefined;
  let kubectl: Kubectl | undefined;
  beforeAll(async () => {
    ts = await startTestServer(opts);
    kubectl = kubectlFor(ts.kubeconfig, mkdtempSync(join(tmpdir(), 'kubectl-cache-')));
  });
  afterAll(async () => ts?.stop());
  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('useTestServer: read ts and kubectl inside a test, after beforeAll');
    return value;
  };
  return {
    get ts() {
      return started(ts);
    },
    get kubectl() {
      return started(kubectl);
    },
  };
}

import { readFileSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { KubeConfig, KubeClient } from '../kube/index.js';
import { startApiServer, type ApiServer, type JsonObject } from '../apiserver/index.js';
import { isViewGroup, viewCrd, type ViewBackend } from '../operator/index.js';
import { authRoute, requestAttributes } from './auth-route.js';
import { viewKubeconfig } from './kubeconfig.js';
import { issueToken } from './tokens.js';
import { ViewApiSetupError } from './errors.js';

export interface ViewApiOptions {
  dataDir: string;
  host?: string;
  /** Default 8443, as the original binds. */
  port?: number;
  /** Plain HTTP without authentication: only when asked for explicitly. */
  development?: boolean;
  /** PEM files of the server key and certificate; required unless development. */
  tls?: { keyFile: string; certFile: string };
}

export interface ViewApiServer {
  readonly server: ApiServer;
  readonly url: string;
  /** The server's certificate (production mode), for kubeconfigs. */
  readonly certPem: string | undefined;
  /** A view backend for the Operator controllers: in-process kind registration, a full-access client. */
  backend(): Promise<ViewBackend>;
  close(): Promise<void>;
}

const CRD = { group: 'apiextensions.k8s.io', version: 'v1', plural: 'customresourcedefinitions' };

/**
 * The view API server for FlowOps on a real cluster (spec §6): the embedded API server code,
 * serving only `*.view.dcontroller.io` groups. Production mode is HTTPS with RS256 JWT bearer
 * tokens signed by the server key; development mode (plain HTTP, no authentication) must be
 * chosen explicitly. View kinds are registered in process, since the CRD API is not served.
 */
export async function startViewApiServer(opts: ViewApiOptions): Promise<ViewApiServer> {
  if (!opts.development && !opts.tls)
    throw new ViewApiSetupError(
      'the view API server needs a TLS key and certificate unless started in development mode',
    );
  const keyPem = opts.tls ? readFileSync(opts.tls.keyFile, 'utf8') : undefined;
  const certPem = opts.tls ? readFileSync(opts.tls.certFile, 'utf8') : undefined;
  const server = await startApiServer({
    dataDir: opts.dataDir,
    host: opts.host ?? '127.0.0.1',
    port: opts.port ?? 8443,
    serveGroup: isViewGroup,
    ...(keyPem && certPem && !opts.development ? { tls: { key: keyPem, cert: certPem } } : {}),
  });
  if (!opts.development && certPem) server.addRoute(authRoute(certPem));
  server.addRoute((req, _res, url) => {
    ensureNamespace(server, req, url);
    return false;
  });

  const ensureKind = async (group: string, kind: string): Promise<void> => {
    const crdType = server.registry.lookup(CRD.group, CRD.version, CRD.plural)!;
    const crd = viewCrd(group, kind);
    if (!server.objects.getStored(crdType, undefined, crd.metadata.name))
      server.objects.create(crdType, undefined, crd as unknown as JsonObject);
  };
  const dropGroup = async (group: string): Promise<void> => {
    const crdType = server.registry.lookup(CRD.group, CRD.version, CRD.plural)!;
    for (const t of server.registry.all()) {
      if (t.group !== group) continue;
      const name = `${t.plural}.${t.group}`;
      if (server.objects.getStored(crdType, undefined, name)) server.objects.delete(crdType, undefined, name);
    }
  };
  return {
    server,
    url: server.url,
    certPem,
    async backend() {
      const token = keyPem
        ? await issueToken(keyPem, { username: 'flowops-controller', namespaces: ['*'], rules: [] })
        : undefined;
      const kc = new KubeConfig();
      kc.loadFromString(
        viewKubeconfig({
          server: server.url,
          user: 'flowops-controller',
          ...(token ? { token } : {}),
          ...(certPem ? { caPem: certPem } : {}),
          insecure: !certPem,
        }),
      );
      return { client: new KubeClient(kc), ensureKind, dropGroup };
    },
    close: () => server.close(),
  };
}

/** View objects live in namespaces the view server has never heard of: create them on first write. */
function ensureNamespace(server: ApiServer, req: IncomingMessage, url: URL): void {
  if (req.method === 'GET' || req.method === 'DELETE') return;
  const ns = requestAttributes(req, url)?.namespace;
  if (!ns) return;
  const nsType = server.registry.lookup('', 'v1', 'namespaces')!;
  if (!server.objects.getStored(nsType, undefined, ns)) {
    server.objects.create(nsType, undefined, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } });
  }
}

import { Agent as HttpAgent, request as httpRequest, type IncomingMessage, type RequestOptions } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { KubeConfig } from './kube-config.js';
import { KubeConfigError } from './errors.js';

export interface RestResponse {
  status: number;
  body: string;
}

export interface StatusBody {
  kind?: string;
  reason?: string;
  message?: string;
  code?: number;
}

/** A failed API call: the HTTP status and the Status object the server sent. */
export class KubeApiError extends Error {
  constructor(
    readonly statusCode: number,
    readonly reason: string,
    message: string,
    readonly body: string,
  ) {
    super(message);
  }

  static from(method: string, path: string, res: RestResponse): KubeApiError {
    let status: StatusBody = {};
    try {
      status = JSON.parse(res.body) as StatusBody;
    } catch {
      // not a Status object
    }
    const message = status.message ?? `${method} ${path}: HTTP ${res.status}`;
    return new KubeApiError(res.status, status.reason ?? 'Unknown', message, res.body);
  }
}

/** Who a request acts as (kube-apiserver's Impersonate-User / Impersonate-Group headers). */
export interface Impersonation {
  user: string;
  groups: readonly string[];
}

export interface RestCallOptions {
  query?: Record<string, string | undefined>;
  body?: unknown;
  contentType?: string;
  /** The Accept header, e.g. to ask for server-side Table output; default application/json. */
  accept?: string;
  /** Further request headers (a proxied client's Content-Type, Accept, User-Agent). */
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

/**
 * The HTTP layer under every FlowOps API call: the kubeconfig's server, TLS and credentials
 * (client-node's applyToHTTPSOptions), plain node:http(s) requests. Works the same against a
 * real cluster and the embedded server.
 */
export class RestClient {
  private readonly server: URL;
  /** Connections are kept alive: a reconcile makes several calls, and a new TCP connection each costs more than the call. */
  private readonly agent: HttpAgent;
  /**
   * Watches hold their connection for minutes. On the pooled agent, 64 of them (one informer per
   * Flow) would take every socket and starve every other call, so they get an unpooled agent.
   */
  private readonly watchAgent: HttpAgent;

  private readonly basePath: string;
  private staticOptions: Promise<RequestOptions> | undefined;
  private plainHttpConfig: KubeConfig | undefined;

  /**
   * `parent`: share its connections and credentials (an impersonating client for one Flow's
   * ServiceAccount is a view of FlowOps' own client with two more headers, not a new pool).
   */
  constructor(
    private readonly kc: KubeConfig,
    private readonly impersonation?: Impersonation,
    parent?: RestClient,
  ) {
    const cluster = kc.getCurrentCluster();
    if (!cluster) throw new KubeConfigError('NoCurrentCluster', 'kubeconfig has no current cluster');
    this.server = new URL(cluster.server);
    this.basePath = this.server.pathname.replace(/\/$/, '');
    this.agent =
      parent?.agent ??
      (this.server.protocol === 'https:'
        ? new HttpsAgent({ keepAlive: true, maxSockets: 64 })
        : new HttpAgent({ keepAlive: true, maxSockets: 64 }));
    this.watchAgent =
      parent?.watchAgent ??
      (this.server.protocol === 'https:' ? new HttpsAgent({ keepAlive: false }) : new HttpAgent({ keepAlive: false }));
    this.parent = parent;
  }

  private readonly parent: RestClient | undefined;

  /** The same client acting as `who` (the Flow's ServiceAccount): every request carries the impersonation headers. */
  impersonating(who: Impersonation): RestClient {
    return new RestClient(this.kc, who, this.parent ?? this);
  }

  get identity(): Impersonation | undefined {
    return this.impersonation;
  }

  /** Closes idle kept-alive connections (on shutdown); a client sharing its parent's leaves them to the parent. */
  close(): void {
    if (this.parent) return;
    this.agent.destroy();
    this.watchAgent.destroy();
  }

  async call(method: string, path: string, opts: RestCallOptions = {}): Promise<RestResponse> {
    const res = await this.open(method, path, opts);
    // Events rather than `for await`: the async iterator costs more than the call itself under load.
    const body = await new Promise<string>((resolve, reject) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve(chunks.length === 1 ? chunks[0]!.toString('utf8') : Buffer.concat(chunks).toString('utf8')),
      );
      res.on('error', reject);
      res.on('aborted', () => reject(new Error(`${method} ${path}: connection closed before the answer was complete`)));
    });
    return { status: res.statusCode ?? 0, body };
  }

  /** Like `call`, but throws KubeApiError for any status ≥ 400 and parses the JSON answer. */
  async json<T>(method: string, path: string, opts: RestCallOptions = {}): Promise<T> {
    const res = await this.call(method, path, opts);
    if (res.status >= 400) throw KubeApiError.from(method, path, res);
    return JSON.parse(res.body) as T;
  }

  /** Like `json` without parsing the answer: for writes whose result is not used. */
  async send(method: string, path: string, opts: RestCallOptions = {}): Promise<void> {
    const res = await this.call(method, path, opts);
    if (res.status >= 400) throw KubeApiError.from(method, path, res);
  }

  /** Opens a streaming GET (watch); the caller reads lines from the response. */
  async open(method: string, path: string, opts: RestCallOptions = {}): Promise<IncomingMessage> {
    const query = new URLSearchParams();
    for (const [k, v] of Object.entries(opts.query ?? {})) if (v !== undefined) query.set(k, v);
    const qs = query.size ? `?${query.toString()}` : '';
    const base = await this.connectionOptions();
    const extra = opts.headers ?? {};
    const overridden = new Set(Object.keys(extra).map((k) => k.toLowerCase()));
    const headers: Record<string, string | string[]> = {};
    for (const [k, v] of Object.entries((base.headers as Record<string, string> | undefined) ?? {}))
      if (!overridden.has(k.toLowerCase())) headers[k] = v;
    Object.assign(headers, opts.accept ? { Accept: opts.accept } : {}, extra);
    if (this.impersonation) {
      headers['Impersonate-User'] = this.impersonation.user;
      // Node sends an array as repeated header lines, which is how kube-apiserver reads groups.
      if (this.impersonation.groups.length) headers['Impersonate-Group'] = [...this.impersonation.groups];
    }
    let payload: string | Buffer | undefined;
    if (opts.body !== undefined) {
      payload = typeof opts.body === 'string' || Buffer.isBuffer(opts.body) ? opts.body : JSON.stringify(opts.body);
      if (opts.contentType || !opts.headers?.['content-type'])
        headers['Content-Type'] = opts.contentType ?? 'application/json';
      headers['Content-Length'] = String(Buffer.byteLength(payload));
    }
    const options: RequestOptions = {
      ...base,
      method,
      headers,
      path: this.basePath + path + qs,
      // Node's TLS agent keys pooled connections by their TLS options, so per-request CA/cert settings stay correct.
      agent: opts.query?.watch === 'true' ? this.watchAgent : this.agent,
      ...(opts.signal ? { signal: opts.signal } : {}),
    };
    const send = this.server.protocol === 'https:' ? httpsRequest : httpRequest;
    return new Promise((resolve, reject) => {
      const req = send(options, resolve);
      req.on('error', reject);
      req.end(payload);
    });
  }

  /**
   * client-node refuses a plain-http server unless the cluster says insecure-skip-tls-verify;
   * kubectl talks to it (there is no TLS to verify), and so do we: the credentials come from a
   * copy of the kubeconfig whose current cluster skips the TLS settings that cannot apply.
   */
  private credentialsSource(): KubeConfig {
    const cluster = this.kc.getCurrentCluster();
    if (this.server.protocol !== 'http:' || !cluster || cluster.skipTLSVerify) return this.kc;
    this.plainHttpConfig ??= copyWithSkipTls(this.kc, cluster.name);
    return this.plainHttpConfig;
  }

  /**
   * Host, TLS and credentials from the kubeconfig (client-node's applyToHTTPSOptions). Computed
   * once when the user's credentials are static; an exec plugin or auth provider may refresh
   * its token, so those are asked on every request.
   */
  private connectionOptions(): Promise<RequestOptions> {
    if (this.parent) return this.parent.connectionOptions();
    if (this.staticOptions) return this.staticOptions;
    const build = async (): Promise<RequestOptions> => {
      const o: RequestOptions & { ca?: unknown; cert?: unknown; key?: unknown; rejectUnauthorized?: boolean } = {
        protocol: this.server.protocol,
        hostname: this.server.hostname.replace(/^\[(.*)\]$/, '$1'),
        port: this.server.port || (this.server.protocol === 'https:' ? 443 : 80),
        headers: { Accept: 'application/json', 'User-Agent': 'flowops' },
      };
      await this.credentialsSource().applyToHTTPSOptions(o as never);
      return o;
    };
    const user = this.kc.getCurrentUser();
    if (user?.exec || user?.authProvider) return build();
    const options = build();
    this.staticOptions = options;
    // A failure (an unreadable client certificate) is not kept: the next request tries again.
    options.catch(() => {
      if (this.staticOptions === options) this.staticOptions = undefined;
    });
    return options;
  }
}

function copyWithSkipTls(kc: KubeConfig, clusterName: string): KubeConfig {
  const copy = Object.create(Object.getPrototypeOf(kc) as object) as KubeConfig;
  Object.assign(copy, kc);
  copy.loadFromOptions({
    clusters: kc.clusters.map((c) => (c.name === clusterName ? { ...c, skipTLSVerify: true } : c)),
    users: kc.users,
    contexts: kc.contexts,
    currentContext: kc.currentContext,
  });
  return copy;
}

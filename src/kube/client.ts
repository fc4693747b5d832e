import { KubeConfig } from './kube-config.js';
import { Discovery, resourcePath, type ApiResource } from './discovery.js';
import { KubeApiError, RestClient } from './rest.js';
import type { KubeObject, ObjectRef } from './types.js';
import { KubeConfigError } from './errors.js';

export type PatchType = 'merge' | 'json' | 'strategic' | 'apply';

const PATCH_CONTENT_TYPE: Record<PatchType, string> = {
  merge: 'application/merge-patch+json',
  json: 'application/json-patch+json',
  strategic: 'application/strategic-merge-patch+json',
  apply: 'application/apply-patch+yaml',
};

export interface ListResult {
  items: KubeObject[];
  resourceVersion: string;
}

/** The Kubernetes calls FlowOps makes, for any kind, addressed by apiVersion + kind (discovery maps them to paths). */
export class KubeClient {
  readonly rest: RestClient;
  readonly discovery: Discovery;

  constructor(
    readonly config: KubeConfig,
    rest?: RestClient,
    discovery?: Discovery,
  ) {
    this.rest = rest ?? new RestClient(config);
    this.discovery = discovery ?? new Discovery(this.rest);
  }

  /**
   * This client acting as a ServiceAccount (kube-apiserver impersonation): the user
   * `system:serviceaccount:<ns>:<name>`. No Impersonate-Group header: for a ServiceAccount user
   * kube-apiserver adds `system:serviceaccounts`, `system:serviceaccounts:<ns>` and
   * `system:authenticated` itself (filters/impersonation.go), so FlowOps needs `impersonate` on
   * serviceaccounts only, never on groups (which would let it claim any group). Connections and
   * discovery are shared; RBAC then decides every call as it would for the ServiceAccount itself.
   */
  asServiceAccount(namespace: string, name: string): KubeClient {
    const rest = this.rest.impersonating({ user: `system:serviceaccount:${namespace}:${name}`, groups: [] });
    return new KubeClient(this.config, rest, this.discovery);
  }

  /**
   * A client of the same cluster (server, CA, TLS settings) that authenticates with someone
   * else's bearer token and nothing of this client's credentials: the web view acts as its user.
   */
  withBearerToken(token: string): KubeClient {
    const cluster = this.config.getCurrentCluster();
    if (!cluster) throw new KubeConfigError('NoCurrentCluster', 'the kubeconfig has no current cluster');
    const kc = new KubeConfig();
    kc.loadFromOptions({
      clusters: [cluster],
      users: [{ name: 'bearer', token }],
      contexts: [{ name: 'bearer', cluster: cluster.name, user: 'bearer' }],
      currentContext: 'bearer',
    });
    return new KubeClient(kc);
  }

  static fromKubeconfig(file?: string): KubeClient {
    const kc = new KubeConfig();
    if (file) kc.loadFromFile(file);
    else kc.loadFromDefault();
    return new KubeClient(kc);
  }

  resource(apiVersion: string, kind: string): Promise<ApiResource> {
    return this.discovery.resourceFor(apiVersion, kind);
  }

  async get(ref: ObjectRef): Promise<KubeObject | undefined> {
    const r = await this.resource(ref.apiVersion, ref.kind);
    const res = await this.rest.call('GET', resourcePath(r, ref.namespace, ref.name));
    if (res.status === 404) return undefined;
    if (res.status >= 400) throw KubeApiError.from('GET', ref.name, res);
    return JSON.parse(res.body) as KubeObject;
  }

  async list(
    apiVersion: string,
    kind: string,
    opts: { namespace?: string; labelSelector?: string; fieldSelector?: string } = {},
  ): Promise<ListResult> {
    const r = await this.resource(apiVersion, kind);
    const list = await this.rest.json<{ items: KubeObject[]; metadata: { resourceVersion: string } }>(
      'GET',
      resourcePath(r, opts.namespace),
      {
        query: { labelSelector: opts.labelSelector, fieldSelector: opts.fieldSelector },
      },
    );
    for (const item of list.items) {
      item.apiVersion ??= apiVersion;
      item.kind ??= kind;
    }
    return { items: list.items, resourceVersion: list.metadata.resourceVersion };
  }

  async create(obj: KubeObject, opts: { fieldManager?: string } = {}): Promise<KubeObject> {
    const r = await this.resource(obj.apiVersion, obj.kind);
    return this.rest.json('POST', resourcePath(r, obj.metadata.namespace), {
      body: obj,
      query: { fieldManager: opts.fieldManager },
    });
  }

  /** Like create, for writes whose answer nobody reads (Events): the reply is checked, not parsed. */
  async sendCreate(obj: KubeObject, opts: { fieldManager?: string } = {}): Promise<void> {
    const r = await this.resource(obj.apiVersion, obj.kind);
    await this.rest.send('POST', resourcePath(r, obj.metadata.namespace), {
      body: obj,
      query: { fieldManager: opts.fieldManager },
    });
  }

  /** Like patch, for writes whose answer nobody reads (status conditions): the reply is checked, not parsed. */
  async sendPatch(
    ref: ObjectRef,
    patch: unknown,
    type: Exclude<PatchType, 'apply'>,
    opts: { fieldManager?: string; subresource?: string } = {},
  ): Promise<void> {
    const r = await this.resource(ref.apiVersion, ref.kind);
    await this.rest.send('PATCH', resourcePath(r, ref.namespace, ref.name, opts.subresource), {
      body: patch,
      contentType: PATCH_CONTENT_TYPE[type],
      query: { fieldManager: opts.fieldManager },
    });
  }

  /** Server-side apply (creates when missing). */
  async apply(obj: KubeObject, opts: { fieldManager: string; force?: boolean; dryRun?: boolean }): Promise<KubeObject> {
    const r = await this.resource(obj.apiVersion, obj.kind);
    return this.rest.json('PATCH', resourcePath(r, obj.metadata.namespace, obj.metadata.name), {
      body: obj,
      contentType: PATCH_CONTENT_TYPE.apply,
      query: {
        fieldManager: opts.fieldManager,
        force: opts.force === false ? 'false' : 'true',
        dryRun: opts.dryRun ? 'All' : undefined,
      },
    });
  }

  async patch(
    ref: ObjectRef,
    patch: unknown,
    type: PatchType,
    opts: { fieldManager?: string; subresource?: string; force?: boolean } = {},
  ): Promise<KubeObject> {
    const r = await this.resource(ref.apiVersion, ref.kind);
    return this.rest.json('PATCH', resourcePath(r, ref.namespace, ref.name, opts.subresource), {
      body: patch,
      contentType: PATCH_CONTENT_TYPE[type],
      query: { fieldManager: opts.fieldManager, force: type === 'apply' ? String(opts.force ?? true) : undefined },
    });
  }

  async replace(obj: KubeObject, opts: { subresource?: string; fieldManager?: string } = {}): Promise<KubeObject> {
    const r = await this.resource(obj.apiVersion, obj.kind);
    return this.rest.json('PUT', resourcePath(r, obj.metadata.namespace, obj.metadata.name, opts.subresource), {
      body: obj,
      query: { fieldManager: opts.fieldManager },
    });
  }

  /** Returns false when the object was already gone. */
  async delete(
    ref: ObjectRef,
    opts: { propagationPolicy?: 'Background' | 'Foreground' | 'Orphan' } = {},
  ): Promise<boolean> {
    const r = await this.resource(ref.apiVersion, ref.kind);
    const res = await this.rest.call('DELETE', resourcePath(r, ref.namespace, ref.name), {
      body: { kind: 'DeleteOptions', apiVersion: 'v1', propagationPolicy: opts.propagationPolicy ?? 'Background' },
    });
    if (res.status === 404) return false;
    if (res.status >= 400) throw KubeApiError.from('DELETE', ref.name, res);
    return true;
  }

  /** Does the kind have a status subresource (so status writes go to /status)? */
  async hasStatus(apiVersion: string, kind: string): Promise<boolean> {
    return (await this.resource(apiVersion, kind)).subresources.includes('status');
  }
}

export function isNotFound(e: unknown): boolean {
  return e instanceof KubeApiError && e.statusCode === 404;
}

export function isConflict(e: unknown): boolean {
  return e instanceof KubeApiError && e.statusCode === 409;
}

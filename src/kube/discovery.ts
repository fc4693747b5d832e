import { KubeApiError, type RestClient } from './rest.js';

export interface ApiResource {
  group: string;
  version: string;
  kind: string;
  plural: string;
  namespaced: boolean;
  subresources: string[];
}

interface ResourceList {
  resources: Array<{ name: string; kind: string; namespaced: boolean }>;
}

export class UnknownKindError extends Error {
  constructor(
    readonly apiVersion: string,
    readonly kind: string,
  ) {
    super(`no matches for kind "${kind}" in version "${apiVersion}"`);
  }
}

/** Maps apiVersion + kind to a resource path, from legacy discovery, re-asking on a miss (a CRD may have just appeared). */
export class Discovery {
  private readonly cache = new Map<string, Promise<ApiResource[]>>();

  constructor(private readonly rest: RestClient) {}

  async resourceFor(apiVersion: string, kind: string): Promise<ApiResource> {
    let found = (await this.groupVersion(apiVersion)).find((r) => r.kind === kind);
    if (!found) {
      this.cache.delete(apiVersion);
      found = (await this.groupVersion(apiVersion)).find((r) => r.kind === kind);
    }
    if (!found) throw new UnknownKindError(apiVersion, kind);
    return found;
  }

  invalidate(): void {
    this.cache.clear();
  }

  private groupVersion(apiVersion: string): Promise<ApiResource[]> {
    let p = this.cache.get(apiVersion);
    if (!p) {
      p = this.fetch(apiVersion);
      this.cache.set(apiVersion, p);
      p.catch(() => this.cache.delete(apiVersion));
    }
    return p;
  }

  private async fetch(apiVersion: string): Promise<ApiResource[]> {
    const [group, version] = apiVersion.includes('/') ? (apiVersion.split('/') as [string, string]) : ['', apiVersion];
    const path = group ? `/apis/${group}/${version}` : `/api/${version}`;
    const res = await this.rest.call('GET', path);
    if (res.status === 404) return [];
    // The server's Status (status code, reason) travels on: a step's outcome reads a 5xx as retryable.
    if (res.status >= 400) throw KubeApiError.from('GET', path, res);
    const list = JSON.parse(res.body) as ResourceList;
    const subs = new Map<string, string[]>();
    for (const r of list.resources) {
      const [base, sub] = r.name.split('/');
      if (sub) subs.set(base!, [...(subs.get(base!) ?? []), sub]);
    }
    return list.resources
      .filter((r) => !r.name.includes('/'))
      .map((r) => ({
        group,
        version,
        kind: r.kind,
        plural: r.name,
        namespaced: r.namespaced,
        subresources: subs.get(r.name) ?? [],
      }));
  }
}

export function resourcePath(
  r: ApiResource,
  namespace: string | undefined,
  name?: string,
  subresource?: string,
): string {
  const base = r.group ? `/apis/${r.group}/${r.version}` : `/api/${r.version}`;
  const ns = r.namespaced && namespace ? `/namespaces/${encodeURIComponent(namespace)}` : '';
  const item = name ? `/${encodeURIComponent(name)}` : '';
  return `${base}${ns}/${r.plural}${item}${subresource && name ? `/${subresource}` : ''}`;
}

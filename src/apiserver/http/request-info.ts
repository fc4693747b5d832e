/** What a resource URL names, as kube-apiserver's RequestInfo resolves it. */
export interface ResourceRequest {
  group: string;
  version: string;
  namespace: string | undefined;
  resource: string;
  name: string | undefined;
  subresource: string | undefined;
}

const NAMESPACE_SUBRESOURCES = new Set(['status', 'finalize']);

/**
 * Parses `/api/v1[/namespaces/{ns}]/{resource}[/{name}[/{sub}]]` and the `/apis/{g}/{v}/…` form.
 * `/api/v1/namespaces/{name}` is the namespace itself; anything after it is a resource inside it.
 */
export function parseResourcePath(pathname: string): ResourceRequest | undefined {
  const parts = pathname.split('/').filter(Boolean).map(decodeURIComponent);
  let group: string;
  let version: string;
  let rest: string[];
  if (parts[0] === 'api' && parts.length >= 3) {
    group = '';
    version = parts[1]!;
    rest = parts.slice(2);
  } else if (parts[0] === 'apis' && parts.length >= 4) {
    group = parts[1]!;
    version = parts[2]!;
    rest = parts.slice(3);
  } else {
    return undefined;
  }
  let namespace: string | undefined;
  if (rest[0] === 'namespaces' && rest.length >= 3 && !NAMESPACE_SUBRESOURCES.has(rest[2]!)) {
    namespace = rest[1];
    rest = rest.slice(2);
  }
  const [resource, name, subresource, ...extra] = rest;
  if (!resource || extra.length) return undefined;
  return { group, version, namespace, resource, name, subresource };
}

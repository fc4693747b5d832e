import type { UserInfo } from './user-info.js';
import { booleanParam } from '../http/query.js';
import { fieldSelectorExactMatch, parseFieldSelector } from '../selectors/index.js';

/** What a request asks to do, as kube-apiserver's RequestInfoFactory resolves it for the authorizer. */
export interface RequestAttributes {
  verb: string;
  /** Resource requests only (`/api/…`, `/apis/…` with a version and a resource). */
  resource?: ResourceAttributes;
  /** Non-resource requests: the URL path. */
  path: string;
}

export interface ResourceAttributes {
  group: string;
  version: string;
  resource: string;
  subresource: string;
  namespace: string;
  name: string;
}

export interface Authorizable extends RequestAttributes {
  user: UserInfo;
}

const METHOD_VERBS: Record<string, string> = {
  POST: 'create',
  GET: 'get',
  HEAD: 'get',
  PUT: 'update',
  PATCH: 'patch',
  DELETE: 'delete',
};
/** A path segment kube-apiserver would accept as a name (path.IsValidPathSegmentName). */
const validSegment = (s: string): boolean => s !== '.' && s !== '..' && !s.includes('/') && !s.includes('%');

/** k8s.io/apiserver/pkg/endpoints/request/requestinfo.go, for the paths this server serves. */
export function requestAttributes(method: string, url: URL): RequestAttributes {
  const path = url.pathname;
  const nonResource: RequestAttributes = { verb: method.toLowerCase(), path };
  let parts = path.split('/').filter(Boolean);
  if (parts.length < 3 || (parts[0] !== 'api' && parts[0] !== 'apis')) return nonResource;
  let group = '';
  parts = parts.slice(1);
  if (path.startsWith('/apis/')) {
    if (parts.length < 3) return nonResource;
    group = parts[0]!;
    parts = parts.slice(1);
  }
  const version = parts[0]!;
  parts = parts.slice(1).map(safeDecode);
  let namespace = '';
  if (parts[0] === 'namespaces' && parts.length > 1) {
    namespace = parts[1]!;
    if (parts.length > 2 && parts[2] !== 'status' && parts[2] !== 'finalize') parts = parts.slice(2);
  }
  const [resource = '', name = '', subresource = ''] = parts;
  let verb = METHOD_VERBS[method] ?? '';
  let resourceName = name;
  if (!name && verb === 'get') {
    verb = booleanParam(url.searchParams, 'watch') ? 'watch' : 'list';
    const fs = url.searchParams.get('fieldSelector');
    const exact = fs ? exactName(fs) : undefined;
    if (exact && validSegment(exact)) resourceName = exact;
  }
  if (!name && verb === 'delete') verb = 'deletecollection';
  return { verb, path, resource: { group, version, resource, subresource, namespace, name: resourceName } };
}

function exactName(selector: string): string | undefined {
  try {
    return fieldSelectorExactMatch(parseFieldSelector(selector), 'metadata.name');
  } catch {
    // An unparsable selector is the handler's 400 to give; it names no object.
    return undefined;
  }
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

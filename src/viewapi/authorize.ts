import type { PolicyRule, ViewClaims } from './tokens.js';

/** What a resource request asks for, in RBAC terms. */
export interface RequestAttributes {
  verb: string;
  apiGroup: string;
  resource: string;
  subresource?: string;
  namespace?: string;
  name?: string;
}

/** `*`, exact, and `pre*` / `*suf` / `pre*suf` patterns (e.g. `*.view.dcontroller.io`). */
export function matchPattern(pattern: string, value: string): boolean {
  if (pattern === '*' || pattern === value) return true;
  const star = pattern.indexOf('*');
  if (star < 0) return false;
  const pre = pattern.slice(0, star);
  const suf = pattern.slice(star + 1);
  return value.length >= pre.length + suf.length && value.startsWith(pre) && value.endsWith(suf);
}

const NAME_SCOPED = new Set(['get', 'update', 'patch', 'delete']);

function ruleAllows(rule: PolicyRule, a: RequestAttributes): boolean {
  const resource = a.subresource ? `${a.resource}/${a.subresource}` : a.resource;
  if (!rule.verbs.some((v) => matchPattern(v, a.verb))) return false;
  if (!(rule.apiGroups ?? []).some((g) => matchPattern(g, a.apiGroup))) return false;
  if (!(rule.resources ?? []).some((r) => matchPattern(r, resource))) return false;
  // resourceNames restrict only the verbs that name an object (spec §6).
  if (rule.resourceNames?.length && NAME_SCOPED.has(a.verb))
    return a.name !== undefined && rule.resourceNames.includes(a.name);
  return true;
}

/** The view API server's authorizer (spec §6): a reason when denied, undefined when allowed. */
export function authorize(claims: ViewClaims, a: RequestAttributes): string | undefined {
  const ns = claims.namespaces;
  const all = ns.includes('*');
  if (a.namespace !== undefined) {
    if (ns.length && !all && !ns.includes(a.namespace)) return `namespace ${a.namespace} is not allowed`;
  } else if ((a.verb === 'list' || a.verb === 'watch') && ns.length && !all) {
    return 'cluster-wide list and watch need namespace "*"';
  }
  if (claims.rules.length && !claims.rules.some((r) => ruleAllows(r, a))) return 'no rule allows it';
  return undefined;
}

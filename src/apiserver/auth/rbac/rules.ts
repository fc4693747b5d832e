import type { RequestAttributes } from '../attributes.js';

/** rbac.authorization.k8s.io/v1 PolicyRule. */
export interface PolicyRule {
  verbs: string[];
  apiGroups?: string[];
  resources?: string[];
  resourceNames?: string[];
  nonResourceURLs?: string[];
}

const has = (list: readonly string[] | undefined, value: string): boolean =>
  !!list && (list.includes('*') || list.includes(value));

/** plugin/pkg/auth/authorizer/rbac: RuleAllows, with its verb, group, resource, name and URL matchers. */
export function ruleAllows(attrs: RequestAttributes, rule: PolicyRule): boolean {
  if (!has(rule.verbs, attrs.verb)) return false;
  const r = attrs.resource;
  if (!r) return nonResourceUrlMatches(rule, attrs.path);
  if (!has(rule.apiGroups, r.group)) return false;
  if (!resourceMatches(rule, r.subresource ? `${r.resource}/${r.subresource}` : r.resource, r.subresource))
    return false;
  return !rule.resourceNames?.length || rule.resourceNames.includes(r.name);
}

function resourceMatches(rule: PolicyRule, combined: string, subresource: string): boolean {
  for (const res of rule.resources ?? []) {
    if (res === '*' || res === combined) return true;
    // "*/scale": that subresource of every resource.
    if (subresource && res === `*/${subresource}`) return true;
  }
  return false;
}

function nonResourceUrlMatches(rule: PolicyRule, path: string): boolean {
  for (const url of rule.nonResourceURLs ?? []) {
    if (url === '*' || url === path) return true;
    if (url.endsWith('*') && path.startsWith(url.slice(0, -1))) return true;
  }
  return false;
}

/** Reads a stored role's rules, tolerating `rules: null` (an aggregated ClusterRole not yet filled). */
export function rulesOf(role: { rules?: unknown }): PolicyRule[] {
  return Array.isArray(role.rules) ? (role.rules as PolicyRule[]) : [];
}

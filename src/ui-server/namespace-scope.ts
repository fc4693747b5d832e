// A user whose RBAC stops at namespaces (a Role in `default`, no ClusterRole) is refused every
// list at the cluster scope, which is how the web view lists. kubectl users then name a namespace;
// the web view asks the API server which namespaces this user may list a resource in
// (SelfSubjectRulesReview, one per namespace, made with the user's own token) and lists there.

import type { KubeClient } from '../kube/index.js';

/** One request's worth: a server with more namespaces than this is asked about these first ones only. */
export const MAX_NAMESPACES = 100;

interface ResourceRule {
  verbs?: string[];
  apiGroups?: string[];
  resources?: string[];
  resourceNames?: string[];
}

interface RulesReview {
  status?: { resourceRules?: ResourceRule[]; incomplete?: boolean };
}

const has = (list: string[] | undefined, v: string): boolean => (list ?? []).some((x) => x === v || x === '*');

/** The rules allow listing `group`/`plural` (a rule limited to named objects does not: list has no name). */
export function allowsList(rules: readonly ResourceRule[], group: string, plural: string): boolean {
  return rules.some(
    (r) =>
      has(r.verbs, 'list') && has(r.apiGroups, group) && has(r.resources, plural) && !(r.resourceNames ?? []).length,
  );
}

export class NamespaceScope {
  private readonly rules = new Map<string, Promise<ResourceRule[]>>();
  private namespaces: Promise<string[]> | undefined;

  constructor(
    /** The user's own client: the reviews say what this user may do. */
    private readonly user: KubeClient,
    /** Every namespace, listed by the web view's own identity (the user may not list them). */
    private readonly allNamespaces: () => Promise<string[]>,
  ) {}

  /** The namespaces where the user may list this resource, in name order. */
  async listable(group: string, plural: string): Promise<string[]> {
    this.namespaces ??= this.allNamespaces().then((all) => [...all].sort().slice(0, MAX_NAMESPACES));
    const names = await this.namespaces;
    const allowed = await Promise.all(names.map(async (ns) => allowsList(await this.rulesIn(ns), group, plural)));
    return names.filter((_, i) => allowed[i]);
  }

  private rulesIn(namespace: string): Promise<ResourceRule[]> {
    let rules = this.rules.get(namespace);
    if (!rules) {
      const body = { apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectRulesReview', spec: { namespace } };
      rules = this.user.rest
        .json<RulesReview>('POST', '/apis/authorization.k8s.io/v1/selfsubjectrulesreviews', { body })
        .then((r) => r.status?.resourceRules ?? [])
        .catch(() => []);
      this.rules.set(namespace, rules);
    }
    return rules;
  }
}

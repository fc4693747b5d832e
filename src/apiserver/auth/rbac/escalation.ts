import { ApiError } from '../../http/status.js';
import { metadataOf } from '../../objects/meta.js';
import type { Admission, Operation, WriteOptions } from '../../objects/object-store.js';
import { type JsonObject, type ResourceType, qualifiedResource } from '../../registry/types.js';
import { MASTERS, type UserInfo } from '../user-info.js';
import type { RbacAuthorizer } from './authorizer.js';
import { RBAC_GROUP } from './policy-index.js';
import { rulesOf, type PolicyRule } from './rules.js';

/**
 * RBAC's escalation prevention (pkg/registry/rbac/escalation_check.go): a user may write a Role
 * or ClusterRole only with rules they already hold (or the `escalate` verb on it), and a binding
 * only to a role whose rules they hold (or the `bind` verb on it), so nobody grants more than
 * they have, e.g. a Flow's ServiceAccount that may write RoleBindings binding itself cluster-admin.
 */
export class EscalationCheck implements Admission {
  constructor(private readonly authorizer: RbacAuthorizer) {}

  admit(t: ResourceType, op: Operation, obj: JsonObject, _old: JsonObject | undefined, opts: WriteOptions): void {
    const user = opts.requester;
    if (!user || t.group !== RBAC_GROUP || (op !== 'CREATE' && op !== 'UPDATE')) return;
    const meta = metadataOf(obj);
    const name = String(meta.name ?? '');
    const namespace = t.namespaced ? String(meta.namespace ?? '') : '';
    const may = (verb: string, resource: string, target: string, ns: string) =>
      this.authorizer.authorize({
        user,
        verb,
        path: '',
        resource: { group: RBAC_GROUP, version: 'v1', resource, subresource: '', namespace: ns, name: target },
      }).allowed;
    let granted: PolicyRule[];
    if (t.plural === 'roles' || t.plural === 'clusterroles') {
      if (may('escalate', t.plural, name, namespace)) return;
      granted = rulesOf(obj);
    } else if (t.plural === 'rolebindings' || t.plural === 'clusterrolebindings') {
      const ref = (obj.roleRef ?? {}) as { kind?: string; name?: string };
      const refResource = ref.kind === 'ClusterRole' ? 'clusterroles' : 'roles';
      // Asked in the binding's namespace, whatever the role's scope (BindingAuthorized).
      if (may('bind', refResource, String(ref.name ?? ''), namespace)) return;
      const rules = this.authorizer.index.roleRules(String(ref.kind ?? ''), namespace, String(ref.name ?? ''));
      if (!rules)
        throw forbiddenWrite(
          t,
          name,
          `${ref.kind === 'ClusterRole' ? 'clusterrole' : 'role'}.${RBAC_GROUP} "${String(ref.name ?? '')}" not found`,
        );
      granted = rules;
    } else {
      return;
    }
    const missing = uncovered(user, namespace, granted, this.authorizer);
    if (missing.length) {
      const groups = user.groups.map((g) => JSON.stringify(g)).join(' ');
      throw forbiddenWrite(
        t,
        name,
        `user ${JSON.stringify(user.username)} (groups=[${groups}]) is attempting to grant RBAC permissions not currently held:\n${missing.map(compact).join('\n')}`,
      );
    }
  }
}

function forbiddenWrite(t: ResourceType, name: string, why: string): ApiError {
  return new ApiError(403, 'Forbidden', `${qualifiedResource(t)} "${name}" is forbidden: ${why}`, {
    name,
    group: t.group,
    kind: t.plural,
  });
}

/** The atomic rules (one verb, group, resource, name or URL each) of `granted` the user does not hold in namespace. */
function uncovered(user: UserInfo, namespace: string, granted: PolicyRule[], authorizer: RbacAuthorizer): PolicyRule[] {
  // system:masters holds everything, as the privileged-group authorizer allows it everything.
  if (user.groups.includes(MASTERS)) return [];
  const owned = authorizer.index.rulesFor(user, namespace).rules.flat();
  return granted.flatMap(atomic).filter((a) => !owned.some((o) => covers(o, a)));
}

function atomic(r: PolicyRule): PolicyRule[] {
  const out: PolicyRule[] = [];
  for (const verb of r.verbs) {
    if (r.nonResourceURLs?.length)
      for (const url of r.nonResourceURLs) out.push({ verbs: [verb], nonResourceURLs: [url] });
    for (const group of r.apiGroups ?? []) {
      for (const resource of r.resources ?? []) {
        if (r.resourceNames?.length)
          for (const n of r.resourceNames)
            out.push({ verbs: [verb], apiGroups: [group], resources: [resource], resourceNames: [n] });
        else out.push({ verbs: [verb], apiGroups: [group], resources: [resource] });
      }
    }
  }
  return out;
}

const holds = (list: string[] | undefined, v: string): boolean => !!list && (list.includes('*') || list.includes(v));

/** validation.ruleCovers for one atomic rule. */
function covers(owner: PolicyRule, a: PolicyRule): boolean {
  const verb = a.verbs[0]!;
  if (!holds(owner.verbs, verb)) return false;
  const url = a.nonResourceURLs?.[0];
  if (url !== undefined)
    return (owner.nonResourceURLs ?? []).some(
      (o) => o === '*' || o === url || (o.endsWith('*') && url.startsWith(o.slice(0, -1))),
    );
  if (!holds(owner.apiGroups, a.apiGroups![0]!)) return false;
  const resource = a.resources![0]!;
  const sub = resource.includes('/') ? resource.slice(resource.indexOf('/')) : undefined;
  if (!holds(owner.resources, resource) && !(sub && owner.resources?.includes(`*${sub}`))) return false;
  if (!owner.resourceNames?.length) return true;
  const n = a.resourceNames?.[0];
  return n !== undefined && owner.resourceNames.includes(n);
}

/** rbacv1helpers' CompactString, the shape kube-apiserver lists missing permissions in. */
function compact(r: PolicyRule): string {
  const q = (xs: string[]) => `[${xs.map((x) => JSON.stringify(x)).join(' ')}]`;
  const parts: string[] = [];
  if (r.apiGroups) parts.push(`APIGroups:${q(r.apiGroups)}`);
  if (r.resources) parts.push(`Resources:${q(r.resources)}`);
  if (r.resourceNames) parts.push(`ResourceNames:${q(r.resourceNames)}`);
  if (r.nonResourceURLs) parts.push(`NonResourceURLs:${q(r.nonResourceURLs)}`);
  parts.push(`Verbs:${q(r.verbs)}`);
  return `{${parts.join(', ')}}`;
}

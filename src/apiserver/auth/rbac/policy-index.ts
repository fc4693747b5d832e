import type { ObjectStore } from '../../objects/object-store.js';
import type { ResourceRegistry } from '../../registry/resource-registry.js';
import type { JsonObject, ResourceType } from '../../registry/types.js';
import { type UserInfo, parseServiceAccountUsername } from '../user-info.js';
import { rulesOf, type PolicyRule } from './rules.js';

export const RBAC_GROUP = 'rbac.authorization.k8s.io';

interface Subject {
  kind: string;
  name: string;
  namespace?: string;
}

interface Binding {
  name: string;
  namespace: string | undefined;
  roleRef: { kind: string; name: string };
  subjects: Subject[];
}

/** Rules that apply to a user in a namespace, and the binding errors met on the way (RBAC's "reason"). */
export interface ApplicableRules {
  /** Grouped per binding, as SelfSubjectRulesReview lists them. */
  rules: PolicyRule[][];
  errors: string[];
}

/**
 * The stored Roles, ClusterRoles and their bindings, read once per RBAC write rather than per
 * request: authorizing is then a lookup plus a match over the user's own rules.
 */
export class PolicyIndex {
  private generation = 0;
  private built = -1;
  private clusterRoles = new Map<string, PolicyRule[]>();
  private roles = new Map<string, PolicyRule[]>();
  private clusterBindings: Binding[] = [];
  private bindings = new Map<string, Binding[]>();
  private readonly cache = new Map<string, ApplicableRules>();

  constructor(
    private readonly registry: ResourceRegistry,
    private readonly objects: ObjectStore,
  ) {}

  /** An ObjectStore write listener: any RBAC write makes the index stale. */
  readonly onWrite = (t: ResourceType): void => {
    if (t.group === RBAC_GROUP) this.generation++;
  };

  rulesFor(user: UserInfo, namespace: string): ApplicableRules {
    this.refresh();
    const key = `${namespace}\n${user.username}\n${user.groups.join('\n')}`;
    let found = this.cache.get(key);
    if (!found) {
      found = this.compute(user, namespace);
      // Bounded: many distinct users only cost recomputation, never memory without end.
      if (this.cache.size > 10_000) this.cache.clear();
      this.cache.set(key, found);
    }
    return found;
  }

  /** A Role's (in namespace) or ClusterRole's rules; undefined when it does not exist. */
  roleRules(kind: string, namespace: string, name: string): PolicyRule[] | undefined {
    this.refresh();
    return kind === 'ClusterRole' ? this.clusterRoles.get(name) : this.roles.get(`${namespace}/${name}`);
  }

  private compute(user: UserInfo, namespace: string): ApplicableRules {
    const out: ApplicableRules = { rules: [], errors: [] };
    const visit = (b: Binding, ns: string) => {
      if (!b.subjects.some((s) => appliesTo(user, s, ns))) return;
      const rules =
        b.roleRef.kind === 'ClusterRole'
          ? this.clusterRoles.get(b.roleRef.name)
          : this.roles.get(`${ns}/${b.roleRef.name}`);
      if (rules) out.rules.push(rules);
      else out.errors.push(`${b.roleRef.kind.toLowerCase()}.${RBAC_GROUP} "${b.roleRef.name}" not found`);
    };
    for (const b of this.clusterBindings) visit(b, '');
    if (namespace) for (const b of this.bindings.get(namespace) ?? []) visit(b, namespace);
    return out;
  }

  private refresh(): void {
    if (this.built === this.generation) return;
    this.built = this.generation;
    this.cache.clear();
    this.clusterRoles = new Map(this.read('clusterroles').map((r) => [name(r), rulesOf(r)]));
    this.roles = new Map(this.read('roles').map((r) => [`${namespaceOf(r)}/${name(r)}`, rulesOf(r)]));
    this.clusterBindings = this.read('clusterrolebindings').map(binding);
    this.bindings = new Map();
    for (const b of this.read('rolebindings').map(binding)) {
      const list = this.bindings.get(b.namespace ?? '') ?? [];
      list.push(b);
      this.bindings.set(b.namespace ?? '', list);
    }
  }

  private read(plural: string): JsonObject[] {
    const t = this.registry.lookup(RBAC_GROUP, 'v1', plural)!;
    return this.objects.list(t, undefined).items.map((text) => JSON.parse(text) as JsonObject);
  }
}

const meta = (o: JsonObject) => (o.metadata ?? {}) as { name?: string; namespace?: string };
const name = (o: JsonObject) => String(meta(o).name);
const namespaceOf = (o: JsonObject) => String(meta(o).namespace ?? '');

function binding(o: JsonObject): Binding {
  const ref = (o.roleRef ?? {}) as { kind?: string; name?: string };
  const ns = meta(o).namespace;
  return {
    name: name(o),
    namespace: ns,
    roleRef: { kind: String(ref.kind ?? ''), name: String(ref.name ?? '') },
    subjects: Array.isArray(o.subjects) ? (o.subjects as unknown as Subject[]) : [],
  };
}

/** plugin/pkg/auth/authorizer/rbac: appliesToUser. A ServiceAccount subject without a namespace is in the binding's. */
function appliesTo(user: UserInfo, s: Subject, namespace: string): boolean {
  if (s.kind === 'User') return user.username === s.name;
  if (s.kind === 'Group') return user.groups.includes(s.name);
  if (s.kind !== 'ServiceAccount') return false;
  const ns = s.namespace || namespace;
  if (!ns) return false;
  const sa = parseServiceAccountUsername(user.username);
  return sa?.namespace === ns && sa.name === s.name;
}

import { deepEqual, labelsOf, metadataOf } from '../../objects/meta.js';
import type { ObjectStore } from '../../objects/object-store.js';
import type { ResourceRegistry } from '../../registry/resource-registry.js';
import type { JsonObject, JsonValue, ResourceType } from '../../registry/types.js';
import { labelSelectorFromMatch, matchesLabels, type LabelSelectorObject } from '../../selectors/index.js';
import { RBAC_GROUP } from './policy-index.js';
import { keepGoing } from '../../../log/keep-going.js';

/**
 * kube-controller-manager's clusterrole-aggregation-controller: a ClusterRole with an
 * aggregationRule has as rules the union of the rules of every ClusterRole its selectors match
 * (in name order, each rule once), written into the object so kubectl shows them.
 */
export class ClusterRoleAggregation {
  private pending = false;

  constructor(
    private readonly registry: ResourceRegistry,
    private readonly objects: ObjectStore,
  ) {}

  readonly onWrite = (t: ResourceType): void => {
    if (t.group !== RBAC_GROUP || t.plural !== 'clusterroles' || this.pending) return;
    // After the write that triggered it, not inside it; one pass for a burst of writes.
    this.pending = true;
    queueMicrotask(() => {
      this.pending = false;
      keepGoing('clusterrole-aggregation', this.objects.onFault, () => this.reconcileAll());
    });
  };

  reconcileAll(): void {
    const t = this.registry.lookup(RBAC_GROUP, 'v1', 'clusterroles')!;
    const all = this.objects.list(t, undefined).items.map((text) => JSON.parse(text) as JsonObject);
    all.sort((a, b) => String(metadataOf(a).name).localeCompare(String(metadataOf(b).name)));
    // Each role on its own: one that cannot be aggregated (a selector stored before validation
    // refused it) is reported and the others are still kept up to date.
    for (const role of all) {
      keepGoing('clusterrole-aggregation', this.objects.onFault, () => this.reconcile(t, role, all));
    }
  }

  private reconcile(t: ResourceType, role: JsonObject, all: JsonObject[]): void {
    const rule = role.aggregationRule as { clusterRoleSelectors?: LabelSelectorObject[] } | undefined;
    if (!rule?.clusterRoleSelectors?.length) return;
    const rules: JsonValue[] = [];
    for (const sel of rule.clusterRoleSelectors) {
      const selector = labelSelectorFromMatch(sel);
      for (const other of all) {
        if (other === role || !matchesLabels(selector, labelsOf(other))) continue;
        for (const r of Array.isArray(other.rules) ? other.rules : [])
          if (!rules.some((x) => deepEqual(x, r))) rules.push(r);
      }
    }
    if (deepEqual(role.rules ?? null, rules)) return;
    const name = String(metadataOf(role).name);
    this.objects.patch(t, undefined, name, (current) => ({ ...current, rules }), {
      fieldManager: 'clusterrole-aggregation-controller',
    });
  }
}

import type { ObjectStore } from '../objects/object-store.js';
import type { ResourceRegistry } from '../registry/resource-registry.js';
import type { JsonObject, JsonValue } from '../registry/types.js';
import { rulesOf, type RuleWithOperations } from './matching.js';

/**
 * The webhooks of the stored Mutating/ValidatingWebhookConfigurations with v1's defaults filled in
 * (pkg/apis/admissionregistration/v1/defaults.go), configurations in name order and each one's
 * webhooks in their order, as kube-apiserver's configuration manager hands them to the dispatcher.
 */
export interface Webhook {
  configuration: string;
  name: string;
  rules: RuleWithOperations[];
  failurePolicy: 'Fail' | 'Ignore';
  matchPolicy: 'Exact' | 'Equivalent';
  namespaceSelector: JsonValue | undefined;
  objectSelector: JsonValue | undefined;
  matchConditions: Array<{ name: string; expression: string }>;
  sideEffects: string | undefined;
  timeoutSeconds: number;
  reinvocationPolicy: 'Never' | 'IfNeeded';
  clientConfig: JsonObject;
}

const isMap = (v: JsonValue | undefined): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: JsonValue | undefined): string | undefined => (typeof v === 'string' ? v : undefined);

export function storedWebhooks(objects: ObjectStore, registry: ResourceRegistry, plural: string): Webhook[] {
  const t = registry.lookup('admissionregistration.k8s.io', 'v1', plural);
  if (!t) return [];
  const configs = objects.list(t, undefined).items.map((text) => JSON.parse(text) as JsonObject);
  const name = (c: JsonObject) => String(isMap(c.metadata) ? c.metadata.name : '');
  configs.sort((a, b) => (name(a) < name(b) ? -1 : name(a) > name(b) ? 1 : 0));
  const out: Webhook[] = [];
  for (const c of configs) {
    for (const w of Array.isArray(c.webhooks) ? c.webhooks.filter(isMap) : []) {
      const conditions = Array.isArray(w.matchConditions) ? w.matchConditions.filter(isMap) : [];
      out.push({
        configuration: name(c),
        name: str(w.name) ?? '',
        rules: rulesOf(w.rules),
        failurePolicy: w.failurePolicy === 'Ignore' ? 'Ignore' : 'Fail',
        matchPolicy: w.matchPolicy === 'Exact' ? 'Exact' : 'Equivalent',
        namespaceSelector: w.namespaceSelector,
        objectSelector: w.objectSelector,
        matchConditions: conditions.map((m) => ({ name: str(m.name) ?? '', expression: str(m.expression) ?? '' })),
        sideEffects: str(w.sideEffects),
        timeoutSeconds: typeof w.timeoutSeconds === 'number' ? w.timeoutSeconds : 10,
        reinvocationPolicy: w.reinvocationPolicy === 'IfNeeded' ? 'IfNeeded' : 'Never',
        clientConfig: isMap(w.clientConfig) ? w.clientConfig : {},
      });
    }
  }
  return out;
}

import { matchesLabels } from '../selectors/index.js';
import { selectorOf } from '../validation/label-selector.js';
import type { ResourceRegistry } from '../registry/resource-registry.js';
import type { JsonObject, JsonValue, ResourceType } from '../registry/types.js';
import type { AdmissionAttributes } from './attributes.js';

/**
 * Which writes a webhook or policy sees, as kube-apiserver decides it:
 * staging/src/k8s.io/apiserver/pkg/admission/plugin/webhook/predicates/rules/rules.go (Matcher),
 * .../predicates/namespace/matcher.go and .../predicates/object/matcher.go, and
 * .../generic/webhook.go (ShouldCallHook: exact rules first, then with matchPolicy Equivalent
 * the same resource in another served version).
 */
export interface RuleWithOperations {
  operations?: string[];
  apiGroups?: string[];
  apiVersions?: string[];
  resources?: string[];
  scope?: string;
}

const isMap = (v: JsonValue | undefined): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);
const strings = (v: JsonValue | undefined): string[] =>
  Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];

export function rulesOf(v: JsonValue | undefined): RuleWithOperations[] {
  if (!Array.isArray(v)) return [];
  return v.filter(isMap).map((r) => ({
    operations: strings(r.operations),
    apiGroups: strings(r.apiGroups),
    apiVersions: strings(r.apiVersions),
    resources: strings(r.resources),
    scope: typeof r.scope === 'string' ? r.scope : '*',
  }));
}

const has = (list: string[] | undefined, v: string) => (list ?? []).some((x) => x === '*' || x === v);

function resourceMatches(patterns: string[] | undefined, resource: string, subresource: string): boolean {
  return (patterns ?? []).some((p) => {
    const [res = '', sub] = p.split('/', 2);
    if (sub === undefined) return (res === '*' || res === resource) && subresource === '';
    return (res === '*' || res === resource) && (sub === '*' || sub === subresource);
  });
}

function scopeMatches(scope: string | undefined, namespace: string): boolean {
  if (scope === 'Cluster') return namespace === '';
  if (scope === 'Namespaced') return namespace !== '';
  return true;
}

export function ruleMatches(r: RuleWithOperations, a: AdmissionAttributes, t: ResourceType): boolean {
  return (
    has(r.operations, a.operation) &&
    has(r.apiGroups, t.group) &&
    has(r.apiVersions, t.version) &&
    resourceMatches(r.resources, t.plural, a.subresource) &&
    scopeMatches(r.scope, a.namespace)
  );
}

/**
 * The version of the resource the webhook is sent: the request's own when a rule names it; with
 * matchPolicy Equivalent another served version of the same group and resource (its objects are
 * converted with conversion None, so only apiVersion changes); undefined when nothing matches.
 */
export function matchedType(
  rules: RuleWithOperations[],
  matchPolicy: string,
  a: AdmissionAttributes,
  registry: ResourceRegistry,
): ResourceType | undefined {
  if (rules.some((r) => ruleMatches(r, a, a.t))) return a.t;
  if (matchPolicy === 'Exact') return undefined;
  for (const other of registry.all()) {
    if (other === a.t || other.group !== a.t.group || other.plural !== a.t.plural) continue;
    if (rules.some((r) => ruleMatches(r, a, other))) return other;
  }
  return undefined;
}

function labelsOf(obj: JsonObject | undefined): Record<string, string> {
  const meta = obj?.metadata;
  const labels = isMap(meta) ? meta.labels : undefined;
  const out: Record<string, string> = {};
  if (isMap(labels)) for (const [k, v] of Object.entries(labels)) if (typeof v === 'string') out[k] = v;
  return out;
}

function selectorMatches(sel: JsonValue | undefined, labels: Record<string, string>): boolean {
  if (!isMap(sel)) return true;
  const parsed = selectorOf(sel);
  return parsed === undefined || matchesLabels(parsed, labels);
}

/** objectSelector: the new object's labels or the old one's (a delete has only the old). */
export function objectSelectorMatches(sel: JsonValue | undefined, a: AdmissionAttributes): boolean {
  if (!isMap(sel)) return true;
  if (a.object && selectorMatches(sel, labelsOf(a.object))) return true;
  return a.oldObject !== undefined && selectorMatches(sel, labelsOf(a.oldObject));
}

/**
 * namespaceSelector: the labels of the request's namespace; a Namespace is matched by its own
 * labels; any other cluster-scoped object always matches.
 */
export function namespaceSelectorMatches(
  sel: JsonValue | undefined,
  a: AdmissionAttributes,
  namespaceLabels: (name: string) => Record<string, string>,
): boolean {
  if (!isMap(sel)) return true;
  if (!a.t.group && a.t.plural === 'namespaces') return selectorMatches(sel, labelsOf(a.object ?? a.oldObject));
  if (a.namespace === '') return true;
  return selectorMatches(sel, namespaceLabels(a.namespace));
}

export { labelsOf };

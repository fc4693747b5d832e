import type { ObjectStore } from '../objects/object-store.js';
import type { ResourceRegistry } from '../registry/resource-registry.js';
import { type JsonObject, type JsonValue, qualifiedResource } from '../registry/types.js';
import { ApiError } from '../http/status.js';
import type { AdmissionAttributes } from './attributes.js';
import { celString, evaluate, toCel, typedToCel } from './cel.js';
import type { CelInput } from '@bufbuild/cel';
import { matchedType, namespaceSelectorMatches, objectSelectorMatches, rulesOf } from './matching.js';

/**
 * ValidatingAdmissionPolicy and its bindings, evaluated as kube-apiserver's plugin does
 * (staging/src/k8s.io/apiserver/pkg/admission/plugin/policy/validating/dispatcher.go and
 * validator.go, .../policy/matching/matching.go): a binding applies when its policy's
 * matchConstraints and its own matchResources both match; matchConditions, then variables, then
 * each validation in CEL (cel.ts) with object, oldObject, request, params, namespaceObject and
 * variables bound. A failed validation is denied, warned or left to audit by validationActions; an
 * expression that errors follows failurePolicy. The `authorizer` variable and auditAnnotations
 * are not bound here: an expression that uses them errors (and follows failurePolicy).
 */
const isMap = (v: JsonValue | undefined): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: JsonValue | undefined): string | undefined => (typeof v === 'string' ? v : undefined);
const list = (v: JsonValue | undefined): JsonObject[] => (Array.isArray(v) ? v.filter(isMap) : []);
const strings = (v: JsonValue | undefined): string[] =>
  Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
const nameOf = (o: JsonObject): string => String(isMap(o.metadata) ? o.metadata.name : '');

const NO_PARAMS = 'no params found for policy binding with `Deny` parameterNotFoundAction';
const REASON_CODES: Record<string, number> = {
  Unauthorized: 401,
  Forbidden: 403,
  Invalid: 422,
  RequestEntityTooLarge: 413,
};

interface Decision {
  policy: string;
  binding: string;
  message: string;
  reason: string;
  actions: string[];
}

export class PolicyValidator {
  constructor(
    private readonly objects: ObjectStore,
    private readonly registry: ResourceRegistry,
  ) {}

  any(): boolean {
    const t = this.type('validatingadmissionpolicybindings');
    return t ? this.objects.list(t, undefined, { limit: 1 }).items.length > 0 : false;
  }

  private type(plural: string) {
    return this.registry.lookup('admissionregistration.k8s.io', 'v1', plural);
  }

  private all(plural: string): JsonObject[] {
    const t = this.type(plural);
    return t ? this.objects.list(t, undefined).items.map((s) => JSON.parse(s) as JsonObject) : [];
  }

  validate(a: AdmissionAttributes, warnings: string[]): void {
    const policies = new Map(this.all('validatingadmissionpolicies').map((p) => [nameOf(p), p]));
    const bindings = this.all('validatingadmissionpolicybindings').sort((x, y) => (nameOf(x) < nameOf(y) ? -1 : 1));
    const denied: Decision[] = [];
    for (const binding of bindings) {
      const spec = isMap(binding.spec) ? binding.spec : {};
      const policy = policies.get(str(spec.policyName) ?? '');
      if (!policy) continue;
      const pspec = isMap(policy.spec) ? policy.spec : {};
      if (!this.matches(pspec.matchConstraints, a)) continue;
      if (isMap(spec.matchResources) && !this.matches(spec.matchResources, a)) continue;
      const actions = strings(spec.validationActions);
      for (const d of this.decide(nameOf(policy), nameOf(binding), pspec, spec, a, actions)) {
        if (d.actions.includes('Deny')) denied.push(d);
        if (d.actions.includes('Warn')) {
          const what = `ValidatingAdmissionPolicy '${d.policy}' with binding '${d.binding}'`;
          warnings.push(`Validation failed for ${what}: ${d.message}`);
        }
      }
    }
    const first = denied[0];
    if (first) throw deniedError(a, first);
  }

  private matches(constraints: JsonValue | undefined, a: AdmissionAttributes): boolean {
    if (!isMap(constraints)) return false;
    const matchPolicy = str(constraints.matchPolicy) ?? 'Equivalent';
    const named = (r: JsonObject) => {
      const names = Array.isArray(r.resourceNames) ? r.resourceNames : [];
      return names.length === 0 || names.includes(a.name);
    };
    const included = list(constraints.resourceRules).filter(named);
    if (!matchedType(rulesOf(included), matchPolicy, a, this.registry)) return false;
    const excluded = list(constraints.excludeResourceRules).filter(named);
    if (excluded.length && matchedType(rulesOf(excluded), matchPolicy, a, this.registry)) return false;
    return (
      namespaceSelectorMatches(constraints.namespaceSelector, a, (ns) => this.namespaceLabels(ns)) &&
      objectSelectorMatches(constraints.objectSelector, a)
    );
  }

  private namespace(name: string): JsonObject | undefined {
    const t = this.registry.lookup('', 'v1', 'namespaces');
    const s = t && name ? this.objects.getStored(t, undefined, name) : undefined;
    return s ? (JSON.parse(s.value) as JsonObject) : undefined;
  }

  private namespaceLabels(name: string): Record<string, string> {
    const meta = this.namespace(name)?.metadata;
    const labels = isMap(meta) && isMap(meta.labels) ? meta.labels : {};
    return Object.fromEntries(Object.entries(labels).filter((e): e is [string, string] => typeof e[1] === 'string'));
  }

  /** The failed validations of one binding (none when it passes or a condition does not match). */
  private decide(
    policy: string,
    binding: string,
    pspec: JsonObject,
    spec: JsonObject,
    a: AdmissionAttributes,
    actions: string[],
  ): Decision[] {
    const failurePolicy = str(pspec.failurePolicy) ?? 'Fail';
    const fail = (message: string): Decision[] =>
      failurePolicy === 'Ignore' ? [] : [{ policy, binding, message, reason: 'Invalid', actions }];
    const params = this.params(pspec, spec);
    if (params === 'missing') {
      return fail(`failed to configure binding: ${NO_PARAMS}`);
    }
    const bind = a.t.custom ? toCel : typedToCel;
    const vars: Record<string, CelInput> = {
      object: bind(a.object ?? null),
      oldObject: bind(a.oldObject ?? null),
      request: toCel(requestOf(a)),
      params: toCel(params ?? null),
      namespaceObject: toCel(a.namespace ? (this.namespace(a.namespace) ?? null) : null),
    };
    for (const c of list(pspec.matchConditions)) {
      const r = evaluate(str(c.expression) ?? '', vars);
      if (!r.ok) return fail(`expression '${str(c.expression) ?? ''}' resulted in error: ${r.message}`);
      if (r.value !== true) return [];
    }
    const variables = new Map<string, CelInput>();
    for (const v of list(pspec.variables)) {
      const r = evaluate(str(v.expression) ?? '', { ...vars, variables: variables });
      if (r.ok) variables.set(str(v.name) ?? '', r.value);
    }
    const out: Decision[] = [];
    for (const v of list(pspec.validations)) {
      const expression = str(v.expression) ?? '';
      const r = evaluate(expression, { ...vars, variables });
      if (!r.ok) {
        out.push(...fail(`expression '${expression}' resulted in error: ${r.message}`));
        continue;
      }
      if (r.value === true) continue;
      const message = this.message(v, expression, { ...vars, variables });
      out.push({ policy, binding, message, reason: str(v.reason) ?? 'Invalid', actions });
    }
    return out;
  }

  private message(v: JsonObject, expression: string, vars: Record<string, CelInput>): string {
    const messageExpression = str(v.messageExpression);
    if (messageExpression) {
      const r = evaluate(messageExpression, vars);
      const text = r.ok ? celString(r.value) : undefined;
      if (text?.trim() && !text.includes('\n')) return text.trim();
    }
    return str(v.message) ?? `failed expression: ${expression}`;
  }

  /** The binding's params object; 'missing' when paramKind asks for one that is not there. */
  private params(pspec: JsonObject, spec: JsonObject): JsonObject | 'missing' | undefined {
    const kind = isMap(pspec.paramKind) ? pspec.paramKind : undefined;
    const ref = isMap(spec.paramRef) ? spec.paramRef : undefined;
    if (!kind || !ref) return undefined;
    const apiVersion = str(kind.apiVersion) ?? '';
    const [group = '', version = ''] = apiVersion.includes('/') ? apiVersion.split('/') : ['', apiVersion];
    const t = this.registry.lookupKind(group, version, String(kind.kind ?? ''));
    const name = str(ref.name);
    const s = t && name ? this.objects.getStored(t, t.namespaced ? str(ref.namespace) : undefined, name) : undefined;
    if (s) return JSON.parse(s.value) as JsonObject;
    return ref.parameterNotFoundAction === 'Allow' ? undefined : 'missing';
  }
}

function requestOf(a: AdmissionAttributes): JsonObject {
  const user = a.user ?? { username: 'system:anonymous', groups: ['system:unauthenticated'] };
  return {
    kind: { group: a.t.group, version: a.t.version, kind: a.t.kind },
    resource: { group: a.t.group, version: a.t.version, resource: a.t.plural },
    name: a.name,
    namespace: a.namespace,
    operation: a.operation,
    userInfo: { username: user.username, groups: user.groups },
    dryRun: a.dryRun,
    subResource: a.subresource,
  };
}

/** admission.NewForbidden with the decision's reason and code, and the message as a cause. */
function deniedError(a: AdmissionAttributes, d: Decision): ApiError {
  const message = `ValidatingAdmissionPolicy '${d.policy}' with binding '${d.binding}' denied request: ${d.message}`;
  const details = a.t.group ? { name: a.name, group: a.t.group, kind: a.t.plural } : { name: a.name, kind: a.t.plural };
  const text = `${qualifiedResource(a.t)} "${a.name}" is forbidden: ${message}`;
  return new ApiError(REASON_CODES[d.reason] ?? 422, d.reason, text, {
    ...details,
    causes: [{ message }],
  });
}

import type { Admission, Operation } from '../objects/object-store.js';
import type { JsonObject, JsonValue, ResourceType } from '../registry/types.js';

/**
 * Defaulting of the admissionregistration.k8s.io/v1 kinds, as kube-apiserver decodes them:
 * pkg/apis/admissionregistration/v1/defaults.go (SetDefaults_*: failurePolicy Fail, matchPolicy
 * Equivalent, empty selectors, timeoutSeconds 10, reinvocationPolicy Never, rule scope "*", service
 * port 443). Runs before BuiltinValidation, which validates them (validation/webhook-configurations.ts,
 * validation/admission-policy.ts, validation/policy-binding.ts).
 */
const GROUP = 'admissionregistration.k8s.io';
const isMap = (v: JsonValue | undefined): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);
const maps = (v: JsonValue | undefined): JsonObject[] => (Array.isArray(v) ? v.filter(isMap) : []);

export class AdmissionConfigStorage implements Admission {
  admit(t: ResourceType, op: Operation, obj: JsonObject): void {
    if (t.group !== GROUP || op === 'DELETE') return;
    if (t.kind === 'MutatingWebhookConfiguration' || t.kind === 'ValidatingWebhookConfiguration') {
      const mutating = t.kind === 'MutatingWebhookConfiguration';
      for (const w of maps(obj.webhooks)) defaultWebhook(w, mutating);
    } else if (t.kind === 'ValidatingAdmissionPolicy') {
      const spec = isMap(obj.spec) ? obj.spec : undefined;
      if (spec) {
        spec.failurePolicy ??= 'Fail';
        if (isMap(spec.matchConstraints)) defaultMatchResources(spec.matchConstraints);
      }
    } else if (t.kind === 'ValidatingAdmissionPolicyBinding') {
      const spec = isMap(obj.spec) ? obj.spec : undefined;
      if (spec && isMap(spec.matchResources)) defaultMatchResources(spec.matchResources);
    }
  }
}

function defaultRules(rules: JsonValue | undefined): void {
  for (const r of maps(rules)) r.scope ??= '*';
}

function defaultMatchResources(m: JsonObject): void {
  m.namespaceSelector ??= {};
  m.objectSelector ??= {};
  m.matchPolicy ??= 'Equivalent';
  defaultRules(m.resourceRules);
  defaultRules(m.excludeResourceRules);
}

function defaultWebhook(w: JsonObject, mutating: boolean): void {
  w.failurePolicy ??= 'Fail';
  w.matchPolicy ??= 'Equivalent';
  w.namespaceSelector ??= {};
  w.objectSelector ??= {};
  w.timeoutSeconds ??= 10;
  if (mutating) w.reinvocationPolicy ??= 'Never';
  defaultRules(w.rules);
  const cc = isMap(w.clientConfig) ? w.clientConfig : undefined;
  if (cc && isMap(cc.service)) cc.service.port ??= 443;
}

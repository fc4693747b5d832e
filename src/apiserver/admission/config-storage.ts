import { errors } from '../http/status.js';
import type { Admission, Operation } from '../objects/object-store.js';
import type { JsonObject, JsonValue, ResourceType } from '../registry/types.js';
import { invalid, notSupported, required } from '../schema/field-errors.js';
import type { FieldCause } from '../schema/types.js';

/**
 * Defaulting and part of the validation of the admissionregistration.k8s.io/v1 kinds, as
 * kube-apiserver stores them: pkg/apis/admissionregistration/v1/defaults.go (SetDefaults_*:
 * failurePolicy Fail, matchPolicy Equivalent, empty selectors, timeoutSeconds 10,
 * reinvocationPolicy Never, rule scope "*", service port 443) and
 * pkg/apis/admissionregistration/validation/validation.go (validateValidatingWebhook,
 * validateMutatingWebhook: sideEffects, admissionReviewVersions, timeoutSeconds, webhook names,
 * clientConfig). What else that file checks (rules, CEL compilation of policies, paramKind) is
 * not done here: such objects are stored and fail when called.
 */
const GROUP = 'admissionregistration.k8s.io';
const isMap = (v: JsonValue | undefined): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);
const maps = (v: JsonValue | undefined): JsonObject[] => (Array.isArray(v) ? v.filter(isMap) : []);

export class AdmissionConfigStorage implements Admission {
  admit(t: ResourceType, op: Operation, obj: JsonObject): void {
    if (t.group !== GROUP || op === 'DELETE') return;
    if (t.kind === 'MutatingWebhookConfiguration' || t.kind === 'ValidatingWebhookConfiguration') {
      const mutating = t.kind === 'MutatingWebhookConfiguration';
      const causes: FieldCause[] = [];
      maps(obj.webhooks).forEach((w, i) => {
        defaultWebhook(w, mutating);
        causes.push(...webhookCauses(w, `webhooks[${i}]`));
      });
      const meta = isMap(obj.metadata) ? obj.metadata : {};
      if (causes.length) throw errors.invalid(t, String(meta.name ?? ''), causes);
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

const SIDE_EFFECTS = ['None', 'NoneOnDryRun'];
const REVIEW_VERSIONS = ['v1', 'v1beta1'];

function webhookCauses(w: JsonObject, path: string): FieldCause[] {
  const causes: FieldCause[] = [];
  const name = typeof w.name === 'string' ? w.name : '';
  if (!name) causes.push(required(`${path}.name`));
  else if (name.split('.').length < 3) {
    causes.push(invalid(`${path}.name`, name, 'should be a domain with at least three segments separated by dots'));
  }
  if (w.sideEffects === undefined) {
    causes.push(required(`${path}.sideEffects`, `must specify one of ${SIDE_EFFECTS.join(', ')}`));
  } else if (typeof w.sideEffects !== 'string' || !SIDE_EFFECTS.includes(w.sideEffects)) {
    causes.push(notSupported(`${path}.sideEffects`, w.sideEffects, SIDE_EFFECTS));
  }
  const versions = Array.isArray(w.admissionReviewVersions) ? w.admissionReviewVersions : [];
  if (versions.length === 0) {
    causes.push(required(`${path}.admissionReviewVersions`, `must specify one of ${REVIEW_VERSIONS.join(', ')}`));
  }
  const timeout = w.timeoutSeconds;
  if (typeof timeout === 'number' && (timeout < 1 || timeout > 30)) {
    causes.push(invalid(`${path}.timeoutSeconds`, timeout, 'the timeout value must be between 1 and 30 seconds'));
  }
  const cc = isMap(w.clientConfig) ? w.clientConfig : {};
  const hasUrl = typeof cc.url === 'string';
  if (hasUrl === isMap(cc.service)) {
    causes.push(required(`${path}.clientConfig`, 'exactly one of url or service is required'));
  }
  return causes;
}

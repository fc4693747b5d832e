import { errors } from '../http/status.js';
import type { JsonObject, JsonValue, ResourceType } from '../registry/types.js';
import { forbidden, invalid, required } from '../schema/field-errors.js';
import type { FieldCause } from '../schema/types.js';
import { labelValueErrors, qualifiedNameErrors } from '../selectors/label-validation.js';
import type { Admission, Operation, WriteOptions } from './object-store.js';
import { selectorKindCauses } from '../validation/selector-kinds.js';
import { kindValidationCauses, statusValidationCauses } from '../validation/kinds.js';
import { configKeyErrors } from '../validation/checks.js';
import { adminAccessCauses } from '../validation/resource-claims.js';
import { deepEqual, isObject, metadataOf } from './meta.js';

/**
 * Part of kube-apiserver's validation of objects (pkg/apis/core/validation, apimachinery's
 * ValidateObjectMeta), with its field paths and texts: label keys and values, annotation keys,
 * ConfigMap and Secret keys, immutable ConfigMaps and Secrets, a Secret's type and the keys its
 * type requires, the label selectors of every kind that has one (validation/selector-kinds.ts), a
 * workload's selector against its template, and what validation/kinds.ts does per kind (each file there
 * names the upstream ValidateX it follows). What else each kind validates is not done here
 * (docs/embedded-apiserver.md); bench/fidelity.ts --fuzz measures the difference per kind.
 */
export class BuiltinValidation implements Admission {
  /** `namespaceLabels` reads a namespace's labels, for the checks that consult them (undefined: no such namespace). */
  constructor(private readonly namespaceLabels: (name: string) => JsonObject | undefined = () => undefined) {}

  admit(t: ResourceType, op: Operation, obj: JsonObject, old: JsonObject | undefined, opts: WriteOptions): void {
    if (op === 'DELETE') return;
    const own = t.custom ? [] : kindCauses(t, obj, op === 'UPDATE' ? old : undefined, opts.subresource);
    // The DRA strategies' AuthorizedForAdmin comes before their validation (a create's spec only:
    // the spec is immutable).
    const admin =
      op === 'CREATE' && opts.subresource === undefined
        ? adminAccessCauses(t, obj, (ns) => this.namespaceLabels(ns))
        : [];
    const causes = [...objectMetaCauses(metadataOf(obj)), ...admin, ...own];
    if (causes.length) throw errors.invalid(t, String(metadataOf(obj).name ?? ''), causes);
  }
}

/** ValidateLabels and ValidateAnnotations (keys only; the 256 KiB total is not checked). */
export function objectMetaCauses(meta: JsonObject): FieldCause[] {
  const causes: FieldCause[] = [];
  const labels = meta.labels;
  if (isObject(labels)) {
    for (const [k, v] of Object.entries(labels)) {
      for (const m of qualifiedNameErrors(k)) causes.push(invalid('metadata.labels', k, m));
      if (typeof v === 'string') for (const m of labelValueErrors(v)) causes.push(invalid('metadata.labels', v, m));
    }
  }
  const annotations = meta.annotations;
  if (isObject(annotations))
    for (const k of Object.keys(annotations))
      for (const m of qualifiedNameErrors(k.toLowerCase())) causes.push(invalid('metadata.annotations', k, m));
  return causes;
}

function keyCauses(obj: JsonObject, fields: string[]): FieldCause[] {
  const causes: FieldCause[] = [];
  for (const f of fields) {
    const m = obj[f];
    if (isObject(m))
      for (const k of Object.keys(m)) for (const e of configKeyErrors(k)) causes.push(invalid(`${f}[${k}]`, k, e));
  }
  return causes;
}

/** ValidateConfigMapUpdate / ValidateSecretUpdate: nothing but metadata moves once `immutable` is true. */
function immutableCauses(obj: JsonObject, old: JsonObject, dataFields: string[]): FieldCause[] {
  if (old.immutable !== true) return [];
  const causes: FieldCause[] = [];
  if (obj.immutable !== true) causes.push(forbidden('immutable', 'field is immutable when `immutable` is set'));
  for (const f of dataFields)
    if (!deepEqual(obj[f] ?? {}, old[f] ?? {})) causes.push(forbidden(f, 'field is immutable when `immutable` is set'));
  return causes;
}

/** ValidateConfigMap: a key is in `data` or in `binaryData`, not both. */
function bothDataCauses(obj: JsonObject): FieldCause[] {
  const data = obj.data;
  const binary = obj.binaryData;
  if (!isObject(data) || !isObject(binary)) return [];
  return Object.keys(binary)
    .filter((k) => data[k] !== undefined)
    .map((k) => invalid(`data[${k}]`, k, 'duplicate of key present in binaryData'));
}

/** The data keys a Secret of a well-known type must have (ValidateSecret). */
const SECRET_TYPE_KEYS: Record<string, string[]> = {
  'kubernetes.io/tls': ['tls.crt', 'tls.key'],
  'kubernetes.io/basic-auth': [],
  'kubernetes.io/dockerconfigjson': ['.dockerconfigjson'],
  'kubernetes.io/dockercfg': ['.dockercfg'],
};

function kindCauses(
  t: ResourceType,
  obj: JsonObject,
  old: JsonObject | undefined,
  subresource: string | undefined,
): FieldCause[] {
  if (subresource === 'status') return statusValidationCauses(t, obj, old);
  // pods/binding (BindingREST) only sets spec.nodeName, which no Pod update may change.
  if (subresource === 'binding') return [];
  const selectorCauses = [...selectorKindCauses(t, obj), ...kindValidationCauses(t, obj, old)];
  if (t.group !== '' || selectorCauses.length) return selectorCauses;
  if (t.kind === 'ConfigMap') {
    return [
      ...keyCauses(obj, ['data', 'binaryData']),
      ...bothDataCauses(obj),
      ...(old ? immutableCauses(obj, old, ['data', 'binaryData']) : []),
    ];
  }
  if (t.kind !== 'Secret') return [];
  const causes = keyCauses(obj, ['data']);
  if (old) {
    if (typeof old.type === 'string' && obj.type !== old.type)
      causes.push(invalid('type', obj.type ?? '', 'field is immutable'));
    causes.push(...immutableCauses(obj, old, ['data']));
  }
  const data: JsonValue | undefined = obj.data;
  for (const k of SECRET_TYPE_KEYS[String(obj.type)] ?? [])
    if (!isObject(data) || data[k] === undefined) causes.push(required(`data[${k}]`));
  return causes;
}

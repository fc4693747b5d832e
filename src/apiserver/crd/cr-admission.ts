import { getPath } from '../http/scale.js';
import { errors } from '../http/status.js';
import type { Admission, Operation, WriteOptions } from '../objects/object-store.js';
import { metadataOf } from '../objects/meta.js';
import type { JsonObject, ResourceType } from '../registry/types.js';
import {
  applyDefaults,
  findUnknownFields,
  pruneUnknownFields,
  validateObject,
  type JsonSchemaProps,
} from '../schema/index.js';
import type { FieldCause } from '../schema/types.js';

/**
 * Custom resources against their CRD version's openAPIV3Schema, in kube-apiserver's order:
 * unknown fields (rejected under fieldValidation=Strict, warned under Warn), then pruning,
 * defaulting, and validation answered with 422 Invalid naming each field.
 */
export class CustomResourceAdmission implements Admission {
  admit(t: ResourceType, op: Operation, obj: JsonObject, _old: JsonObject | undefined, opts: WriteOptions): void {
    if (!t.custom || !t.schema || op === 'DELETE') return;
    const schema = t.schema as unknown as JsonSchemaProps;
    const name = String(metadataOf(obj).name ?? '');
    if (opts.fieldValidation === 'Strict' || opts.fieldValidation === 'Warn') {
      const unknown = findUnknownFields(obj, schema);
      if (unknown.length && opts.fieldValidation === 'Strict') {
        throw errors.badRequest(
          `${t.kind} in version "${t.version}" cannot be handled as a ${t.kind}: strict decoding error: ${unknown.map((f) => `unknown field "${f}"`).join(', ')}`,
        );
      }
      for (const f of unknown) opts.warnings?.push(`unknown field "${f}"`);
    }
    const pruned = applyDefaults(pruneUnknownFields(obj, schema), schema);
    for (const k of Object.keys(obj)) delete obj[k];
    Object.assign(obj, pruned);
    const causes = [...validateObject(obj, schema, { statusSubresource: t.statusSubresource }), ...scaleCauses(t, obj)];
    if (causes.length) throw errors.invalid(t, name, causes);
  }
}

/**
 * apiextensions-apiserver's ValidateCustomResource of the scale subresource's replica paths: a
 * value there must be a non-negative int64 (its causes come after the schema's, named by the path).
 */
function scaleCauses(t: ResourceType, obj: JsonObject): FieldCause[] {
  const scale = t.scaleSubresource;
  if (!scale) return [];
  const causes: FieldCause[] = [];
  for (const path of [scale.specReplicasPath, scale.statusReplicasPath]) {
    const v = getPath(obj, path);
    if (v === undefined || v === null) continue;
    if (typeof v !== 'number' || !Number.isInteger(v)) {
      const goType =
        typeof v === 'string'
          ? 'string'
          : typeof v === 'boolean'
            ? 'bool'
            : typeof v === 'number'
              ? 'float64'
              : Array.isArray(v)
                ? '[]interface {}'
                : 'map[string]interface {}';
      causes.push({
        reason: 'FieldValueInvalid',
        message: `Invalid value: 0: ${path} accessor error: ${typeof v === 'object' ? JSON.stringify(v) : String(v)} is of the type ${goType}, expected int64`,
        field: path,
      });
    } else if (v < 0) {
      causes.push({
        reason: 'FieldValueInvalid',
        message: `Invalid value: ${v}: should be a non-negative integer`,
        field: path,
      });
    }
  }
  return causes;
}

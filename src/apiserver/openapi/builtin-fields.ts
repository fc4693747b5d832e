import { isObject } from '../objects/meta.js';
import type { JsonObject, JsonValue } from '../registry/types.js';
import { compareGo } from '../schema/gofmt.js';

const REF = '#/components/schemas/';

/**
 * Removes from `obj` the fields a built-in kind's schema does not declare, and returns their paths
 * (`spec.template.spec.containers[0].imagee`, sorted). kube-apiserver gets the same from decoding into
 * its Go types: such a field is never stored, `fieldValidation=Strict` refuses the request naming it,
 * `Warn` warns. A schema object without `properties` (RawExtension, FieldsV1, JSON) takes anything.
 */
export function dropUnknownFields(obj: JsonObject, root: JsonObject, schemas: JsonObject): string[] {
  const found: string[] = [];
  const resolve = (s: JsonObject): JsonObject => {
    const ref = typeof s.$ref === 'string' ? s.$ref : refOfAllOf(s);
    const target = ref?.startsWith(REF) ? schemas[ref.slice(REF.length)] : undefined;
    return isObject(target) ? resolve(target) : s;
  };
  const walk = (value: JsonValue, schema: JsonObject, path: string): void => {
    const s = resolve(schema);
    if (s['x-kubernetes-preserve-unknown-fields'] === true) return;
    if (Array.isArray(value)) {
      if (isObject(s.items)) {
        for (const [i, v] of value.entries()) walk(v, s.items as JsonObject, `${path}[${i}]`);
      }
      return;
    }
    if (!isObject(value)) return;
    if (isObject(s.properties)) {
      const props = s.properties;
      for (const [k, v] of Object.entries(value)) {
        const p = props[k];
        if (isObject(p)) walk(v, p, path ? `${path}.${k}` : k);
        else {
          found.push(path ? `${path}.${k}` : k);
          delete value[k];
        }
      }
    } else if (isObject(s.additionalProperties)) {
      for (const [k, v] of Object.entries(value)) walk(v, s.additionalProperties, `${path}.${k}`);
    }
  };
  walk(obj, root, '');
  return found.sort(compareGo);
}

/** `allOf: [{$ref}]`, the form v3 documents give a field that refers to a type and describes itself. */
function refOfAllOf(s: JsonObject): string | undefined {
  const all = s.allOf;
  if (!Array.isArray(all) || all.length !== 1 || !isObject(all[0]!)) return undefined;
  const ref = all[0].$ref;
  return typeof ref === 'string' ? ref : undefined;
}

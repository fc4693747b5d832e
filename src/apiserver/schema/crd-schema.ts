import { isObject } from './access.js';
import { compareGo } from './gofmt.js';
import { forbidden, invalid, notSupported, required, typeInvalid } from './field-errors.js';
import type { FieldCause, JsonValue } from './types.js';

/**
 * A light version of the apiextensions checks on a CRD's openAPIV3Schema: enough to reject schemas
 * the rest of this package could not use, with the apiserver's texts. Fields are relative to the
 * schema root (`type`, `properties[spec].items`), so the caller prefixes
 * `spec.versions[i].schema.openAPIV3Schema.`. Like ValidateStructural, the result is sorted.
 */

const TYPES = ['array', 'boolean', 'integer', 'number', 'object', 'string'];

type Level = 'root' | 'items' | 'field';

const EMPTY_TYPE: Record<Level, string> = {
  root: 'must not be empty at the root',
  items: 'must not be empty for specified array items',
  field: 'must not be empty for specified object fields',
};

function at(path: string, child: string): string {
  return path ? `${path}.${child}` : child;
}

function checkNode(node: JsonValue, level: Level, path: string, out: FieldCause[]): void {
  if (!isObject(node)) {
    out.push(invalid(path, node, 'must be an object'));
    return;
  }
  const type = node.type;
  const intOrString = node['x-kubernetes-int-or-string'] === true;
  const preserve = node['x-kubernetes-preserve-unknown-fields'];
  const embedded = node['x-kubernetes-embedded-resource'] === true;

  if (type !== undefined && (typeof type !== 'string' || !TYPES.includes(type))) {
    out.push(notSupported(at(path, 'type'), type, TYPES));
  }
  if (embedded && type !== 'object') {
    if (type === undefined || type === '')
      out.push(required(at(path, 'type'), 'must be object if x-kubernetes-embedded-resource is true'));
    else out.push(invalid(at(path, 'type'), type, 'must be object if x-kubernetes-embedded-resource is true'));
  } else if ((type === undefined || type === '') && !intOrString && preserve !== true) {
    out.push(required(at(path, 'type'), EMPTY_TYPE[level]));
  }
  if (level === 'root' && typeof type === 'string' && type !== '' && type !== 'object') {
    out.push(invalid(at(path, 'type'), type, 'must be object at the root'));
  }
  if (preserve !== undefined && preserve !== true) {
    out.push(invalid(at(path, 'x-kubernetes-preserve-unknown-fields'), preserve, 'must be true or undefined'));
  }
  if (intOrString && preserve === true) {
    out.push(
      invalid(
        at(path, 'x-kubernetes-preserve-unknown-fields'),
        true,
        'must be false if x-kubernetes-int-or-string is true',
      ),
    );
  }
  if (node.uniqueItems === true) {
    out.push(
      forbidden(
        at(path, 'uniqueItems'),
        'uniqueItems cannot be set to true since the runtime complexity becomes quadratic',
      ),
    );
  }
  if (node.pattern !== undefined) {
    if (typeof node.pattern !== 'string') out.push(invalid(at(path, 'pattern'), node.pattern, 'must be a string'));
    else {
      try {
        new RegExp(node.pattern, 'u');
      } catch (e) {
        out.push(
          invalid(
            at(path, 'pattern'),
            node.pattern,
            `must be a valid regular expression, but isn't: ${(e as Error).message}`,
          ),
        );
      }
    }
  }
  if (
    node.required !== undefined &&
    !(Array.isArray(node.required) && node.required.every((r) => typeof r === 'string'))
  ) {
    out.push(invalid(at(path, 'required'), node.required, 'must be a list of strings'));
  }
  if (node.enum !== undefined && !Array.isArray(node.enum))
    out.push(invalid(at(path, 'enum'), node.enum, 'must be a list'));
  checkUnsupported(node, level, path, out);
  checkListAndMapTypes(node, path, out);

  checkChildren(node, level, path, embedded, preserve === true, out);
  checkJunctors(node, path, out);
}

function checkChildren(
  node: Record<string, JsonValue>,
  level: Level,
  path: string,
  embedded: boolean,
  preserve: boolean,
  out: FieldCause[],
): void {
  if (node.type === 'array' && node.items === undefined) out.push(required(at(path, 'items'), 'must be specified'));
  if (Array.isArray(node.items))
    out.push(forbidden(at(path, 'items'), 'items must be a schema object and not an array'));
  // A non-object, non-array `items` decodes to nothing (JSONSchemaPropsOrArray), so it is not checked.
  else if (isObject(node.items)) checkNode(node.items, 'items', at(path, 'items'), out);

  const props = node.properties;
  if (props !== undefined) {
    if (!isObject(props)) out.push(invalid(at(path, 'properties'), props, 'must be an object'));
    else for (const [k, v] of Object.entries(props)) checkNode(v, 'field', `${at(path, 'properties')}[${k}]`, out);
  }
  if (embedded && !preserve && (!isObject(props) || Object.keys(props).length === 0)) {
    out.push(
      required(
        at(path, 'properties'),
        'must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields',
      ),
    );
  }

  const ap = node.additionalProperties;
  if (ap === undefined) return;
  if (level === 'root') out.push(forbidden(at(path, 'additionalProperties'), 'must not be used at the root'));
  if (ap === false)
    out.push(forbidden(at(path, 'additionalProperties'), 'additionalProperties cannot be set to false'));
  else if (ap !== true) {
    if (isObject(props) && Object.keys(props).length > 0) {
      out.push(forbidden(at(path, 'additionalProperties'), 'additionalProperties and properties are mutual exclusive'));
    }
    checkNode(ap, 'field', at(path, 'additionalProperties'), out);
  }
}

/**
 * JSON-Schema keywords apiextensions does not support (validation.go,
 * ValidateCustomResourceDefinitionOpenAPISchema): `$ref`, `dependencies`, `id`, `definitions`,
 * `patternProperties`, `additionalItems` are forbidden; `$schema` is invalid; `nullable` is
 * forbidden at the root; a root `default` must be an object.
 */
function checkUnsupported(node: Record<string, JsonValue>, level: Level, path: string, out: FieldCause[]): void {
  if (node.$ref !== undefined) out.push(forbidden(at(path, '$ref'), '$ref is not supported'));
  if (node.dependencies !== undefined) out.push(forbidden(at(path, 'dependencies'), 'dependencies is not supported'));
  if (node.id !== undefined && node.id !== '') out.push(forbidden(at(path, 'id'), 'id is not supported'));
  if (node.definitions !== undefined) out.push(forbidden(at(path, 'definitions'), 'definitions is not supported'));
  if (node.patternProperties !== undefined)
    out.push(forbidden(at(path, 'patternProperties'), 'patternProperties is not supported'));
  if (node.$schema !== undefined && node.$schema !== '')
    out.push(invalid(path, node.$schema, '$schema is not supported'));
  if (level === 'root' && node.nullable === true)
    out.push(forbidden(at(path, 'nullable'), 'nullable cannot be true at the root'));
  if (level === 'root' && node.default !== undefined && node.type === 'object' && !isObject(node.default))
    out.push(typeInvalid(at(path, 'default'), node.default, 'must be of type object'));
}

const LIST_TYPES = ['atomic', 'map', 'set'];
const MAP_TYPES = ['atomic', 'granular'];

/** x-kubernetes-list-type / map-type: their values and the type they need (validation.go). */
function checkListAndMapTypes(node: Record<string, JsonValue>, path: string, out: FieldCause[]): void {
  const listType = node['x-kubernetes-list-type'];
  if (listType !== undefined) {
    if (node.type !== 'array')
      out.push(invalid(at(path, 'type'), node.type ?? '', 'must be array if x-kubernetes-list-type is specified'));
    if (typeof listType !== 'string' || !LIST_TYPES.includes(listType))
      out.push(notSupported(at(path, 'x-kubernetes-list-type'), listType, LIST_TYPES));
  }
  const mapType = node['x-kubernetes-map-type'];
  if (mapType !== undefined) {
    if (node.type !== 'object')
      out.push(invalid(at(path, 'type'), node.type ?? '', 'must be object if x-kubernetes-map-type is specified'));
    if (typeof mapType !== 'string' || !MAP_TYPES.includes(mapType))
      out.push(notSupported(at(path, 'x-kubernetes-map-type'), mapType, MAP_TYPES));
  }
}

/** anyOf/allOf/oneOf/not only validate values; they may not declare types (int-or-string excepted). */
function checkJunctors(node: Record<string, JsonValue>, path: string, out: FieldCause[]): void {
  const intOrStringPair = (list: JsonValue): boolean =>
    node['x-kubernetes-int-or-string'] === true &&
    Array.isArray(list) &&
    list.length === 2 &&
    isObject(list[0]) &&
    list[0].type === 'integer' &&
    isObject(list[1]) &&
    list[1].type === 'string';
  for (const key of ['anyOf', 'allOf', 'oneOf'] as const) {
    const list = node[key];
    if (list === undefined) continue;
    if (!Array.isArray(list)) {
      out.push(invalid(at(path, key), list, 'must be a list of schemas'));
      continue;
    }
    if (key === 'anyOf' && intOrStringPair(list)) continue;
    list.forEach((sub, i) => {
      if (key === 'allOf' && i === 0 && isObject(sub) && intOrStringPair(sub.anyOf ?? null)) return;
      if (isObject(sub) && sub.type !== undefined)
        out.push(forbidden(`${at(path, key)}[${i}].type`, 'must be empty to be structural'));
    });
  }
  if (isObject(node.not) && node.not.type !== undefined)
    out.push(forbidden(at(path, 'not.type'), 'must be empty to be structural'));
}

export function validateCrdSchema(schema: unknown): FieldCause[] {
  const out: FieldCause[] = [];
  checkNode(schema === undefined ? null : (schema as JsonValue), 'root', '', out);
  const text = (c: FieldCause): string => `${c.field}: ${c.message}`;
  return out.sort((a, b) => compareGo(text(a), text(b)));
}

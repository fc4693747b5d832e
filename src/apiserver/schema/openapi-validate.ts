import {
  additionalOf,
  asSchema,
  childPath,
  deepEqual,
  hasProperty,
  isIntOrString,
  isObject,
  itemsOf,
  numberOf,
  propertiesOf,
  schemasOf,
} from './access.js';
import { invalid, NIL_PATH, notSupported, required, tooLong, tooMany, typeInvalid } from './field-errors.js';
import { formatCheck } from './formats.js';
import { goFloat, goJson, goNumber, goQuote, isJsonInteger } from './gofmt.js';
import type { FieldCause, JsonSchemaProps, JsonValue } from './types.js';

/**
 * kube-openapi's SchemaValidator as kube-apiserver runs it on custom resources, converted to field
 * errors the way apiextensions' kubeOpenAPIResultToFieldErrors does. `path` is kube-openapi's own
 * path string: "" at the root, dotted names, `[i]` for items. It appears inside messages as is.
 */
export function validateAgainstSchema(data: JsonValue, schema: JsonSchemaProps, path = ''): FieldCause[] {
  const out: FieldCause[] = [];
  validateNode(data, schema, path, out);
  return out;
}

/** The field of a cause: the validator's path, or `<nil>` at the root (the caller's path is nil). */
function errPath(name: string): string {
  return name === '' || name === '.' ? NIL_PATH : name.replace(/^\./, '');
}

function jsonType(v: JsonValue): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return isJsonInteger(v) ? 'integer' : 'number';
  return typeof v; // string, boolean, object
}

function invalidType(path: string, typeName: string, data: string): FieldCause {
  return typeInvalid(errPath(path), data, `${path} in body must be of type ${typeName}: ${goQuote(data)}`);
}

function validateNode(data: JsonValue, s: JsonSchemaProps, path: string, out: FieldCause[]): void {
  if (data === null) {
    checkType(data, s, path, out);
    checkEnum(data, s, path, out);
    return;
  }
  checkType(data, s, path, out);
  checkJunctors(data, s, path, out);
  if (typeof data === 'string') {
    checkString(data, s, path, out);
    checkFormat(data, s, path, out);
  }
  if (typeof data === 'number') checkNumber(data, s, path, out);
  if (Array.isArray(data)) checkSlice(data, s, path, out);
  checkEnum(data, s, path, out);
  if (isObject(data)) checkObject(data, s, path, out);
}

function declaredTypes(s: JsonSchemaProps): string[] {
  if (isIntOrString(s)) return ['integer', 'string'];
  return typeof s.type === 'string' && s.type ? [s.type] : [];
}

function checkType(data: JsonValue, s: JsonSchemaProps, path: string, out: FieldCause[]): void {
  const types = declaredTypes(s);
  const format = formatCheck(s.format) ? String(s.format) : '';
  if (!types.length && !format) return;
  if (data === null) {
    if (types.length && !types.includes('null') && s.nullable !== true)
      out.push(invalidType(path, types.join(','), 'null'));
    return;
  }
  const schType = jsonType(data);
  const dataFormat = typeof data === 'number' ? (isJsonInteger(data) ? 'int64' : 'float64') : '';
  const intAsNumber = schType === 'integer' && types.includes('number');
  const stringLike = typeof data === 'string' || Array.isArray(data);
  // Quirk kept from kube-openapi: a format on a non-string value is compared with Go's numeric format names.
  if (!stringLike && format && !(types.includes(schType) || dataFormat === format || intAsNumber)) {
    out.push(invalidType(path, format, dataFormat));
    return;
  }
  if (!(types.includes('number') || types.includes('integer')) && format && stringLike) return;
  if (!(types.includes(schType) || intAsNumber)) out.push(invalidType(path, types.join(','), schType));
}

/** anyOf/oneOf/allOf/not. kube-openapi keeps the "best" failing branch's errors; fewest errors stands in for its match count. */
function checkJunctors(data: JsonValue, s: JsonSchemaProps, path: string, out: FieldCause[]): void {
  // Runs for every node of every write; most schemas have no junctors, so skip making the helpers.
  if (s.anyOf === undefined && s.oneOf === undefined && s.allOf === undefined && s.not === undefined) return;
  const composite = (message: string): FieldCause => invalid(NIL_PATH, '', message);
  const run = (sub: JsonSchemaProps): FieldCause[] => validateAgainstSchema(data, sub, path);
  const best = (results: FieldCause[][]): FieldCause[] =>
    results.reduce<FieldCause[] | undefined>((b, r) => (b === undefined || r.length < b.length ? r : b), undefined) ??
    [];

  const anyOf = schemasOf(s.anyOf);
  if (anyOf.length) {
    const results = anyOf.map(run);
    if (!results.some((r) => r.length === 0)) {
      out.push(composite(`${goQuote(path)} must validate at least one schema (anyOf)`), ...best(results));
    }
  }
  const oneOf = schemasOf(s.oneOf);
  if (oneOf.length) {
    const results = oneOf.map(run);
    const valid = results.filter((r) => r.length === 0).length;
    if (valid !== 1) {
      const why = valid === 0 ? 'Found none valid' : `Found ${valid} valid alternatives`;
      out.push(composite(`${goQuote(path)} must validate one and only one schema (oneOf). ${why}`));
      if (valid === 0) out.push(...best(results));
    }
  }
  const allOf = schemasOf(s.allOf);
  if (allOf.length) {
    const results = allOf.map(run);
    for (const r of results) out.push(...r);
    const valid = results.filter((r) => r.length === 0).length;
    if (valid !== allOf.length) {
      out.push(
        composite(`${goQuote(path)} must validate all the schemas (allOf)${valid === 0 ? '. None validated' : ''}`),
      );
    }
  }
  const not = asSchema(s.not);
  if (not && run(not).length === 0) out.push(composite(`${goQuote(path)} must not validate the schema (not)`));
}

function compilePattern(pattern: string): RegExp | Error {
  try {
    return new RegExp(pattern, 'u');
  } catch {
    try {
      return new RegExp(pattern);
    } catch (e) {
      return e as Error;
    }
  }
}

/** kube-openapi stops at the first string failure, in this order. Lengths count code points (runes). */
function checkString(data: string, s: JsonSchemaProps, path: string, out: FieldCause[]): void {
  const runes = [...data].length;
  const maxLength = numberOf(s.maxLength);
  if (maxLength !== undefined && runes > maxLength) {
    out.push(tooLong(errPath(path), maxLength));
    return;
  }
  const minLength = numberOf(s.minLength);
  if (minLength !== undefined && runes < minLength) {
    out.push(invalid(errPath(path), data, `${path} in body should be at least ${minLength} chars long`));
    return;
  }
  if (typeof s.pattern === 'string' && s.pattern) {
    const re = compilePattern(s.pattern);
    if (re instanceof Error) {
      out.push(
        invalid(
          errPath(path),
          data,
          `${path} in body should match '${s.pattern}, but pattern is invalid: ${re.message}'`,
        ),
      );
    } else if (!re.test(data)) {
      out.push(invalid(errPath(path), data, `${path} in body should match '${s.pattern}'`));
    }
  }
}

function checkFormat(data: string, s: JsonSchemaProps, path: string, out: FieldCause[]): void {
  const check = formatCheck(s.format);
  if (check && !check(data)) out.push(invalidType(path, String(s.format), data));
}

/**
 * Integral values are int64 in the apiserver, so their bounds print as integers (truncated, as Go's
 * int64(bound) does); other values are float64 and print with %v.
 */
function checkNumber(data: number, s: JsonSchemaProps, path: string, out: FieldCause[]): void {
  const intData = isJsonInteger(data);
  const bound = (b: number): string => (intData ? goNumber(Math.trunc(b)) : goFloat(b));
  const field = errPath(path);

  const factor = numberOf(s.multipleOf);
  if (factor !== undefined) {
    if (factor < 0) {
      out.push(invalid(field, factor, `factor MultipleOf declared for ${path} must be positive: ${goFloat(factor)}`));
    } else if (factor > 0) {
      const integralFactor = intData && Number.isInteger(factor);
      const ok = integralFactor
        ? data % factor === 0
        : Number.isInteger(factor < 1 ? (1 / factor) * data : data / factor);
      if (!ok)
        out.push(
          invalid(
            field,
            data,
            `${path} in body should be a multiple of ${integralFactor ? goNumber(factor) : goFloat(factor)}`,
          ),
        );
    }
  }

  const minimum = numberOf(s.minimum);
  if (minimum !== undefined) {
    const min = intData ? Math.trunc(minimum) : minimum;
    const exclusive = s.exclusiveMinimum === true;
    if (exclusive ? data <= min : data < min) {
      out.push(
        invalid(
          field,
          data,
          `${path} in body should be greater than${exclusive ? '' : ' or equal to'} ${bound(minimum)}`,
        ),
      );
    }
  }

  const maximum = numberOf(s.maximum);
  if (maximum !== undefined) {
    const max = intData ? Math.trunc(maximum) : maximum;
    const exclusive = s.exclusiveMaximum === true;
    if (exclusive ? data >= max : data > max) {
      out.push(
        invalid(field, data, `${path} in body should be less than${exclusive ? '' : ' or equal to'} ${bound(maximum)}`),
      );
    }
  }
}

function checkSlice(data: JsonValue[], s: JsonSchemaProps, path: string, out: FieldCause[]): void {
  const items = itemsOf(s);
  if (items) {
    for (const [i, v] of data.entries()) validateNode(v, items, `${path}[${i}]`, out);
  }
  const minItems = numberOf(s.minItems);
  if (minItems !== undefined && data.length < minItems) {
    out.push(invalid(errPath(path), data.length, `${path} in body should have at least ${minItems} items`));
  }
  const maxItems = numberOf(s.maxItems);
  if (maxItems !== undefined && data.length > maxItems) out.push(tooMany(errPath(path), data.length, maxItems));
  if (s.uniqueItems === true && data.some((v, i) => data.findIndex((w) => deepEqual(v, w)) !== i)) {
    out.push(invalid(errPath(path), '', `${path} in body shouldn't contain duplicates`));
  }
}

/** Like kube-openapi, null never satisfies an enum, even on a nullable field. */
function checkEnum(data: JsonValue, s: JsonSchemaProps, path: string, out: FieldCause[]): void {
  if (!Array.isArray(s.enum) || s.enum.length === 0) return;
  if (data !== null && s.enum.some((e) => deepEqual(e, data))) return;
  const values = s.enum.map((e) => (typeof e === 'string' ? e : goJson(e)));
  out.push(notSupported(errPath(path), data, values));
}

function checkObject(data: Record<string, JsonValue>, s: JsonSchemaProps, path: string, out: FieldCause[]): void {
  const keys = Object.keys(data);
  const minProperties = numberOf(s.minProperties);
  if (minProperties !== undefined && keys.length < minProperties) {
    out.push(invalid(errPath(path), keys.length, `${path} in body should have at least ${minProperties} properties`));
    return;
  }
  const maxProperties = numberOf(s.maxProperties);
  if (maxProperties !== undefined && keys.length > maxProperties) {
    out.push(tooMany(errPath(path), keys.length, maxProperties));
    return;
  }

  const extra = keys.filter((k) => !hasProperty(s, k));
  if (s.additionalProperties === false) {
    for (const k of extra) out.push(invalid(errPath(path), k, `${path}.${k} in body is a forbidden property`));
  } else {
    const ap = additionalOf(s);
    if (ap && ap !== true) for (const k of extra) validateNode(data[k]!, ap, `${path}.${k}`, out);
  }

  for (const [name, prop] of Object.entries(propertiesOf(s))) {
    if (isObject(prop) && Object.hasOwn(data, name)) validateNode(data[name]!, prop, childPath(path, name), out);
  }

  if (Array.isArray(s.required)) {
    for (const k of s.required) {
      if (typeof k === 'string' && !Object.hasOwn(data, k)) out.push(required(errPath(`${path}.${k}`)));
    }
  }
}

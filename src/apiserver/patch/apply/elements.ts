import { InvalidApplyError } from './errors.js';
import { keyToken, pathToString, valueToken, type FieldPath, type Token } from './fieldpath.js';
import { isMapList, type ListType } from './list-types.js';
import { isJsonObject, isPrimitive, type JsonValue } from '../strategic/json.js';

export interface ListElement {
  readonly token: Token;
  readonly value: JsonValue;
  /** A later element with the token of an earlier one; it is never matched or owned. */
  readonly duplicate: boolean;
}

/**
 * Identifies the elements of a set or map list. `strict` is for apply
 * configurations, which the real server rejects when keys are missing or
 * repeated; stored objects are read leniently so that data written by other
 * means never makes a write fail.
 */
export function listElements(
  list: readonly JsonValue[],
  type: ListType,
  strict: boolean,
  at: FieldPath,
): ListElement[] {
  const seen = new Set<Token>();
  return list.map((value, i) => {
    const token = elementToken(value, type, strict, at, i);
    const duplicate = seen.has(token);
    if (duplicate && strict)
      throw new InvalidApplyError(`${where(at)}: element ${i}: duplicate entries for key ${token.slice(2)}`);
    seen.add(token);
    return { token, value, duplicate };
  });
}

function elementToken(value: JsonValue, type: ListType, strict: boolean, at: FieldPath, i: number): Token {
  if (!isMapList(type)) {
    if (strict && !isPrimitive(value))
      throw new InvalidApplyError(`${where(at)}: element ${i}: expected a scalar in a set list`);
    return valueToken(value);
  }
  if (!isJsonObject(value)) {
    if (strict)
      throw new InvalidApplyError(
        `${where(at)}: element ${i}: expected an object in a list keyed by ${type.mapKeys.join(',')}`,
      );
    return valueToken(value);
  }
  const key: Record<string, JsonValue> = {};
  for (const name of type.mapKeys) {
    const v = value[name] ?? type.keyDefaults?.[name];
    if (v === undefined || v === null) {
      if (strict) {
        throw new InvalidApplyError(
          `${where(at)}: element ${i}: associative list with keys has an element that omits key field ${JSON.stringify(name)} (and doesn't have default value)`,
        );
      }
      continue;
    }
    key[name] = v;
  }
  return keyToken(key);
}

function where(at: FieldPath): string {
  return at.length === 0 ? '<root>' : pathToString(at);
}

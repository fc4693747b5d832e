import { goQuote, goValue } from './gofmt.js';
import type { FieldCause } from './types.js';

/**
 * Constructors mirroring k8s.io/apimachinery/pkg/util/validation/field. The message is ErrorBody():
 * the type's text, the bad value where that type shows it, then the detail.
 */

/** What field.Path renders when there is no path at all (a nil *field.Path). */
export const NIL_PATH = '<nil>';

const withDetail = (body: string, detail: string): string => (detail ? `${body}: ${detail}` : body);

export function required(field: string, detail = ''): FieldCause {
  return { reason: 'FieldValueRequired', field, message: withDetail('Required value', detail) };
}

export function invalid(field: string, value: unknown, detail: string): FieldCause {
  return { reason: 'FieldValueInvalid', field, message: withDetail(`Invalid value: ${goValue(value)}`, detail) };
}

export function typeInvalid(field: string, value: unknown, detail: string): FieldCause {
  return { reason: 'FieldValueTypeInvalid', field, message: withDetail(`Invalid value: ${goValue(value)}`, detail) };
}

export function notSupported(field: string, value: unknown, valid: string[]): FieldCause {
  const detail = valid.length ? `supported values: ${valid.map(goQuote).join(', ')}` : '';
  return {
    reason: 'FieldValueNotSupported',
    field,
    message: withDetail(`Unsupported value: ${goValue(value)}`, detail),
  };
}

/** The value is deliberately left out of the message: it is the thing that is too long. */
export function tooLong(field: string, max: number): FieldCause {
  const detail = max >= 0 ? `may not be more than ${max} ${max === 1 ? 'byte' : 'bytes'}` : 'value is too long';
  return { reason: 'FieldValueTooLong', field, message: `Too long: ${detail}` };
}

export function tooMany(field: string, actual: number, max: number): FieldCause {
  const detail = max >= 0 ? `must have at most ${max} ${max === 1 ? 'item' : 'items'}` : 'too many items';
  const body = actual >= 0 ? `Too many: ${actual}` : 'Too many';
  return { reason: 'FieldValueTooMany', field, message: `${body}: ${detail}` };
}

export function duplicate(field: string, value: unknown): FieldCause {
  return { reason: 'FieldValueDuplicate', field, message: `Duplicate value: ${goValue(value)}` };
}

export function forbidden(field: string, detail: string): FieldCause {
  return { reason: 'FieldValueForbidden', field, message: withDetail('Forbidden', detail) };
}

/**
 * The Status message of a 422 (apierrors.NewInvalid): one cause is inlined, several become Go's
 * aggregate `[a, b]`. Identical `field: message` texts appear once, as ErrorList.ToAggregate does.
 */
export function formatInvalidMessage(kindDotGroup: string, name: string, causes: FieldCause[]): string {
  const head = `${kindDotGroup} ${goQuote(name)} is invalid`;
  const texts = [...new Set(causes.map((c) => `${c.field}: ${c.message}`))];
  if (texts.length === 0) return head;
  return texts.length === 1 ? `${head}: ${texts[0]}` : `${head}: [${texts.join(', ')}]`;
}

// The types the checker reasons with. Objects read their fields lazily from an OpenAPI schema, so
// a recursive or enormous schema costs only what a template actually walks into.

export type ScalarKind = 'string' | 'integer' | 'number' | 'boolean' | 'null';

export interface Field {
  ty: Ty;
  /** Not required and without a default: reading it may find nothing. */
  mayBeAbsent: boolean;
}

export interface ObjectTy {
  kind: 'object';
  /** What the object is, for messages: `Database`, `the outputs of step "read-back"`. */
  what: string;
  field(name: string): Field | undefined;
  fieldNames(): readonly string[];
  /** The type of keys not in fieldNames(): null when there can be none (a closed object). */
  rest: Ty | null;
}

export type Ty = { kind: 'unknown' } | { kind: ScalarKind } | ObjectTy | { kind: 'array'; items: Ty };

export const UNKNOWN: Ty = { kind: 'unknown' };
export const STRING: Ty = { kind: 'string' };
export const INTEGER: Ty = { kind: 'integer' };
export const NUMBER: Ty = { kind: 'number' };
export const BOOLEAN: Ty = { kind: 'boolean' };
export const NULL: Ty = { kind: 'null' };

export function arrayOf(items: Ty): Ty {
  return { kind: 'array', items };
}

/** A class rather than closures: the check makes several per step of every Flow. */
class RecordTy implements ObjectTy {
  readonly kind = 'object';
  private names: readonly string[] | undefined;

  constructor(
    readonly what: string,
    private readonly fields: Record<string, Field>,
    readonly rest: Ty | null,
  ) {}

  field(n: string): Field | undefined {
    return Object.hasOwn(this.fields, n) ? this.fields[n] : undefined;
  }

  fieldNames(): readonly string[] {
    return (this.names ??= Object.keys(this.fields));
  }
}

/** `ty` with its fields read through `field` (an object type may be a class: never spread one). */
export function withFields(ty: ObjectTy, field: (name: string) => Field | undefined): ObjectTy {
  return { kind: 'object', what: ty.what, rest: ty.rest, field, fieldNames: () => ty.fieldNames() };
}

/** An object whose fields are all given here. */
export function record(what: string, fields: Record<string, Field>, rest: Ty | null = null): ObjectTy {
  return new RecordTy(what, fields, rest);
}

export const present = (ty: Ty): Field => ({ ty, mayBeAbsent: false });

export function isScalar(ty: Ty): boolean {
  return ty.kind === 'string' || ty.kind === 'integer' || ty.kind === 'number' || ty.kind === 'boolean';
}

export function describeTy(ty: Ty): string {
  switch (ty.kind) {
    case 'object':
      return ty.fieldNames().length === 0 && ty.rest ? 'a map' : 'an object';
    case 'array':
      return 'a list';
    case 'integer':
      return 'an integer';
    case 'unknown':
      return 'a value of unknown type';
    default:
      return `a ${ty.kind}`;
  }
}

/** The type both branches may have: equal kinds keep theirs, anything else is unknown. */
export function join(a: Ty, b: Ty): Ty {
  if (a.kind === b.kind && a.kind !== 'object' && a.kind !== 'array') return a;
  if ((a.kind === 'integer' && b.kind === 'number') || (a.kind === 'number' && b.kind === 'integer')) return NUMBER;
  return a === b ? a : UNKNOWN;
}

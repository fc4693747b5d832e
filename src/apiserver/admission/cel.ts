import { run, isCelError, isCelMap, isCelList, type CelInput, type CelValue } from '@bufbuild/cel';
import { strings } from '@bufbuild/cel/ext';
import type { JsonValue } from '../registry/types.js';

/**
 * CEL for admission (matchConditions, ValidatingAdmissionPolicy), evaluated by @bufbuild/cel: Buf's
 * CEL for ECMAScript, kept by the team behind buf/protovalidate and run against cel-spec's own
 * conformance tests (https://github.com/bufbuild/cel-es), unlike the smaller hand-rolled
 * evaluators on npm. JSON integers become CEL ints (Kubernetes' int64 fields), objects maps.
 * Kubernetes' extension libraries beyond `strings` (quantity, url, ip, regex, lists) are not
 * bound: an expression that calls one fails with CEL's "no matching overload" text.
 */
export type CelOutcome = { ok: true; value: CelValue } | { ok: false; message: string };

export function toCel(v: JsonValue | undefined): CelInput {
  if (v === undefined || v === null) return null;
  if (typeof v === 'number') return Number.isInteger(v) ? BigInt(v) : v;
  if (typeof v === 'string' || typeof v === 'boolean') return v;
  if (Array.isArray(v)) return v.map((x) => toCel(x));
  return new Map(Object.entries(v).map(([k, x]) => [k, toCel(x)]));
}

/**
 * A built-in object as kube-apiserver binds it: converted from its Go struct, where an empty map
 * or list under `omitempty` is absent (a ConfigMap's `data: {}` is no key at all in CEL).
 */
export function typedToCel(v: JsonValue | undefined): CelInput {
  return toCel(v === undefined ? undefined : withoutEmpty(v));
}

function withoutEmpty(v: JsonValue): JsonValue {
  if (Array.isArray(v)) return v.map(withoutEmpty);
  if (v === null || typeof v !== 'object') return v;
  const out: Record<string, JsonValue> = {};
  for (const [k, x] of Object.entries(v)) {
    const size = typeof x !== 'object' || x === null ? 1 : Array.isArray(x) ? x.length : Object.keys(x).length;
    const empty = size === 0;
    if (!empty) out[k] = withoutEmpty(x);
  }
  return out;
}

/** cel-go's words where cel-es words it differently: Kubernetes users see these texts. */
function goText(message: string): string {
  return message.replace(/^field not found: (.*)$/, 'no such key: $1');
}

export function evaluate(expression: string, bindings: Record<string, CelInput>): CelOutcome {
  let r: CelValue | ReturnType<typeof run>;
  try {
    r = run(expression, bindings, { funcs: strings });
  } catch (e) {
    return { ok: false, message: (e as Error).message };
  }
  if (isCelError(r)) return { ok: false, message: goText(r.message) };
  return { ok: true, value: r };
}

/** A CEL value shown as a message (messageExpression must give a string). */
export function celString(v: CelValue): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

export function celToJson(v: CelValue): JsonValue {
  if (typeof v === 'bigint') return Number(v);
  if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' || v === null) return v;
  if (isCelList(v)) return [...v].map((x) => celToJson(x));
  if (isCelMap(v)) {
    const out: Record<string, JsonValue> = {};
    for (const [k, x] of v) out[String(k)] = celToJson(x);
    return out;
  }
  return String(v);
}

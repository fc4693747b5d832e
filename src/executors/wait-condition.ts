// What `kubectl wait --for=…` understands, for the wait action: "delete", "create", a bare
// condition type ("Ready"), "condition=Available", "condition=Ready=False" and
// "jsonpath={.status.phase}=Running".

import type { KubeObject } from '../kube/index.js';
import { evalKubectlPath, JsonPathError, parseKubectlPath } from '../jsonpath/index.js';
import { invalid, isPlainObject } from './step-errors.js';

export type WaitCondition =
  | { kind: 'delete' }
  | { kind: 'create' }
  | { kind: 'condition'; type: string; status: string }
  | { kind: 'jsonpath'; path: string; value: string | undefined };

export function parseWaitCondition(text: string, field: string): WaitCondition {
  const s = text.trim();
  if (/^delete(d)?$/i.test(s)) return { kind: 'delete' };
  if (/^(create|exists?)$/i.test(s)) return { kind: 'create' };
  const jp = /^jsonpath=(.*)$/is.exec(s);
  if (jp) {
    const body = (jp[1] as string).trim();
    // "{.a.b}=value" or "'{.a.b}'=value"; without "=value" the path only has to exist.
    const m = /^'?(\{.*\})'?(?:=(.*))?$/s.exec(body);
    if (!m) throw invalid(`${field}: expected jsonpath={.path}=value, got ${JSON.stringify(text)}`);
    const path = m[1] as string;
    try {
      parseKubectlPath(path);
    } catch (err) {
      throw invalid(`${field}: ${err instanceof JsonPathError ? err.message : String(err)}`);
    }
    return { kind: 'jsonpath', path, value: m[2] };
  }
  const cond = /^(?:condition=)?([A-Za-z0-9_.\-/]+)(?:=([A-Za-z]+))?$/.exec(s);
  if (cond && (s.toLowerCase().startsWith('condition=') || cond[2] === undefined)) {
    return { kind: 'condition', type: cond[1] as string, status: cond[2] ?? 'True' };
  }
  throw invalid(
    `${field}: unsupported condition ${JSON.stringify(text)}: use Ready, condition=<Type>[=<Status>], jsonpath={.path}=<value>, create or delete`,
  );
}

export function conditionText(c: WaitCondition): string {
  switch (c.kind) {
    case 'delete':
      return 'deleted';
    case 'create':
      return 'created';
    case 'condition':
      return `condition=${c.type}=${c.status}`;
    case 'jsonpath':
      return `jsonpath=${c.path}${c.value === undefined ? '' : `=${c.value}`}`;
  }
}

const scalarText = (v: unknown): string => (typeof v === 'string' ? v : JSON.stringify(v));

export function isMet(c: WaitCondition, obj: KubeObject | undefined): boolean {
  if (c.kind === 'delete') return obj === undefined;
  if (!obj) return false;
  if (c.kind === 'create') return true;
  if (c.kind === 'jsonpath') {
    const found = evalKubectlPath(obj, c.path);
    if (c.value === undefined) return found.length > 0;
    return found.length > 0 && found.every((v) => scalarText(v) === c.value);
  }
  const status = isPlainObject(obj.status) ? obj.status : {};
  const conditions = Array.isArray(status.conditions) ? (status.conditions as unknown[]) : [];
  const generation = typeof obj.metadata.generation === 'number' ? obj.metadata.generation : undefined;
  return conditions.some((raw) => {
    if (!isPlainObject(raw) || typeof raw.type !== 'string' || typeof raw.status !== 'string') return false;
    // Like kubectl: a condition about an older generation of the spec does not count yet.
    const stale =
      typeof raw.observedGeneration === 'number' && generation !== undefined && raw.observedGeneration < generation;
    return (
      !stale && raw.type.toLowerCase() === c.type.toLowerCase() && raw.status.toLowerCase() === c.status.toLowerCase()
    );
  });
}

// Every value a preview must never show: the Secrets' values, plain and base64-decoded, longest
// first so that a value containing another is replaced whole. A preview masks Secrets by shape
// (diff/secret-mask.ts) and then replaces these anywhere else a text repeats one (an API server's
// message, a rendered ConfigMap a template copied a password into).

import { MASKED } from '../diff/secret-mask.js';
import type { KubeObject } from '../kube/index.js';

const isSecret = (o: KubeObject): boolean => o.apiVersion === 'v1' && o.kind === 'Secret';

function stringsOf(v: unknown): string[] {
  if (!v || typeof v !== 'object' || Array.isArray(v)) return [];
  return Object.values(v).filter((x): x is string => typeof x === 'string');
}

export function secretValues(objects: readonly KubeObject[]): string[] {
  const out: string[] = [];
  for (const object of objects) {
    if (!isSecret(object)) continue;
    const all = object as KubeObject & { data?: unknown; stringData?: unknown };
    for (const v of stringsOf(all.data)) out.push(v, Buffer.from(v, 'base64').toString('utf8'));
    out.push(...stringsOf(all.stringData));
  }
  // Shorter values are too likely to be ordinary words of the text to replace.
  return [...new Set(out.filter((v) => v.length >= 3))].sort((a, b) => b.length - a.length);
}

export function redactValues(text: string, values: readonly string[]): string {
  let out = text;
  for (const v of values) out = out.replaceAll(v, MASKED);
  return out;
}

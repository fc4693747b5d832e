import { createHash } from 'node:crypto';
import type { PodTemplate } from './types.js';

/** apimachinery's rand.SafeEncodeString alphabet: no vowels (no words), no look-alike characters. */
const SAFE_ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';

/**
 * A stable short hash of a pod template, as the Deployment controller's `pod-template-hash` and the
 * StatefulSet controller's revision names are: FNV-32a over the template (here its canonical JSON,
 * not Go's spew dump, so the values differ from a real cluster's but have the same form and
 * stability), encoded with the safe alphabet.
 */
export function podTemplateHash(template: PodTemplate | undefined, collisionCount = 0): string {
  let h = 0x811c9dc5;
  const text = canonicalJson(template ?? {}) + (collisionCount ? `#${collisionCount}` : '');
  for (const byte of Buffer.from(text, 'utf8')) {
    h ^= byte;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return safeEncode(String(h));
}

function safeEncode(s: string): string {
  return [...s].map((c) => SAFE_ALPHABET[c.charCodeAt(0) % SAFE_ALPHABET.length]).join('');
}

export function canonicalJson(v: unknown): string {
  if (v === null || typeof v !== 'object') return JSON.stringify(v);
  if (Array.isArray(v)) return `[${v.map(canonicalJson).join(',')}]`;
  const o = v as Record<string, unknown>;
  const keys = Object.keys(o)
    .filter((k) => o[k] !== undefined)
    .sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(o[k])}`).join(',')}}`;
}

/** A fake but well-formed 64-hex-digit id (container IDs, image digests), stable for the same input. */
export function fakeSha256(...parts: string[]): string {
  return createHash('sha256').update(parts.join('\0')).digest('hex');
}

/** Five random characters from the safe alphabet, as generateName appends. */
export function randomSuffix(): string {
  return Array.from({ length: 5 }, () => SAFE_ALPHABET[Math.floor(Math.random() * SAFE_ALPHABET.length)]).join('');
}

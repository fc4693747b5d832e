// A file's type-check findings kept by its content and the schemas it was checked against: a
// FlowSource's drift check validates its last applied commit again every interval, and the webhook,
// `flowops diff` and the preview see Flows a sync already checked. The check is a function of the
// file's path and text and of the registry's schemas, so an equal key and fingerprint give equal
// findings. Keyed by the text itself (a string key is hashed by the engine, cheaper than a digest).
import { LRUCache } from 'lru-cache';
import type { SchemaRegistry } from './registry.js';
import type { TypeFinding } from './index.js';

interface Entry {
  fingerprint: string;
  findings: readonly TypeFinding[];
}

/** By the files' length: some 16 MB of text, thousands of Flows. */
const MAX_CHARS = 16 * 1024 * 1024;

const entries = new LRUCache<string, Entry>({
  maxSize: MAX_CHARS,
  sizeCalculation: (e, key) => key.length + 100 * (1 + e.findings.length),
});

/** The findings for `path`/`text` under `registry`, computed by `check` once per content and schemas. */
export function cachedFindings(
  path: string,
  text: string,
  registry: SchemaRegistry,
  check: () => TypeFinding[],
): TypeFinding[] {
  const key = `${path}\u0000${text}`;
  const fingerprint = registry.fingerprint;
  let entry = entries.get(key);
  if (entry?.fingerprint !== fingerprint) {
    entry = { fingerprint, findings: check() };
    // A file longer than a sixteenth of the cache is checked each time rather than evicting many.
    if (key.length < MAX_CHARS / 16) entries.set(key, entry);
  }
  // Copies: a caller may sort or extend what it gets.
  return entry.findings.map((f) => ({ ...f }));
}

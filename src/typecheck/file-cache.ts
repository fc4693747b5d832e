// A file's type-check findings kept by its content and the schemas it was checked against: a
// FlowSource's drift check validates its last applied commit again every interval, and the webhook,
// `flowops diff` and the preview see Flows a sync already checked. The check is a function of the
// file's path and text and of the registry's schemas, so an equal key and fingerprint give equal
// findings. Keyed by the path, the text compared whole: a key made of the text would be a new
// string to copy and hash on every look-up, where comparing an equal text is one pass (often none:
// the same string). A path keeps its last few texts (a preview and the sync alternate two).
import { LRUCache } from 'lru-cache';
import type { SchemaRegistry } from './registry.js';
import type { TypeFinding } from './index.js';

interface Entry {
  text: string;
  fingerprint: string;
  findings: readonly TypeFinding[];
}

/** By the files' length: some 16 MB of text, thousands of Flows. */
const MAX_CHARS = 16 * 1024 * 1024;
/** Texts kept per path, the newest first. */
const VERSIONS = 2;

const entries = new LRUCache<string, Entry[]>({
  maxSize: MAX_CHARS,
  sizeCalculation: (versions, path) =>
    versions.reduce((n, e) => n + e.text.length + 100 * (1 + e.findings.length), path.length),
});

/** The findings for `path`/`text` under `registry`, computed by `check` once per content and schemas. */
export function cachedFindings(
  path: string,
  text: string,
  registry: SchemaRegistry,
  check: () => TypeFinding[],
): TypeFinding[] {
  const fingerprint = registry.fingerprint;
  const versions = entries.get(path) ?? [];
  let entry = versions.find((e) => e.text === text && e.fingerprint === fingerprint);
  if (!entry) {
    entry = { text, fingerprint, findings: check() };
    // A file longer than a sixteenth of the cache is checked each time rather than evicting many.
    if (path.length + text.length < MAX_CHARS / 16)
      entries.set(path, [entry, ...versions.filter((e) => e.text !== text)].slice(0, VERSIONS));
  }
  // Copies: a caller may sort or extend what it gets.
  return entry.findings.map((f) => ({ ...f }));
}

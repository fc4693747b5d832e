// A file's type-check findings kept by its content and the schemas it was checked against: a
// FlowSource's drift check validates its last applied commit again every interval, and the webhook,
// `flowops diff` and the preview see Flows a sync already checked. The check is a function of the
// file's path and text and of the registry's schemas, so equal keys give equal findings.
import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { SchemaRegistry } from './registry.js';
import type { TypeFinding } from './index.js';

/** Entries count one plus their findings: tens of thousands of files, a few MB. */
const MAX_SIZE = 50_000;

const findings = new LRUCache<string, readonly TypeFinding[]>({
  maxSize: MAX_SIZE,
  sizeCalculation: (list) => 1 + list.length,
});

/** The findings for `path`/`text` under `registry`, computed by `check` once per content. */
export function cachedFindings(
  path: string,
  text: string,
  registry: SchemaRegistry,
  check: () => TypeFinding[],
): TypeFinding[] {
  const content = createHash('sha256').update(path).update('\u0000').update(text).digest('hex');
  const key = `${registry.fingerprint}:${content}`;
  let list = findings.get(key);
  if (!list) {
    list = check();
    findings.set(key, list);
  }
  // Copies: a caller may sort or extend what it gets.
  return list.map((f) => ({ ...f }));
}

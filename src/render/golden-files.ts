// `flowops render --expect DIR`: one golden file per watched object (`<id>.yaml`), compared as
// text so that the unified diff shows exactly what changed; `--update` writes them instead.

import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { unifiedDiff } from '../util/line-diff.js';
import type { RenderedObject } from './rendered-object.js';

export interface GoldenComparison {
  /** Unified diffs, one per differing object (golden file → rendered). */
  diffs: string[];
  /** Golden files no rendered object matches. */
  stale: string[];
}

export function compareGolden(dir: string, rendered: readonly RenderedObject[]): GoldenComparison {
  const diffs: string[] = [];
  for (const r of rendered) {
    const file = join(dir, `${r.id}.yaml`);
    const expected = existsSync(file) ? readFileSync(file, 'utf8') : '';
    const diff = unifiedDiff(expected, r.yaml, { fromName: file, toName: `${r.id} (rendered)` });
    if (diff) diffs.push(existsSync(file) ? diff : `no golden file ${file}; rendered:\n${diff}`);
  }
  const ids = new Set(rendered.map((r) => `${r.id}.yaml`));
  const stale = existsSync(dir)
    ? readdirSync(dir)
        .filter((f) => f.endsWith('.yaml') && !ids.has(f))
        .map((f) => join(dir, f))
    : [];
  return { diffs, stale };
}

/** Writes every rendered object's golden file; returns the files that changed. */
export function updateGolden(dir: string, rendered: readonly RenderedObject[]): string[] {
  mkdirSync(dir, { recursive: true });
  const changed: string[] = [];
  for (const r of rendered) {
    const file = join(dir, `${r.id}.yaml`);
    if (existsSync(file) && readFileSync(file, 'utf8') === r.yaml) continue;
    writeFileSync(file, r.yaml);
    changed.push(file);
  }
  return changed;
}

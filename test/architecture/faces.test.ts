import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  ALLOWLIST_FILE,
  type Allowlist,
  faceOf,
  isCrossPart,
  parseModule,
  partOf,
  readGraph,
} from '../../scripts/faces/graph.js';
import { runtimeCycles } from '../../scripts/faces/cycles.js';

// The import graph of src/ against what scripts/faces.ts decided: other parts import a part through
// its face (index.ts), and no import runs back up the layers; the imports kept otherwise are in the
// allowlist, each with its reason. A new one fails here: route it through the face (re-run
// `npx tsx scripts/faces.ts --write`) or, if the script keeps it, its reason is in the allowlist.
const root = join(import.meta.dirname, '..', '..');
const allow = JSON.parse(readFileSync(join(root, ALLOWLIST_FILE), 'utf8')) as Allowlist;
const graph = readGraph(root);
const cross = [...graph.modules.values()].flatMap((m) => m.imports.filter(isCrossPart));
const allowed = new Set(allow.kept.map((k) => `${k.from} -> ${k.to}`));
const rank = new Map(allow.layers.map((p, i) => [p, i]));

describe('parts import each other through their faces, downwards', () => {
  it('every part under src/ has a face and a layer', () => {
    const parts = new Set([...graph.modules.keys()].map(partOf).filter((p) => p !== undefined));
    expect([...parts].filter((p) => !graph.modules.has(faceOf(p)))).toEqual([]);
    expect([...parts].filter((p) => !rank.has(p))).toEqual([]);
  });

  it('no deep import into another part outside the allowlist', () => {
    const deep = cross
      .filter((s) => s.to !== faceOf(partOf(s.to) as string))
      .map((s) => `${s.from} -> ${s.to}`)
      .filter((k) => !allowed.has(k));
    expect([...new Set(deep)]).toEqual([]);
  });

  it('no import runs from a lower part to a higher one, allowlisted or not', () => {
    const up = cross
      .filter((s) => (rank.get(partOf(s.from) as string) ?? 0) < (rank.get(partOf(s.to) as string) ?? 0))
      .map((s) => `${s.from} -> ${s.to}`);
    expect([...new Set(up)]).toEqual([]);
    expect(allow.kept.filter((k) => k.reason.startsWith('back-arrow'))).toEqual([]);
  });

  it("a part imports another part's face once per file", () => {
    const twice = [...graph.modules.values()].flatMap((m) => {
      const faces = m.imports
        .filter((s) => s.kind === 'import' && isCrossPart(s) && s.to === faceOf(partOf(s.to) as string))
        .map((s) => `${s.typeOnly ? 'type ' : ''}${s.to}`);
      return faces.filter((f, i) => faces.indexOf(f) !== i).map((f) => `${m.file} imports ${f} twice`);
    });
    expect(twice).toEqual([]);
  });

  it("no import cycle at load time but the strategic merge patch's own recursion", () => {
    // merge-list.ts and merge-map.ts recurse into each other (a list of maps, a map of lists): one
    // concern in two files. Any other cycle fixes an evaluation order between two concerns.
    expect(runtimeCycles(graph)).toEqual([
      ['src/apiserver/patch/strategic/merge-list.ts', 'src/apiserver/patch/strategic/merge-map.ts'],
    ]);
  });

  it('the allowlist names only imports that exist, so a fixed one leaves it', () => {
    const present = new Set(cross.map((s) => `${s.from} -> ${s.to}`));
    expect(allow.kept.map((k) => `${k.from} -> ${k.to}`).filter((k) => !present.has(k))).toEqual([]);
  });

  it('the reader finds the statements it is given, comments and strings aside', () => {
    // A deep import in a comment or a string is not an import; a dynamic one and a re-export are.
    const text = [
      "// import { a } from '../kube/client.js';",
      "const s = 'not /* a comment';",
      "import { type B, c as d } from '../kube/client.js';",
      "export { e } from '../kube/rest.js';",
      "const m = await import('../queue/memory-queue.js');",
    ].join('\n');
    const mod = parseModule(root, 'src/cli/x.ts', text);
    expect(mod.imports.map((s) => [s.kind, s.to, s.names?.map((n) => n.name), s.typeOnly])).toEqual([
      ['import', 'src/kube/client.ts', ['B', 'c'], false],
      ['export', 'src/kube/rest.ts', ['e'], false],
      ['dynamic', 'src/queue/memory-queue.ts', undefined, false],
    ]);
  });
});

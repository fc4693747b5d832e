// The manifest skeletons' fast YAML path against the yaml library: on generated documents (pure-rand,
// one fixed seed) and on every manifest template of the repository's Flows, the fast path gives the
// library's shape (values, offsets) or declines.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { uniformInt } from 'pure-rand/distribution/uniformInt';
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';
import { parseAllDocuments } from 'yaml';
import { describe, expect, it } from 'vitest';
import { parsedTemplate } from '../../src/template/parse-cache.js';
import { fastShape } from '../../src/typecheck/fast-yaml.js';
import { skeletonOf } from '../../src/typecheck/skeleton.js';
import { shapeOfDocuments, type ShapeDoc } from '../../src/typecheck/yaml-shape.js';
import { inlineDocuments, ROOT, VALID, INVALID, yamlFiles } from './corpus.js';

/** What the manifest check reads when the fast path declines. */
function library(text: string): ShapeDoc[] {
  const docs = parseAllDocuments(text, { version: '1.1', uniqueKeys: true, prettyErrors: false });
  return Array.isArray(docs) ? shapeOfDocuments(docs) : [];
}

class Gen {
  private readonly rng = xoroshiro128plus(20251202);
  below(n: number): number {
    return n <= 1 ? 0 : uniformInt(this.rng, 0, n - 1);
  }
  pick<T>(items: readonly T[]): T {
    const item = items[this.below(items.length)];
    if (item === undefined) throw new Error('Gen.pick: no items');
    return item;
  }
  chance(percent: number): boolean {
    return this.below(100) < percent;
  }
}

// Mostly what manifests hold, and some of everything the fast path must decline or resolve as YAML 1.1 does.
const KEYS = [
  'apiVersion',
  'kind',
  'name',
  'spec',
  'replicas',
  'app',
  'port',
  'image',
  '__ftc_0__',
  '__ftc_1__-x',
  'example.com/uid',
  '"quoted"',
  "'single'",
  'yes',
  'on',
  '1',
  '0x1F',
  'a b',
  '~',
  '<<',
  '-x',
  '? k',
  'k:v',
  '"a\\"b"',
  'x#y',
  '&a k',
  '!t k',
];
const SCALARS = [
  'v1',
  'apps/v1',
  'Service',
  'nginx:1.25',
  '80',
  '-3',
  '1.5',
  '0',
  '007',
  '0x1F',
  '0o17',
  '1:20',
  '1_000',
  '~',
  'null',
  'Null',
  'yes',
  'No',
  'on',
  'OFF',
  'y',
  'true',
  'False',
  '.inf',
  '-.Inf',
  '.nan',
  '2001-12-14',
  '2001-12-14T21:59:43Z',
  '__ftc_0__',
  '__ftc_2__-svc',
  'pre-__ftc_3__',
  'http://x:80/p',
  'a b  c',
  '"quoted"',
  '"with \\"escape\\""',
  "'it''s'",
  "''",
  '""',
  '"a # b"',
  'a # comment',
  '&anchor x',
  '*alias',
  '!tag x',
  '!!str 1',
  '|',
  '>-',
  '[1, 2]',
  '[]',
  '{}',
  '{a: b}',
  '{ bench-copy: "seen-1" }',
  '[a, [b, {c: 1}]]',
  '{a: 1,}',
  '[a,,b]',
  '{a}',
  'a: b',
  '-',
  '- x',
  '? x',
  ': x',
  '%x',
  '@x',
  '`x',
  '"unclosed',
  "'unclosed",
  '{unclosed',
  '"a" b',
  'x: ',
  'k:v',
  '[a]b',
  '{"a":1}',
  '{ a: yes, b: 0x10 }',
  '[ ~, null, "", \'\' ]',
  '--- x',
  '...',
];

/** Most values are the plain kind every manifest has; the rest from the whole list. */
const COMMON = SCALARS.slice(0, 34);
function scalar(g: Gen): string {
  return g.pick(g.chance(85) ? COMMON : SCALARS);
}

/** A block node's lines at `indent`. */
function block(g: Gen, indent: number, depth: number): string[] {
  const pad = ' '.repeat(indent);
  const n = 1 + g.below(4);
  const lines: string[] = [];
  if (depth > 3 || g.chance(55)) {
    const used = new Set<string>();
    for (let i = 0; i < n; i++) {
      let key = g.pick(g.chance(85) ? KEYS.slice(0, 11) : KEYS);
      // Mostly unique keys (a duplicate must decline, but should not hide every other case).
      if (used.has(key) && g.chance(80)) key = `${key}${i}`;
      used.add(key);
      if (depth < 4 && g.chance(40)) {
        lines.push(`${pad}${key}:`);
        // A sequence may sit at its key's indent.
        const inner = g.chance(20) ? indent : indent + g.pick([1, 2, 2, 2, 4]);
        lines.push(...(inner === indent ? seq(g, indent, depth + 1) : block(g, inner, depth + 1)));
      } else lines.push(`${pad}${key}:${g.chance(8) ? '' : ` ${scalar(g)}`}`);
    }
    return lines;
  }
  return seq(g, indent, depth);
}

function seq(g: Gen, indent: number, depth: number): string[] {
  const pad = ' '.repeat(indent);
  const lines: string[] = [];
  for (let i = 0, n = 1 + g.below(3); i < n; i++) {
    const r = g.below(10);
    if (r < 4 && depth < 4) {
      // A compact mapping: its first entry on the dash's line.
      const [first, ...rest] = block(g, indent + 2, depth + 4 - 1);
      if (first?.trimStart().startsWith('- ')) lines.push(`${pad}-`, first, ...rest);
      else lines.push(`${pad}- ${first?.trimStart() ?? 'x: 1'}`, ...rest);
    } else if (r < 5 && depth < 4) {
      lines.push(`${pad}-`, ...block(g, indent + 2, depth + 1));
    } else lines.push(`${pad}- ${scalar(g)}`);
  }
  return lines;
}

/** Perturbations: comments, blank lines, trailing spaces, odd indentation, continuation lines, tabs. */
function perturb(g: Gen, lines: string[]): string[] {
  const out: string[] = [];
  for (const line of lines) {
    if (g.chance(3)) out.push(`${' '.repeat(g.below(6))}# a comment`);
    if (g.chance(3)) out.push(g.chance(50) ? '' : '   ');
    let l = line;
    if (g.chance(2)) l = ` ${l}`;
    if (g.chance(3)) l = `${l}  `;
    if (g.chance(1)) l = l.replace(' ', '\t');
    out.push(l);
    if (g.chance(2)) out.push(`${' '.repeat(g.below(8))}continued`);
  }
  return out;
}

function documentText(g: Gen): string {
  const docs: string[] = [];
  for (let i = 0, n = g.chance(15) ? 2 + g.below(2) : 1; i < n; i++) {
    const lines = g.chance(70) ? block(g, 0, 0) : perturb(g, block(g, g.chance(10) ? 2 : 0, 0));
    docs.push(lines.join('\n'));
  }
  const head = g.chance(10) ? '---\n' : g.chance(5) ? '# head\n' : '';
  return `${head}${docs.join('\n---\n')}${g.chance(80) ? '\n' : ''}`;
}

describe('the fast YAML path of the manifest check', () => {
  it('gives the yaml library shape, or declines, on 4,000 generated documents', () => {
    const g = new Gen();
    let taken = 0;
    let declined = 0;
    for (let i = 0; i < 4000; i++) {
      const text = documentText(g);
      const fast = fastShape(text);
      if (fast === null) {
        declined++;
        continue;
      }
      taken++;
      const lib = library(text);
      if (!isDeepStrictEqual(fast, lib)) expect({ text, fast }).toEqual({ text, fast: lib });
    }
    // Both ways are exercised: most plain documents take the fast path, the odd ones decline.
    expect(taken).toBeGreaterThan(800);
    expect(declined).toBeGreaterThan(800);
  });

  it.each([
    ['a flow mapping over two lines', 'a: { b: 1,\n  c: 2 }\n'],
    ['an anchor and an alias', 'a: &x 1\nb: *x\n'],
    ['a tag', 'a: !!str 1\n'],
    ['a block scalar', 'a: |\n  text\n'],
    ['a multi-line plain scalar', 'a: one\n  two\n'],
    ['a comment after a value', 'a: 1 # one\n'],
    ['a tab', 'a:\n\tb: 1\n'],
    ['an escape in double quotes', 'a: "x\\ny"\n'],
    ['a duplicate key', 'a: 1\na: 2\n'],
    ['a merge key', 'a: {b: 1}\n<<: {c: 2}\n'],
    ['a key indented between levels', 'a:\n    b: 1\n  c: 2\n'],
    ['an empty document', 'a: 1\n---\n'],
  ])('declines %s', (_what, text) => {
    expect(fastShape(text)).toBeNull();
  });

  it('reads every manifest template of the repository Flows as the library does, most by the fast path', () => {
    const examples = join(ROOT, 'repos-example');
    const sources = [
      ...readdirSync(examples)
        .filter((d) => existsSync(join(examples, d, 'flow.yaml')))
        .map((d) => join(examples, d, 'flow.yaml')),
      ...yamlFiles(VALID),
      ...yamlFiles(INVALID),
    ].map((path) => ({ path, text: readFileSync(path, 'utf8') }));
    sources.push(...inlineDocuments().flows);
    let manifests = 0;
    let fast = 0;
    for (const { path, text } of sources) {
      for (const body of manifestTemplates(text)) {
        let nodes: ReturnType<typeof parsedTemplate>;
        try {
          nodes = parsedTemplate(body);
        } catch {
          continue;
        }
        const skel = skeletonOf(nodes).text;
        manifests++;
        const shape = fastShape(skel);
        if (shape === null) continue;
        fast++;
        expect({ path, skel, shape }).toEqual({ path, skel, shape: library(skel) });
      }
    }
    expect(manifests).toBeGreaterThan(10);
    expect(fast / manifests).toBeGreaterThan(0.6);
  });
});

/** Every string under a `manifests` key of the text's documents. */
function manifestTemplates(text: string): string[] {
  const out: string[] = [];
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) v.forEach(walk);
    else if (typeof v === 'object' && v !== null)
      for (const [k, x] of Object.entries(v)) {
        if (k === 'manifests' && typeof x === 'string') out.push(x);
        else walk(x);
      }
  };
  for (const doc of parseAllDocuments(text)) if (doc.errors.length === 0) walk(doc.toJS());
  return out;
}

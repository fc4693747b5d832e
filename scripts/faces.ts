// Gives every part under src/ a face and routes other parts' imports through it (issue #27, item 5).
//
//   npx tsx scripts/faces.ts           what it would change, and every import it keeps deep and why
//   npx tsx scripts/faces.ts --check   the same; exits 1 if anything would change
//   npx tsx scripts/faces.ts --write   writes the faces, the rewritten imports and the allowlist
//
// A part is a folder directly under src/; its face is its index.ts. A face's generated block
// re-exports what other parts import from the part's files; what a hand-written face exports
// already is not repeated. An import `../other/file.js` becomes `../other/index.js` unless:
// - it runs back up: the parts are ranked (scripts/faces/allowlist.json's layers, lowest first) so
//   that the fewest imports run from a lower part to a higher one; those are kept and listed;
// - it loads code at run time and the face would close an import cycle through the importer (the
//   face, or something it loads, loads the importer), which changes the modules' evaluation order;
// - the face would make the importer load more than LOAD_LIMIT modules it did not load before:
//   the CLI's bundle (scripts/bundle-cli.mjs) tree-shakes what a face re-exports but keeps every
//   module with top-level effects, and tests and `tsx` load them all; such a face is too wide and
//   the reason names it. Type-only imports are erased and always go through the face;
// - it is a dynamic import (loaded on demand, the point of which a face would defeat), a namespace,
//   default or side-effect import, or a name the face cannot export (two files of the part export it).
// Each kept import is written to the allowlist with its reason; test/architecture/faces.test.ts
// fails on a deep cross-part import or a back-arrow that is not in it.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  ALLOWLIST_FILE,
  type Allowlist,
  faceOf,
  type Graph,
  type ImportStatement,
  isCrossPart,
  loadsAtRuntime,
  type ModuleInfo,
  originOf,
  parseModule,
  partOf,
  readGraph,
  runtimeClosure,
} from './faces/graph.js';
import { mergeImports } from './faces/merge-imports.js';

const BEGIN = '// faces:begin (scripts/faces.ts writes this block: what other parts import from this one)';
const END = '// faces:end';

/**
 * How many more modules a face may cost an importer at run time (see the header): none. With 50,
 * esbuild merged the CLI's chunks and `flowops --help` took 0.6-1.0 s instead of 0.2-0.4 s.
 */
const LOAD_LIMIT = 0;

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const mode = process.argv.includes('--write') ? 'write' : process.argv.includes('--check') ? 'check' : 'report';

type Cross = ImportStatement & { to: string };

/** One pass; true if it changed (or, checking, would change) anything. */
function main(): boolean {
  const original = readGraph(root);
  let graph = original;
  const parts = [...new Set([...graph.modules.keys()].map(partOf).filter((p): p is string => p !== undefined))].sort();
  // Faces without their old generated block: what is exported by hand stays, the block is rebuilt.
  graph = withFaces(graph, parts, new Map());
  const layers = rankParts(graph, parts);
  const rank = new Map(layers.map((p, i) => [p, i]));
  const cross = [...graph.modules.values()].flatMap((m) => m.imports.filter(isCrossPart));

  const kept = new Map<Cross, string>();
  const candidates: Cross[] = [];
  for (const s of cross) {
    const a = partOf(s.from) as string;
    const b = partOf(s.to) as string;
    if ((rank.get(a) ?? 0) < (rank.get(b) ?? 0)) {
      kept.set(s, `back-arrow: ${a} (layer ${rank.get(a)}) is below ${b} (layer ${rank.get(b)})`);
      continue;
    }
    if (s.to === faceOf(b)) continue;
    if (s.kind === 'dynamic') kept.set(s, 'dynamic import: loaded on demand, which the whole face would defeat');
    else if (s.kind === 'side-effect') kept.set(s, 'side-effect import of one file');
    else if (!s.names) kept.set(s, 'namespace, default or export-* import: the face cannot stand in for one file');
    else candidates.push(s);
  }

  // Imports through a face already: what they name must stay in the face (found in its old block).
  const faceUsers: Cross[] = [];
  for (const s of cross) {
    const part = partOf(s.to) as string;
    if (s.to !== faceOf(part) || !s.names || kept.has(s)) continue;
    const hand = handExports(graph, s.to);
    const byOrigin = new Map<string, Cross>();
    for (const n of s.names) {
      if (hand.has(n.name)) continue;
      // The file of the part the old face re-exported it from.
      const line = original.modules
        .get(s.to)
        ?.imports.find((x) => x.kind === 'export' && x.names?.some((y) => y.name === n.name));
      const file = line?.to;
      if (!file || partOf(file) !== part) continue;
      const user = byOrigin.get(file) ?? { ...s, to: file, names: [] };
      user.names?.push(n);
      byOrigin.set(file, user);
    }
    faceUsers.push(...byOrigin.values());
  }

  // What each face must export, and which names two files of a part both want to export.
  let rewrites = candidates;
  for (let round = 0; ; round++) {
    const block = blocksFor(graph, [...rewrites, ...faceUsers], kept);
    const next = withFaces(graph, parts, block);
    const stillOk = rewrites.filter((s) => {
      if (kept.has(s)) return false;
      if (s.typeOnly) return true;
      const why = runtimeReason(next, s, rewrites);
      if (why) kept.set(s, why);
      return !why;
    });
    if (stillOk.length === rewrites.length || round > 20) {
      rewrites = stillOk;
      graph = next;
      break;
    }
    rewrites = stillOk;
  }
  let blocks = blocksFor(graph, [...rewrites, ...faceUsers], kept);
  rewrites = rewrites.filter((s) => !kept.has(s));
  blocks = blocksFor(graph, [...rewrites, ...faceUsers], kept);
  const finalGraph = withFaces(readGraph(root), parts, blocks);

  // The changes: the faces' text and the rewritten specifiers.
  const files = new Map<string, string>();
  for (const part of parts) {
    const face = faceOf(part);
    const text = biomeFormatted(face, finalGraph.modules.get(face)?.text ?? '');
    const old = existsSync(join(root, face)) ? readFileSync(join(root, face), 'utf8') : undefined;
    if (text !== old) files.set(face, text);
  }
  const byFile = new Map<string, Cross[]>();
  for (const s of rewrites) byFile.set(s.from, [...(byFile.get(s.from) ?? []), s]);
  const keyOf = (x: ImportStatement): string =>
    `${x.kind}|${x.to}|${x.specifier}|${(x.names ?? []).map((n) => n.name).join(',')}`;
  for (const [file, list] of byFile) {
    // The file as it is to be (a face: its new text), its statements found again by what they are.
    const base = files.get(file) ?? readFileSync(join(root, file), 'utf8');
    const wantedKeys = new Set(list.map(keyOf));
    const found = parseModule(root, file, base).imports.filter((x) => wantedKeys.has(keyOf(x)));
    let text = base;
    // Replaced from the end so the earlier offsets stay.
    for (const x of found.sort((a, b) => b.specifierAt - a.specifierAt)) {
      const spec = faceSpecifier(x.from, partOf(x.to as string) as string);
      text = text.slice(0, x.specifierAt) + spec + text.slice(x.specifierAt + x.specifier.length);
    }
    files.set(file, mergeImports(text));
  }
  // Imports routed through a face in an earlier pass, or written by hand, that repeat a module.
  for (const [file, info] of finalGraph.modules) {
    if (files.has(file) || !file.startsWith('src/')) continue;
    const merged = mergeImports(info.text);
    if (merged !== info.text) files.set(file, merged);
  }
  const allowlist: Allowlist = {
    layers,
    kept: [...kept]
      .map(([s, reason]) => ({ from: s.from, to: s.to, reason }))
      .sort((x, y) => (x.from + x.to < y.from + y.to ? -1 : x.from + x.to > y.from + y.to ? 1 : 0)),
  };
  const allowText = `${JSON.stringify(allowlist, null, 2)}\n`;
  const oldAllow = existsSync(join(root, ALLOWLIST_FILE)) ? readFileSync(join(root, ALLOWLIST_FILE), 'utf8') : '';

  for (const k of allowlist.kept) console.log(`kept deep  ${k.from} -> ${k.to}: ${k.reason}`);
  console.log(`layers (lowest first): ${layers.join(' < ')}`);
  console.log(
    `${rewrites.length} imports through a face in ${byFile.size} files; ${allowlist.kept.length} kept; ` +
      `${[...files.keys()].filter((f) => f.endsWith('/index.ts') && partOf(f) && f === faceOf(partOf(f) as string)).length} faces changed`,
  );
  const changes = files.size > 0 || allowText !== oldAllow;
  if (mode === 'write') {
    for (const [file, text] of files) writeFileSync(join(root, file), text);
    writeFileSync(join(root, ALLOWLIST_FILE), allowText);
    const changed = [...files.keys()];
    // Biome's import order and formatting, so the result passes `npm run lint` as it is.
    for (let i = 0; i < changed.length; i += 200)
      execFileSync('npx', ['biome', 'check', '--write', ...changed.slice(i, i + 200)], { cwd: root, stdio: 'inherit' });
  } else if (mode === 'check' && changes) {
    console.error(`faces: ${files.size} files would change; run npx tsx scripts/faces.ts --write`);
    process.exit(1);
  }
  return changes;
}

/** The generated block per face: `export { … } from './file.js'` lines for the names other parts import. */
function blocksFor(graph: Graph, rewrites: Cross[], kept: Map<Cross, string>): Map<string, string[]> {
  // part → name → { origin, file, typeOnly }
  const wanted = new Map<string, Map<string, { origin: string; file: string; typeOnly: boolean }>>();
  const clashes = new Set<string>();
  for (const s of rewrites) {
    if (kept.has(s)) continue;
    const part = partOf(s.to) as string;
    const names = wanted.get(part) ?? new Map();
    wanted.set(part, names);
    for (const n of s.names ?? []) {
      const origin = originOf(graph, s.to, n.name) ?? `${s.to}#${n.name}`;
      const had = names.get(n.name);
      if (had && had.origin !== origin) clashes.add(`${part}#${n.name}`);
      else {
        // Exported from where it is declared, whichever file re-exported it to the importer.
        const declared = origin.endsWith(`#${n.name}`) ? origin.slice(0, -n.name.length - 1) : s.to;
        const file = partOf(declared) === part ? declared : s.to;
        names.set(n.name, { origin, file, typeOnly: (had?.typeOnly ?? true) && n.typeOnly });
      }
    }
  }
  for (const s of rewrites) {
    const part = partOf(s.to) as string;
    const clash = (s.names ?? []).find((n) => clashes.has(`${part}#${n.name}`));
    if (clash) kept.set(s, `two files of ${part} export ${clash.name}: the face cannot export both`);
  }
  const blocks = new Map<string, string[]>();
  for (const [part, names] of wanted) {
    const face = faceOf(part);
    const hand = handExports(graph, face);
    const byFile = new Map<string, { values: string[]; types: string[] }>();
    for (const [name, w] of names) {
      if (clashes.has(`${part}#${name}`)) continue;
      const handOrigin = hand.get(name);
      if (handOrigin !== undefined) {
        // The face exports the name by hand already: the same thing, or another one (then kept deep).
        if (handOrigin !== w.origin)
          for (const s of rewrites)
            if (partOf(s.to) === part && s.names?.some((n) => n.name === name))
              kept.set(s, `${face} exports another ${name}`);
        continue;
      }
      const entry = byFile.get(w.file) ?? { values: [], types: [] };
      (w.typeOnly ? entry.types : entry.values).push(name);
      byFile.set(w.file, entry);
    }
    const lines: string[] = [];
    for (const [file, e] of [...byFile].sort(([a], [b]) => (a < b ? -1 : 1))) {
      const spec = `./${relative(`src/${part}`, file).replace(/\.ts$/, '.js')}`;
      const all = [...e.values.sort(), ...e.types.sort().map((t) => `type ${t}`)];
      if (e.values.length === 0) lines.push(`export type { ${e.types.sort().join(', ')} } from '${spec}';`);
      else lines.push(`export { ${all.join(', ')} } from '${spec}';`);
    }
    blocks.set(part, lines);
  }
  return blocks;
}

/** Names the face exports outside its generated block, with where each is declared. */
function handExports(graph: Graph, face: string): Map<string, string> {
  const out = new Map<string, string>();
  const read = graph.modules.get(face);
  if (!read) return out;
  // Only what is outside the generated block is by hand.
  const mod = parseModule(graph.root, face, stripBlock(read.text));
  const names = new Set<string>(mod.localExports);
  for (const s of mod.imports) if (s.kind === 'export') for (const n of s.names ?? []) names.add(n.name);
  for (const name of names) {
    const o = originOf(graph, face, name);
    if (o) out.set(name, o);
  }
  return out;
}

/** The graph with each part's face text rebuilt: hand part kept, the block replaced by `blocks`. */
function withFaces(graph: Graph, parts: string[], blocks: Map<string, string[]>): Graph {
  const modules = new Map(graph.modules);
  for (const part of parts) {
    const face = faceOf(part);
    const old = graph.modules.get(face)?.text;
    const hand = old === undefined ? undefined : stripBlock(old);
    const lines = blocks.get(part) ?? [];
    let text: string;
    if (hand === undefined || hand.trim() === '') {
      text = `// The face of src/${part}/: what other parts import from it.\n${BEGIN}\n${lines.join('\n')}${lines.length ? '\n' : ''}${END}\n`;
      if (!lines.length) text = `// The face of src/${part}/: no other part imports from it.\nexport {};\n`;
    } else if (lines.length) {
      text = `${hand.replace(/\n*$/, '\n')}\n${BEGIN}\n${lines.join('\n')}\n${END}\n`;
    } else {
      text = hand;
    }
    if (old === text) continue;
    modules.set(face, parseModule(graph.root, face, text));
  }
  return { root: graph.root, modules };
}

function stripBlock(text: string): string {
  const a = text.indexOf(BEGIN);
  if (a === -1) {
    // A face this script wrote with nothing to export.
    return /^\/\/ The face of src\/[^/]+\/: no other part imports from it\.\nexport \{\};\n$/.test(text) ? '' : text;
  }
  const b = text.indexOf(END, a);
  const rest = b === -1 ? '' : text.slice(b + END.length).replace(/^\n/, '');
  const head = text.slice(0, a).replace(/\n+$/, '\n');
  const hand = head + rest;
  return /^\/\/ The face of src\/[^/]+\/: what other parts import from it\.\n$/.test(hand) ? '' : hand;
}

/** Why a run-time import cannot go through the face, or undefined if it can. */
function runtimeReason(graph: Graph, s: Cross, rewrites: Cross[]): string | undefined {
  const part = partOf(s.to) as string;
  const face = faceOf(part);
  const rewritten = new Set(rewrites);
  const edges = (m: ModuleInfo): string[] =>
    m.imports
      .filter(loadsAtRuntime)
      .map((i) => (rewritten.has(i as Cross) && i.to ? faceOf(partOf(i.to) as string) : (i.to as string)));
  const fromFace = runtimeClosure(graph, face, edges);
  if (fromFace.has(s.from)) return `cycle: ${face} loads ${s.from} (directly or through what it loads)`;
  // What the importer loads with the other imports already through their faces, this one deep.
  const before = runtimeClosure(graph, s.from, (m) =>
    m.imports
      .filter(loadsAtRuntime)
      .map((i) => (i !== s && rewritten.has(i as Cross) && i.to ? faceOf(partOf(i.to) as string) : (i.to as string))),
  );
  const added = [...fromFace].filter((f) => !before.has(f));
  if (added.length > LOAD_LIMIT) return `the face of ${part} would load modules the importer does not load`;
  return undefined;
}

/**
 * The parts ordered so that as few imports as possible run from a lower part to a higher one
 * (Eades, Lin and Smyth's greedy ordering of the part graph, weighted by import statements):
 * parts that import nothing go first, parts nothing imports last.
 */
function rankParts(graph: Graph, parts: string[]): string[] {
  const w = new Map<string, Map<string, number>>();
  for (const m of graph.modules.values()) {
    for (const s of m.imports.filter(isCrossPart)) {
      const a = partOf(s.from) as string;
      const b = partOf(s.to) as string;
      const row = w.get(a) ?? new Map<string, number>();
      row.set(b, (row.get(b) ?? 0) + 1);
      w.set(a, row);
    }
  }
  const left = new Set(parts);
  const low: string[] = [];
  const high: string[] = [];
  const out = (p: string): number => [...(w.get(p) ?? [])].filter(([q]) => left.has(q)).reduce((n, [, c]) => n + c, 0);
  const into = (p: string): number => [...left].reduce((n, q) => n + (q !== p ? (w.get(q)?.get(p) ?? 0) : 0), 0);
  while (left.size) {
    let changed = true;
    while (changed) {
      changed = false;
      // A part importing none of the rest is a floor; one none of the rest imports is a roof.
      for (const p of [...left].sort()) {
        if (out(p) === 0) {
          low.push(p);
          left.delete(p);
          changed = true;
        } else if (into(p) === 0) {
          high.unshift(p);
          left.delete(p);
          changed = true;
        }
      }
    }
    if (!left.size) break;
    // In a cycle: the part most imported relative to what it imports goes lowest.
    const best = [...left].sort((a, b) => out(a) - into(a) - (out(b) - into(b)) || (a < b ? -1 : 1))[0] as string;
    low.push(best);
    left.delete(best);
  }
  return [...low, ...high];
}

/** The text as Biome formats it (long export lists wrapped), so a face compares equal to its file. */
function biomeFormatted(file: string, text: string): string {
  return execFileSync(join(root, 'node_modules/.bin/biome'), ['format', `--stdin-file-path=${file}`], {
    cwd: root,
    input: text,
    encoding: 'utf8',
  });
}

function faceSpecifier(from: string, part: string): string {
  const rel = relative(dirname(from), `src/${part}/index.js`);
  return rel.startsWith('.') ? rel : `./${rel}`;
}

// Writing, the passes repeat until one changes nothing: the imports a pass routes through faces
// change what the next pass's faces cost, so the result is what --check finds unchanged.
for (let pass = 0; pass < 5; pass++) if (!main() || mode !== 'write') break;

// The import graph of src/ as scripts/faces.ts and test/architecture/faces.test.ts read it: every
// import and re-export statement of every module, resolved to a file, with the names it brings in.
// A reader of its own, not the TypeScript compiler's API: the compiler FlowOps uses (tsgo) has no
// JavaScript API, and the statements are Biome-formatted, so their shapes are few and regular.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

export interface ImportName {
  /** The name as the target module exports it. */
  name: string;
  /** Written `type X` or in an `import type { }`: erased at run time. */
  typeOnly: boolean;
}

export interface ImportStatement {
  /** The importing file, relative to the repository root with / separators (src/cli/main.ts). */
  from: string;
  /** The resolved target file, same form, or undefined for a package import. */
  to: string | undefined;
  specifier: string;
  kind: 'import' | 'export' | 'side-effect' | 'dynamic';
  /** Named bindings; undefined for a namespace (`* as x`), default or `export *` form. */
  names: ImportName[] | undefined;
  /** The whole statement carries `type`, or every name does. */
  typeOnly: boolean;
  /** Where the specifier's quoted text starts in the file, for a rewrite. */
  specifierAt: number;
}

export interface ModuleInfo {
  file: string;
  text: string;
  imports: ImportStatement[];
  /** Names declared here and exported (export function/class/const/type/interface/enum, export { local }). */
  localExports: Set<string>;
  /** Local bindings imported from other modules: local name → where it comes from. */
  importedBindings: Map<string, { to: string | undefined; name: string }>;
}

export interface Graph {
  root: string;
  modules: Map<string, ModuleInfo>;
}

const STATEMENT =
  /^(import|export)(\s+type)?\s+(?:([\w$]+\s*,\s*)?(\{[^}]*\}|\*\s+as\s+[\w$]+|\*|[\w$]+)\s+from\s+)?'([^']+)';/gm;
const DYNAMIC = /\bimport\(\s*'([^']+)'\s*\)/g;
const LOCAL_EXPORT =
  /^export\s+(?:declare\s+)?(?:default\s+)?(?:async\s+)?(?:abstract\s+)?(?:function\*?|class|const|let|var|type|interface|enum|namespace)\s+([\w$]+)/gm;
const LOCAL_EXPORT_LIST = /^export\s+(type\s+)?\{([^}]*)\};/gm;

export function listSources(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir)) {
      const p = join(dir, entry);
      if (statSync(p).isDirectory()) walk(p);
      else if (p.endsWith('.ts') && !p.endsWith('.d.ts')) out.push(p);
    }
  };
  walk(join(root, 'src'));
  return out.sort();
}

export function readGraph(root: string): Graph {
  const modules = new Map<string, ModuleInfo>();
  for (const abs of listSources(root)) {
    const file = toRel(root, abs);
    modules.set(file, parseModule(root, file, readFileSync(abs, 'utf8')));
  }
  return { root, modules };
}

export function parseModule(root: string, file: string, text: string): ModuleInfo {
  const imports: ImportStatement[] = [];
  const importedBindings = new Map<string, { to: string | undefined; name: string }>();
  const code = blankComments(text);
  for (const m of code.matchAll(STATEMENT)) {
    const [whole, keyword, typeWord, defaultPart, bindings, specifier] = m;
    if (whole === undefined || specifier === undefined) continue;
    const to = resolveSpecifier(root, file, specifier);
    const specifierAt = (m.index ?? 0) + whole.lastIndexOf(`'${specifier}'`) + 1;
    const statementType = typeWord !== undefined;
    let names: ImportName[] | undefined;
    if (bindings?.startsWith('{')) {
      names = [];
      for (const part of bindings.slice(1, -1).split(',')) {
        const t = part.trim();
        if (!t) continue;
        const typeOnly = statementType || t.startsWith('type ');
        const [name, local] = t
          .replace(/^type\s+/, '')
          .split(/\s+as\s+/)
          .map((s) => s.trim());
        if (!name) continue;
        names.push({ name, typeOnly });
        if (keyword === 'import') importedBindings.set(local ?? name, { to, name });
      }
    }
    const kind = bindings === undefined ? 'side-effect' : keyword === 'import' ? 'import' : 'export';
    imports.push({
      from: file,
      to,
      specifier,
      kind,
      names: defaultPart ? undefined : names,
      typeOnly: statementType || (names !== undefined && names.length > 0 && names.every((n) => n.typeOnly)),
      specifierAt,
    });
  }
  for (const m of code.matchAll(DYNAMIC)) {
    const specifier = m[1];
    if (specifier === undefined) continue;
    imports.push({
      from: file,
      to: resolveSpecifier(root, file, specifier),
      specifier,
      kind: 'dynamic',
      names: undefined,
      typeOnly: false,
      specifierAt: (m.index ?? 0) + m[0].indexOf("'") + 1,
    });
  }
  const localExports = new Set<string>();
  for (const m of code.matchAll(LOCAL_EXPORT)) if (m[1]) localExports.add(m[1]);
  for (const m of code.matchAll(LOCAL_EXPORT_LIST)) {
    for (const part of (m[2] ?? '').split(',')) {
      const t = part.trim().replace(/^type\s+/, '');
      if (!t) continue;
      const [, exported] = t.split(/\s+as\s+/);
      localExports.add((exported ?? t).trim());
    }
  }
  return { file, text, imports, localExports, importedBindings };
}

/**
 * Comments replaced by spaces of the same length, so offsets stay and no comment reads as a
 * statement; strings are skipped whole, so a `//` or `/*` inside one is not taken for a comment.
 */
function blankComments(text: string): string {
  const out = text.split('');
  const blank = (from: number, to: number): void => {
    for (let k = from; k < to; k++) if (out[k] !== '\n') out[k] = ' ';
  };
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (c === '/' && text[i + 1] === '/') {
      const end = text.indexOf('\n', i);
      const stop = end === -1 ? text.length : end;
      blank(i, stop);
      i = stop;
    } else if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      const stop = end === -1 ? text.length : end + 2;
      blank(i, stop);
      i = stop;
    } else if (c === "'" || c === '"' || c === '`') {
      let j = i + 1;
      while (j < text.length && text[j] !== c) {
        if (text[j] === '\\') j++;
        else if (c !== '`' && text[j] === '\n') break;
        j++;
      }
      i = j + 1;
    } else {
      i++;
    }
  }
  return out.join('');
}

function resolveSpecifier(root: string, from: string, specifier: string): string | undefined {
  if (!specifier.startsWith('.')) return undefined;
  const base = resolve(root, dirname(from), specifier);
  for (const candidate of [base.replace(/\.js$/, '.ts'), base, join(base, 'index.ts')]) {
    if (candidate.endsWith('.ts') && existsSync(candidate)) return toRel(root, candidate);
  }
  return toRel(root, base);
}

export function toRel(root: string, abs: string): string {
  return relative(root, abs).split(sep).join('/');
}

/** The part a file of src/ belongs to: its first folder (src/cli/up/worker.ts → cli); none for src/x.ts. */
export function partOf(file: string): string | undefined {
  const m = /^src\/([^/]+)\/./.exec(file);
  return m?.[1];
}

export const faceOf = (part: string): string => `src/${part}/index.ts`;

/** An import from one part into another (not a package, not a file directly under src/). */
export function isCrossPart(s: ImportStatement): s is ImportStatement & { to: string } {
  if (!s.to) return false;
  const a = partOf(s.from);
  const b = partOf(s.to);
  return a !== undefined && b !== undefined && a !== b;
}

/** Where an exported name of a module is declared, following re-exports: `file#name`. */
export function originOf(graph: Graph, file: string, name: string, seen = new Set<string>()): string | undefined {
  const key = `${file}#${name}`;
  if (seen.has(key)) return undefined;
  seen.add(key);
  const mod = graph.modules.get(file);
  if (!mod) return undefined;
  for (const s of mod.imports) {
    if (s.kind !== 'export' || !s.to) continue;
    if (s.names) {
      for (const n of s.names) {
        const exported = exportedNameIn(mod.text, s, n.name);
        if (exported === name) return originOf(graph, s.to, n.name, seen);
      }
    }
  }
  if (mod.localExports.has(name)) {
    const bound = mod.importedBindings.get(name);
    if (bound?.to) return originOf(graph, bound.to, bound.name, seen) ?? key;
    return key;
  }
  for (const s of mod.imports) {
    if (s.kind === 'export' && s.names === undefined && s.to) {
      const o = originOf(graph, s.to, name, seen);
      if (o) return o;
    }
  }
  return undefined;
}

/** `export { a as b } from`: the name it is exported under. */
function exportedNameIn(text: string, s: ImportStatement, name: string): string {
  const start = text.lastIndexOf('export', s.specifierAt);
  const body = text.slice(start, s.specifierAt);
  const m = new RegExp(`(?:^|[\\s{,])(?:type\\s+)?${escapeRegExp(name)}\\s+as\\s+([\\w$]+)`).exec(body);
  return m?.[1] ?? name;
}

const escapeRegExp = (s: string): string => s.replace(/[$]/g, '\\$');

/** The modules a module loads at run time, transitively (static value imports and re-exports only). */
export function runtimeClosure(graph: Graph, start: string, edges: (m: ModuleInfo) => string[]): Set<string> {
  const seen = new Set<string>();
  const stack = [start];
  while (stack.length) {
    const f = stack.pop();
    if (f === undefined || seen.has(f)) continue;
    seen.add(f);
    const mod = graph.modules.get(f);
    if (mod) stack.push(...edges(mod));
  }
  return seen;
}

/** A static import that runs its target at load time (not type-only, not dynamic). */
export const loadsAtRuntime = (s: ImportStatement): boolean =>
  s.to !== undefined && s.kind !== 'dynamic' && !s.typeOnly;

export interface Allowlist {
  /** The parts from the lowest (imports no other part) to the highest (cli); an import runs down. */
  layers: string[];
  /** Cross-part imports kept as they are, with why: `from -> to`. */
  kept: Array<{ from: string; to: string; reason: string }>;
}

export const ALLOWLIST_FILE = 'scripts/faces/allowlist.json';

// Compiling, caching and the text/value entry points. Errors leave here as TemplateParseError or
// TemplateRenderError carrying the caller's template name and a line/column.

import { LRUCache } from 'lru-cache';
import type { Node } from './ast.js';
import { asParseError, LineIndex, PositionedError, TemplateRenderError, type SourcePosition } from './errors.js';
import { Executor, type Emitter } from './evaluate.js';
import { buildTable, type FuncTable, type UserFunction } from './functions.js';
import { parse } from './parser.js';

export interface TemplateOptions {
  /** Shown in every error, e.g. "steps[0].manifests". */
  name?: string;
  /** Extra functions; they override builtins of the same name (except `and`/`or`). */
  functions?: Record<string, UserFunction>;
}

export interface CompiledTemplate {
  readonly source: string;
  readonly name: string;
  /** Renders to text. Throws TemplateRenderError. */
  render(data: unknown): string;
  /**
   * If the template is a single action (whitespace around it allowed), its raw value — number,
   * boolean, object — instead of text; otherwise the rendered text.
   */
  value(data: unknown): unknown;
}

export interface ExecHooks {
  manifest: boolean;
  emit?: Emitter;
}

export const DEFAULT_NAME = 'template';

export class Template implements CompiledTemplate {
  // Built on the first error only: most templates never need to map an offset to a line.
  private lineIndex: LineIndex | undefined;

  constructor(
    readonly source: string,
    readonly name: string,
    private readonly nodes: Node[],
    private readonly funcs: FuncTable,
  ) {}

  private get lines(): LineIndex {
    this.lineIndex ??= new LineIndex(this.source);
    return this.lineIndex;
  }

  render(data: unknown): string {
    return this.execute(data, { manifest: false });
  }

  value(data: unknown): unknown {
    const actions = this.nodes.filter((n) => n.kind !== 'text');
    const onlyWhitespace = this.nodes.every((n) => n.kind !== 'text' || n.text.trim() === '');
    const single = actions[0];
    if (actions.length !== 1 || !onlyWhitespace || single?.kind !== 'action' || single.pipe.decls.length > 0) {
      return this.render(data);
    }
    const v = this.guard(() => new Executor(data, { funcs: this.funcs, manifest: false }).valueOf(single));
    return cloneData(v);
  }

  /** Used by renderManifest, which needs to see each action's value as it is produced. */
  execute(data: unknown, hooks: ExecHooks): string {
    return this.guard(() => new Executor(data, { funcs: this.funcs, ...hooks }).run(this.nodes));
  }

  position(offset: number): SourcePosition {
    return this.lines.position(offset);
  }

  renderError(offset: number, detail: string, cause?: unknown): TemplateRenderError {
    return new TemplateRenderError(this.name, this.lines.position(offset), detail, { cause });
  }

  private guard<T>(run: () => T): T {
    try {
      return run();
    } catch (err) {
      if (err instanceof TemplateRenderError) throw err;
      if (err instanceof PositionedError) throw this.renderError(err.offset, err.message, err.cause ?? err);
      // Anything else (a stack overflow on absurd nesting, a caller function's odd throw) still
      // leaves as a TemplateRenderError so callers need one catch.
      throw this.renderError(0, err instanceof Error ? err.message : String(err), err);
    }
  }
}

/** Values handed back to callers must not alias the data they passed in. */
function cloneData(v: unknown): unknown {
  if (typeof v !== 'object' || v === null) return v;
  try {
    return structuredClone(v);
  } catch {
    return v;
  }
}

export function parseTemplate(src: string, opts: TemplateOptions = {}): CompiledTemplate {
  return compileTemplate(src, opts);
}

export function compileTemplate(src: string, opts: TemplateOptions = {}): Template {
  const name = opts.name ?? DEFAULT_NAME;
  const funcs = buildTable(opts.functions);
  try {
    return new Template(
      src,
      name,
      parse(src, (fn) => funcs.has(fn)),
      funcs,
    );
  } catch (err) {
    throw asParseError(err, src, name);
  }
}

// Flow fields are rendered on every reconcile, so compiled templates are cached. Entries are keyed
// by name as well as source because the name appears in error messages; caller-supplied function
// tables get their own cache (by object identity) so that two callers cannot see each other's.
const CACHE_LIMIT = 1000;
const newCache = (): LRUCache<string, Template> => new LRUCache<string, Template>({ max: CACHE_LIMIT });
const sharedCache = newCache();
const perFunctions = new WeakMap<object, LRUCache<string, Template>>();

export function compileCached(src: string, opts: TemplateOptions = {}): Template {
  let cache = sharedCache;
  if (opts.functions) {
    cache = perFunctions.get(opts.functions) ?? newCache();
    perFunctions.set(opts.functions, cache);
  }
  const key = `${opts.name ?? DEFAULT_NAME}\u0000${src}`;
  const hit = cache.get(key);
  if (hit) return hit;
  const tpl = compileTemplate(src, opts);
  cache.set(key, tpl);
  return tpl;
}

export function render(src: string, data: unknown, opts?: TemplateOptions): string {
  return compileCached(src, opts).render(data);
}

export function renderValue(src: string, data: unknown, opts?: TemplateOptions): unknown {
  if (!isTemplated(src)) return src;
  return compileCached(src, opts).value(data);
}

/** Cheap pre-check; anything with `{{` is handed to the parser, which reports malformed actions. */
export function isTemplated(s: string): boolean {
  return s.includes('{{');
}

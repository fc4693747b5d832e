// Δ-controller pipeline expressions checked against the schemas of what they read: every
// `$.field.path` of a stage (a JSONPath into the document the stage sees) must name a field of that
// document's type. The document is the source object (one source), or `{<Kind>: object}` after a
// `@join`; `@select` keeps it, `@unwind` turns the unwound list into its element, a map-form
// `@project` makes one of exactly its keys, and `@gather` (or a list-form `@project`) one whose type
// is not followed (nothing is claimed past it). A view or a
// kind without a schema is of unknown type. A JSONPath that finds nothing gives null at run time,
// never an error, so a misspelled field is a silent bug: only an unknown field of a known, closed
// object is reported, with the nearest known name.

import { formatPath, type FieldPath } from '../api/problem.js';
import { parseJsonPathCached, type JsonPath } from '../jsonpath/index.js';
import type { TypeProblem } from './check-flow.js';
import { isJson } from './schema.js';
import { didYouMean } from './suggest.js';
import {
  BOOLEAN,
  INTEGER,
  NUMBER,
  present,
  record,
  STRING,
  UNKNOWN,
  withFields,
  type Field,
  type Ty,
} from './types.js';

/** One source of a pipeline: its kind (the join's key) and the type of its objects. */
export interface PipelineSource {
  kind: string;
  ty: Ty;
}

/** Expressions nested deeper than this (a generated or hostile pipeline) are not walked further. */
const MAX_EXPRESSION_DEPTH = 64;
const MAX_STAGES = 256;

interface Walk {
  out: TypeProblem[];
  doc: Ty;
}

/** The `$...` path a string stands for, or undefined (`$$` is an iterator's element: its type is not followed). */
function pathOf(text: string): JsonPath | undefined {
  if (!text.startsWith('$') || text.startsWith('$$')) return undefined;
  try {
    return parseJsonPathCached(text === '$.' ? '$' : text);
  } catch {
    // A malformed path is the pipeline's own parse to report.
    return undefined;
  }
}

interface Resolved {
  ty: Ty;
  problem?: { offset: number; message: string };
}

/** Follows a path's plain steps through `root`; stops (unknown) at anything a schema cannot decide. */
function resolvePath(path: JsonPath, root: Ty): Resolved {
  let ty = root;
  let names: string[] = [];
  let cursor = 1;
  for (const step of path.steps) {
    if (ty.kind === 'unknown') return { ty };
    if (step.t === 'child' && ty.kind === 'object') {
      const at = path.source.indexOf(step.name, cursor);
      cursor = at < 0 ? cursor : at + step.name.length;
      const f: Field | undefined = ty.field(step.name) ?? (ty.rest ? present(ty.rest) : undefined);
      if (!f) {
        const field = [...names, step.name].join('.');
        const message = `unknown field "${field}" in ${ty.what}${didYouMean(step.name, ty.fieldNames())}`;
        return { ty: UNKNOWN, problem: { offset: Math.max(at, 0), message } };
      }
      // Into a source of a join: field names are that object's own from here on.
      names = f.ty.kind === 'object' && f.ty.what !== ty.what ? [] : [...names, step.name];
      ty = f.ty;
      continue;
    }
    if ((step.t === 'index' || step.t === 'slice' || step.t === 'wild') && ty.kind === 'array') {
      ty = ty.items;
      continue;
    }
    return { ty: UNKNOWN };
  }
  return { ty };
}

function checkString(text: string, at: FieldPath, w: Walk): void {
  const path = pathOf(text);
  const problem = path && resolvePath(path, w.doc).problem;
  if (!problem) return;
  // Inside the string: one line, the column of the field that is not there.
  w.out.push({ path: at, inner: { line: 1, column: problem.offset + 1 }, severity: 'error', message: problem.message });
}

/** Every `$` path read by an expression; a map's `$`-keys are setters (they write, not read). */
function walkExpression(raw: unknown, at: FieldPath, w: Walk, depth = 0): void {
  if (depth > MAX_EXPRESSION_DEPTH) return;
  if (typeof raw === 'string') return checkString(raw, at, w);
  if (Array.isArray(raw)) {
    for (const [i, x] of raw.entries()) walkExpression(x, [...at, i], w, depth + 1);
  } else if (isJson(raw)) for (const [k, v] of Object.entries(raw)) walkExpression(v, [...at, k], w, depth + 1);
}

/** The problems of one expression evaluated over a document of type `doc` (a pipeline step's: the resource). */
export function checkExpression(raw: unknown, doc: Ty, at: FieldPath): TypeProblem[] {
  const w: Walk = { out: [], doc };
  walkExpression(raw, at, w);
  return w.out;
}

/** The document after `@unwind path`: the list at `path` becomes its element; unknown if it cannot be followed. */
function unwound(doc: Ty, path: JsonPath | undefined): Ty {
  if (!path || path.steps.length === 0 || !path.steps.every((s) => s.t === 'child')) return UNKNOWN;
  const names = path.steps.map((s) => (s.t === 'child' ? s.name : ''));
  const replace = (ty: Ty, i: number): Ty => {
    const name = names[i];
    if (name === undefined) return ty.kind === 'array' ? ty.items : UNKNOWN;
    if (ty.kind !== 'object') return UNKNOWN;
    const f = ty.field(name) ?? (ty.rest ? present(ty.rest) : undefined);
    if (!f) return UNKNOWN;
    const inner = replace(f.ty, i + 1);
    return withFields(ty, (n) => (n === name ? { ty: inner, mayBeAbsent: f.mayBeAbsent } : ty.field(n)));
  };
  return replace(doc, 0);
}

/**
 * The document a map-form `@project` makes: exactly its keys (a closed object), each of the type of
 * what it reads. A `$`-setter or an `@`-operator key, or the list form (fragments deep-merged,
 * `"$."` copying the input) make a document whose type is not followed.
 */
function projected(arg: unknown, doc: Ty, what: string, depth = 0): Ty {
  if (typeof arg === 'string') {
    const path = pathOf(arg);
    return path ? resolvePath(path, doc).ty : arg.startsWith('$') ? UNKNOWN : STRING;
  }
  if (typeof arg === 'boolean') return BOOLEAN;
  if (typeof arg === 'number') return Number.isInteger(arg) ? INTEGER : NUMBER;
  if (!isJson(arg) || depth > MAX_EXPRESSION_DEPTH) return UNKNOWN;
  const keys = Object.keys(arg);
  if (keys.some((k) => k.startsWith('$') || k.startsWith('@'))) return UNKNOWN;
  return record(what, Object.fromEntries(keys.map((k) => [k, present(projected(arg[k], doc, what, depth + 1))])));
}

function stageOf(raw: unknown): [string, unknown] | undefined {
  if (!isJson(raw)) return undefined;
  const keys = Object.keys(raw);
  const op = keys[0];
  return keys.length === 1 && op !== undefined ? [op, raw[op]] : undefined;
}

/**
 * The problems of one pipeline (a stage or a list of stages) whose sources are `sources`, at `at`
 * (the pipeline's field path). A shape the pipeline's own parser refuses is left to it.
 */
export function checkPipeline(pipeline: unknown, sources: readonly PipelineSource[], at: FieldPath): TypeProblem[] {
  const list = Array.isArray(pipeline) ? pipeline : pipeline === undefined || pipeline === null ? [] : [pipeline];
  const joined = record('the joined sources', Object.fromEntries(sources.map((s) => [s.kind, present(s.ty)])));
  const single = sources.length === 1 ? sources[0]?.ty : undefined;
  const w: Walk = { out: [], doc: single ?? UNKNOWN };
  list.slice(0, MAX_STAGES).forEach((raw, i) => {
    const stage = stageOf(raw);
    if (!stage) return;
    const [op, arg] = stage;
    const here: FieldPath = [...(Array.isArray(pipeline) ? [...at, i] : at), op];
    switch (op) {
      case '@join':
        w.doc = joined;
        walkExpression(arg, here, w);
        break;
      case '@select':
        walkExpression(arg, here, w);
        break;
      case '@unwind':
      case '@demux':
        walkExpression(arg, here, w);
        w.doc = typeof arg === 'string' ? unwound(w.doc, pathOf(arg)) : UNKNOWN;
        break;
      case '@project': {
        walkExpression(arg, here, w);
        const out = projected(arg, w.doc, `the output of ${formatPath(here.slice(at.length - 1, -1))}`);
        w.doc = out.kind === 'object' ? out : UNKNOWN;
        break;
      }
      default:
        // @gather/@mux read the document, then make a new one.
        walkExpression(arg, here, w);
        w.doc = UNKNOWN;
    }
  });
  return w.out;
}

// Injection-safe rendering of YAML manifests.
//
// Rendering text and then parsing it lets a resource field rewrite the manifest: an engine of
// "postgres\n    privileged: true" becomes a new key. So values never pass through the YAML
// parser. Each action writes an opaque placeholder; the text (now only the author's structure) is
// parsed; then placeholders inside scalars are swapped for the real values:
//   - a plain scalar that is exactly one placeholder takes the typed value (3 stays a number,
//     true a boolean, a string stays a string even if it reads "3" or "null");
//   - a placeholder inside a longer or quoted scalar, or in a key, is replaced by the value's text.
// Exceptions, where the author asked for structure:
//   - a pipeline ending in toYaml/toJson (optionally followed by indent/nindent) is inserted raw.
//     That is safe because those outputs are produced by serialisers that quote every string, and
//     under renderManifest toYaml never emits block scalars (whose end depends on indentation).
//     One author mistake could still let a value escape: splicing the output INTO a scalar, as in
//     `{a: "{{ toJson .x }}"}`, where the JSON's quotes close the author's. So after parsing, a raw
//     region whose edge falls strictly inside a scalar's source is rejected.
//   - a pipeline ending in indent/nindent over anything else keeps its newline and indentation in
//     the text but puts a placeholder where the content goes, so the common
//     `script: |` + `{{- .x | nindent 4 }}` pattern works and cannot escape the block.
//   - `quote`/`squote` with one argument yield that argument's text (the quotes were YAML syntax).
// To build structure from a string on purpose: `{{ .x | fromYaml | toYaml | nindent 2 }}`.
//
// Parsing dominates the cost of a render, and without raw regions the text only carries the
// template's structure, so such renders reuse a parse cached by that text (manifest-plan.ts).

import { randomBytes } from 'node:crypto';
import { isMap as isYamlMap, isPair, isScalar, isSeq, parseAllDocuments, type Document, type Scalar } from 'yaml';
import type { Expr, Pipeline } from './ast.js';
import { strval, text } from './convert.js';
import type { ActionNode, FinalCall } from './evaluate.js';
import { LRUCache } from 'lru-cache';
import { instantiate, PlanBuilder, type Plan } from './manifest-plan.js';
import { compileCached, type TemplateOptions } from './template.js';
import { formatValue, isNil } from './values.js';

interface Slot {
  /** The typed value a whole plain scalar takes. */
  value: unknown;
  /** The text used inside longer strings and keys. */
  text: string;
  node: ActionNode;
}

// YAML 1.1 because that is what Kubernetes' own decoder speaks: `mode: 0644` is octal there.
// Plans are cached by text alone because these options never vary; a per-call option would have
// to become part of the plan cache key.
const PARSE_OPTIONS = { version: '1.1', uniqueKeys: true } as const;
const TO_JS_OPTIONS = { maxAliasCount: 100 } as const;

// Templates that range over data can render unboundedly many shapes; bound both the count and the
// text held (plans grow with their text). Larger texts are parsed every time.
const PLAN_ENTRIES = 512;
const PLAN_CHARS = 8 * 1024 * 1024;
const PLAN_MAX_TEXT = 256 * 1024;
const UNPLANNABLE = 'unplannable';
// Bounded by entries and by the total length of the texts (a plan's size follows its text's).
const plans = new LRUCache<string, Plan | typeof UNPLANNABLE>({
  max: PLAN_ENTRIES,
  maxSize: PLAN_CHARS,
  sizeCalculation: (_plan, text) => Math.max(1, text.length),
});

/** For tests: forget every cached plan. */
export function clearManifestPlanCache(): void {
  plans.clear();
}

/** For tests: how many rendered shapes are cached, and how many of those parse every time anyway. */
export function manifestPlanCacheStats(): { entries: number; unplannable: number } {
  let entries = 0;
  let unplannable = 0;
  for (const plan of plans.values()) {
    entries++;
    if (plan === UNPLANNABLE) unplannable++;
  }
  return { entries, unplannable };
}

const SERIALISERS = new Set(['toYaml', 'toJson']);
const INDENTERS = new Set(['indent', 'nindent']);

function headName(e: Expr | undefined): string | null {
  if (!e) return null;
  if (e.kind === 'ident') return e.name;
  if (e.kind === 'pipe') return producer(e.pipe);
  return null;
}

/** The function that produced an action's value once trailing indent/nindent are looked through. */
function producer(pipe: Pipeline): string | null {
  for (let i = pipe.cmds.length - 1; i >= 0; i--) {
    const args = pipe.cmds[i]?.args ?? [];
    const name = headName(args[0]);
    if (name === null || !INDENTERS.has(name)) return name;
    // `nindent 4 (toYaml .x)`: the content is the indenter's own last argument.
    if (args.length === 3) return headName(args[2]);
  }
  return null;
}

function typedValue(v: unknown): unknown {
  if (isNil(v)) return null;
  if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') return v;
  // Collections print as Go does ([a b], map[k:v]); structure only comes through toYaml/toJson.
  return formatValue(v);
}

let noncePool = Buffer.alloc(0);
let nonceAt = 0;

/** Unguessable per render, so text produced by toYaml/toJson from resource data cannot name a slot. */
function randomNonce(): string {
  // Drawn from a pool of CSPRNG bytes, never reused: one getrandom call per 512 renders, not per render.
  if (nonceAt + 8 > noncePool.length) {
    noncePool = randomBytes(4096);
    nonceAt = 0;
  }
  nonceAt += 8;
  return noncePool.toString('hex', nonceAt - 8, nonceAt);
}

export function renderManifest(src: string, data: unknown, opts?: TemplateOptions): unknown[] {
  const tpl = compileCached(src, opts);
  const nonce = randomNonce();
  const slots: Slot[] = [];
  const placeholder = (i: number): string => `__FLOWOPS_${nonce}_${i}__`;
  const pattern = new RegExp(`__FLOWOPS_${nonce}_(\\d+)__`, 'g');

  const raw: { start: number; end: number; node: ActionNode; fn: string }[] = [];

  const emit = (value: unknown, node: ActionNode, call: FinalCall | null, offset: number): string => {
    const printed = formatValue(value, '');
    const made = producer(node.pipe);
    if (made !== null && SERIALISERS.has(made)) {
      raw.push({ start: offset, end: offset + printed.length, node, fn: made });
      return printed;
    }
    const id = slots.length;
    if (call && INDENTERS.has(call.name) && call.args.length === 2) {
      const content = text(call.args[1]);
      slots.push({ value: content, text: content, node });
      return (call.name === 'nindent' ? '\n' : '') + ' '.repeat(Number(call.args[0])) + placeholder(id);
    }
    if (call && (call.name === 'quote' || call.name === 'squote') && call.args.length === 1 && !isNil(call.args[0])) {
      const inner = strval(call.args[0]);
      slots.push({ value: inner, text: printed, node });
      return placeholder(id);
    }
    slots.push({ value: typedValue(value), text: printed, node });
    return placeholder(id);
  };

  const rendered = tpl.execute(data, { manifest: true, emit });
  const duplicate = (key: string): never => {
    throw tpl.renderError(0, `rendered YAML has duplicate key ${JSON.stringify(key)}`);
  };

  // Without toYaml/toJson output the text holds no value, only the template's structure, so the
  // parse can be shared by every render that produces the same text up to the nonce. A NUL in the
  // text itself would make that key ambiguous.
  if (raw.length === 0 && rendered.length <= PLAN_MAX_TEXT && !rendered.includes('\u0000')) {
    const marker = `__FLOWOPS_${nonce}_`;
    const key = rendered.replaceAll(marker, '\u0000');
    let plan = plans.get(key);
    if (plan === undefined) {
      plan = makePlan(rendered, marker);
      plans.set(key, plan);
    }
    if (plan !== UNPLANNABLE) {
      const out = instantiate(plan, slots, duplicate);
      if (out) return out;
    }
  }

  const slotAt = (i: string): Slot => slots[Number(i)] as Slot;
  const substitute = (s: string): string => s.replace(pattern, (_m, i: string) => slotAt(i).text);
  const whole = (s: string): Slot | null => {
    const m = new RegExp(`^__FLOWOPS_${nonce}_(\\d+)__$`).exec(s);
    return m ? slotAt(m[1] as string) : null;
  };
  const describe = (s: string): string =>
    s.replace(pattern, (_m, i: string) => {
      const pos = tpl.position(slotAt(i).node.pos);
      return `<value of the action at line ${pos.line}, column ${pos.column}>`;
    });

  const checkSplice = (scalar: Scalar): void => {
    if (!scalar.range) return;
    const [s, e] = scalar.range;
    const inside = (at: number): boolean => s < at && at < e;
    const bad = raw.find((r) => inside(r.start) || inside(r.end));
    if (bad) {
      throw tpl.renderError(
        bad.node.pos,
        `the output of ${bad.fn} is spliced into a YAML scalar; give it a value position of its own, e.g. "key: {{ toJson .x }}" or "{{- toYaml .x | nindent 4 }}"`,
      );
    }
  };

  const visit = (node: unknown): void => {
    if (isScalar(node)) {
      checkSplice(node);
      if (typeof node.value !== 'string' || !node.value.includes('__FLOWOPS_')) return;
      const slot = node.type === 'PLAIN' && !node.tag ? whole(node.value) : null;
      node.value = slot ? slot.value : substitute(node.value);
    } else if (isYamlMap(node)) {
      const seen = new Set<string>();
      for (const pair of node.items) {
        if (isScalar(pair.key)) {
          checkSplice(pair.key);
          if (typeof pair.key.value === 'string') pair.key.value = substitute(pair.key.value);
        } else {
          visit(pair.key);
        }
        const key = isScalar(pair.key) ? String(pair.key.value) : null;
        if (key !== null) {
          if (seen.has(key)) duplicate(key);
          seen.add(key);
        }
        visit(pair.value);
      }
    } else if (isSeq(node)) {
      node.items.forEach(visit);
    } else if (isPair(node)) {
      visit(node.key);
      visit(node.value);
    }
  };

  const docs: readonly Document.Parsed[] = parseAllDocuments(rendered, PARSE_OPTIONS);
  const out: unknown[] = [];
  for (const doc of docs) {
    const err = doc.errors[0];
    if (err) {
      const where = err.linePos?.[0];
      const at = where ? ` at line ${where.line}, column ${where.col} of the rendered output` : '';
      throw tpl.renderError(0, `rendered YAML is invalid${at}: ${describe(err.message)}`, err);
    }
    if (doc.contents === null) continue;
    visit(doc.contents);
    const value = doc.toJS(TO_JS_OPTIONS) as unknown;
    if (value !== null && value !== undefined) out.push(value);
  }
  return out;
}

/**
 * UNPLANNABLE when the text is invalid YAML or a shape plans do not reproduce (see
 * manifest-plan.ts): renderManifest's own path then handles that text, and reports its errors.
 */
function makePlan(rendered: string, marker: string): Plan | typeof UNPLANNABLE {
  const builder = new PlanBuilder(marker);
  try {
    for (const doc of parseAllDocuments(rendered, PARSE_OPTIONS) as readonly Document.Parsed[]) {
      if (doc.errors.length > 0) return UNPLANNABLE;
      if (doc.contents !== null) builder.addDocument(doc, (d) => d.toJS(TO_JS_OPTIONS) as unknown);
    }
  } catch {
    // Unplannable, or anything unforeseen (a stack overflow on absurd nesting): not worth a plan.
    return UNPLANNABLE;
  }
  return builder.finish();
}

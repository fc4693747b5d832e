import fastJsonPatch from 'fast-json-patch';
import { send, type Answer, type Target } from './http-target.js';
import { normalise, normaliseHeaders, omit, pick, type Json } from './normalise.js';
import type { Scenario, Step } from './scenario.js';

const USER_AGENT = 'fidelity/v0.0.0 (linux/amd64) flowops';
const STEP_TIMEOUT_MS = 30_000;

/** What one step's comparable answer looked like on one server. */
interface Seen {
  status: number;
  headers: Record<string, string>;
  body: Json;
}

export type Outcome =
  | { kind: 'identical' }
  | { kind: 'different'; step: number; request: string; diff: Difference[] }
  | { kind: 'only-one-side'; step: number; request: string; missing: Target['name']; error: string };

export interface Difference {
  op: string;
  path: string;
  real?: Json;
  embedded?: Json;
}

export interface ScenarioResult {
  name: string;
  outcome: Outcome;
}

/** Per-server state of a running scenario: its namespace and captured values. */
interface Side {
  target: Target;
  vars: Map<string, string>;
}

/** Runs one scenario against both servers step by step, stopping at the first step that differs. */
export async function runScenario(
  scenario: Scenario,
  index: number,
  real: Target,
  embedded: Target,
): Promise<ScenarioResult> {
  const ns = `fid-${index}`;
  const sides: Side[] = [real, embedded].map((target) => ({ target, vars: new Map([['ns', ns]]) }));
  if (!scenario.noNamespace) {
    const nsStep: Step = {
      method: 'POST',
      path: '/api/v1/namespaces',
      body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } },
    };
    for (const side of sides) {
      const a = await send(side.target, request(nsStep, side));
      if (a.status !== 201)
        throw new Error(`${side.target.name}: creating namespace ${ns} answered ${a.status}: ${a.body}`);
    }
  }
  for (const [i, step] of scenario.steps.entries()) {
    const label = `${step.method} ${step.path}`;
    const answers: (Answer | Error)[] = await Promise.all(
      sides.map((side) =>
        send(side.target, request(step, side)).catch((e: unknown) => (e instanceof Error ? e : new Error(String(e)))),
      ),
    );
    const [realAnswer, embeddedAnswer] = answers as [Answer | Error, Answer | Error];
    if (realAnswer instanceof Error || embeddedAnswer instanceof Error) {
      const missing = realAnswer instanceof Error ? 'real' : 'embedded';
      const error = (realAnswer instanceof Error ? realAnswer : (embeddedAnswer as Error)).message;
      return { name: scenario.name, outcome: { kind: 'only-one-side', step: i, request: label, missing, error } };
    }
    for (const [s, side] of sides.entries()) captureVars(step, s === 0 ? realAnswer : embeddedAnswer, side);
    const compare = step.compare ?? 'full';
    if (compare === 'none') continue;
    const a = comparable(step, realAnswer, real);
    const b = comparable(step, embeddedAnswer, embedded);
    const diff = compare === 'status' ? statusDiff(a, b) : fullDiff(a, b);
    if (diff.length) return { name: scenario.name, outcome: { kind: 'different', step: i, request: label, diff } };
  }
  return { name: scenario.name, outcome: { kind: 'identical' } };
}

function substitute(text: string, side: Side): string {
  return text
    .replace(/\{ns\}/g, side.vars.get('ns')!)
    .replace(/\$\{(\w+)\}/g, (all, name: string) => side.vars.get(name) ?? all);
}

function request(step: Step, side: Side): Parameters<typeof send>[1] {
  const headers: Record<string, string> = { 'User-Agent': USER_AGENT, Accept: 'application/json', ...step.headers };
  let body: string | undefined;
  if (step.body !== undefined) {
    body = substitute(typeof step.body === 'string' ? step.body : JSON.stringify(step.body), side);
    headers['Content-Type'] ??= 'application/json';
  }
  return {
    method: step.method,
    path: substitute(step.path, side),
    headers,
    ...(body === undefined ? {} : { body }),
    ...(step.watchEvents === undefined ? {} : { watchEvents: step.watchEvents }),
    timeoutMs: STEP_TIMEOUT_MS,
  };
}

function parse(answer: Answer, watch: boolean): Json {
  try {
    if (watch)
      return answer.body
        .split('\n')
        .filter((l) => l.trim())
        .map((l) => JSON.parse(l) as Json);
    return answer.body === '' ? '' : (JSON.parse(answer.body) as Json);
  } catch {
    return answer.body;
  }
}

function captureVars(step: Step, answer: Answer, side: Side): void {
  if (!step.capture) return;
  const body = parse(answer, step.watchEvents !== undefined);
  for (const [name, path] of Object.entries(step.capture)) {
    const v = pick(body, path);
    if (v !== undefined && v !== null) side.vars.set(name, typeof v === 'string' ? v : JSON.stringify(v));
  }
}

function comparable(step: Step, answer: Answer, target: Target): Seen {
  let body = normalise(parse(answer, step.watchEvents !== undefined), { address: new URL(target.url).host });
  // A refusal is compared whole: `select` picks from the object a write answers with.
  if (step.select && !isStatus(body)) body = pick(body, step.select) ?? null;
  for (const path of step.ignore ?? []) omit(body, path);
  if (step.shape) body = shapeOf(body, 2);
  return { status: answer.status, headers: normaliseHeaders(answer.headers), body };
}

const isStatus = (body: Json): boolean =>
  body !== null && typeof body === 'object' && !Array.isArray(body) && body.kind === 'Status';

/** Keys and value types only, `depth` levels deep. */
function shapeOf(value: Json, depth: number): Json {
  if (value === null || typeof value !== 'object') return value === null ? 'null' : typeof value;
  if (Array.isArray(value)) return depth > 0 && value.length ? [shapeOf(value[0]!, depth - 1)] : 'array';
  if (depth === 0) return 'object';
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((k) => [k, shapeOf(value[k]!, depth - 1)]),
  );
}

function statusDiff(a: Seen, b: Seen): Difference[] {
  return a.status === b.status ? [] : [{ op: 'replace', path: '(status)', real: a.status, embedded: b.status }];
}

function fullDiff(a: Seen, b: Seen): Difference[] {
  const ops = fastJsonPatch.compare(
    { status: a.status, headers: a.headers, body: a.body } as object,
    { status: b.status, headers: b.headers, body: b.body } as object,
  );
  return ops.map((op) => {
    const real = atPointer({ status: a.status, headers: a.headers, body: a.body }, op.path);
    const d: Difference = { op: op.op, path: op.path };
    if (real !== undefined) d.real = real;
    if ('value' in op) d.embedded = op.value as Json;
    return d;
  });
}

function atPointer(value: Json, pointer: string): Json | undefined {
  let cur: Json | undefined = value;
  for (const raw of pointer.split('/').slice(1)) {
    const part = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = Array.isArray(cur) ? cur[Number(part)] : cur[part];
  }
  return cur;
}

/** A short text of a difference list for a terminal: at most `max` entries, long values cut. */
export function describeDiff(diff: Difference[], max = 6, width = 160): string {
  const cut = (v: Json | undefined): string => {
    const s = JSON.stringify(v);
    return s === undefined ? '∅' : s.length > width ? `${s.slice(0, width - 3)}...` : s;
  };
  const lines = diff
    .slice(0, max)
    .map((d) => `    ${d.op} ${d.path}: real ${cut(d.real)} / embedded ${cut(d.embedded)}`);
  if (diff.length > max) lines.push(`    … ${diff.length - max} more`);
  return lines.join('\n');
}

export interface Summary {
  total: number;
  identical: number;
  different: number;
  onlyOneSide: number;
}

export function summarise(results: ScenarioResult[]): Summary {
  const count = (k: Outcome['kind']): number => results.filter((r) => r.outcome.kind === k).length;
  return {
    total: results.length,
    identical: count('identical'),
    different: count('different'),
    onlyOneSide: count('only-one-side'),
  };
}

/** The one closing line of bench/fidelity.ts. */
export function summaryLine(s: Summary): string {
  const pct = s.total ? ((100 * s.identical) / s.total).toFixed(1) : '0.0';
  return `fidelity: ${s.total} scenarios, ${pct}% identical, ${s.different} different, ${s.onlyOneSide} only-one-side`;
}

// Recursive-descent parser for the JSONPath dialect in ast.ts. Parse errors are JsonPathSyntaxErrors;
// callers wrap them in their own errors naming where the path came from.
import { LRUCache } from 'lru-cache';
import type { ChildStep, CompareOp, FilterExpr, IndexStep, JsonPath, Step } from './ast.js';
import { JsonPathSyntaxError } from './errors.js';

const nameStop = new Set([...'.[]()=!<>&|,\'"~ \t\n\r']);

class Parser {
  pos = 0;
  usesRoot = false;
  constructor(readonly src: string) {}

  peek(off = 0): string {
    return this.src.charAt(this.pos + off);
  }

  fail(msg: string): never {
    throw new JsonPathSyntaxError(`invalid JSONPath ${JSON.stringify(this.src)} at offset ${this.pos}: ${msg}`);
  }

  skipSpace(): void {
    while (/\s/.test(this.peek())) this.pos++;
  }

  expect(c: string): void {
    if (this.peek() !== c) this.fail(`expected '${c}'`);
    this.pos++;
  }

  path(inFilter: boolean): JsonPath {
    const start = this.pos;
    const root = this.peek();
    if (root !== '$' && root !== '@') this.fail("a path starts with '$' or '@'");
    if (root === '$' && inFilter) this.usesRoot = true;
    this.pos++;
    const steps: Step[] = [];
    for (;;) {
      const c = this.peek();
      if (c === '.') {
        steps.push(this.dotStep());
      } else if (c === '[') {
        steps.push(this.bracket());
      } else {
        break;
      }
    }
    if (!inFilter && this.pos < this.src.length) this.fail(`unexpected '${this.peek()}'`);
    return { root: root as '$' | '@', steps, source: this.src.slice(start, this.pos), usesRoot: this.usesRoot };
  }

  dotStep(): Step {
    this.pos++;
    if (this.peek() === '.') {
      this.pos++;
      if (this.peek() === '[') return { t: 'descent', step: this.bracket() };
      return { t: 'descent', step: this.nameOrWild() };
    }
    return this.nameOrWild();
  }

  nameOrWild(): Step {
    if (this.peek() === '*') {
      this.pos++;
      return { t: 'wild' };
    }
    const start = this.pos;
    const first = this.peek();
    if (first === '' || first === '$' || first === '@' || nameStop.has(first)) this.fail('expected a field name');
    while (this.pos < this.src.length && !nameStop.has(this.peek())) this.pos++;
    return { t: 'child', name: this.src.slice(start, this.pos) };
  }

  bracket(): Step {
    this.expect('[');
    this.skipSpace();
    let step: Step;
    if (this.peek() === '*') {
      this.pos++;
      step = { t: 'wild' };
    } else if (this.peek() === '?') {
      this.pos++;
      this.skipSpace();
      step = { t: 'filter', expr: this.filterTop() };
    } else {
      step = this.unionOrSlice();
    }
    this.skipSpace();
    this.expect(']');
    return step;
  }

  filterTop(): FilterExpr {
    // `[?(expr)]` and `[?expr]` are both accepted.
    const e = this.orExpr();
    return e;
  }

  unionOrSlice(): Step {
    if (this.peek() === ':' || this.isSliceAhead()) return this.slice();
    const items: Array<ChildStep | IndexStep> = [];
    for (;;) {
      this.skipSpace();
      const c = this.peek();
      if (c === "'" || c === '"') items.push({ t: 'child', name: this.quoted() });
      else items.push({ t: 'index', index: this.int() });
      this.skipSpace();
      if (this.peek() !== ',') break;
      this.pos++;
    }
    return items.length === 1 ? (items[0] as Step) : { t: 'union', items };
  }

  isSliceAhead(): boolean {
    const m = /^\s*-?\d*\s*:/.exec(this.src.slice(this.pos));
    return m !== null;
  }

  slice(): Step {
    const parts: Array<number | undefined> = [];
    for (let i = 0; i < 3; i++) {
      this.skipSpace();
      parts.push(/[-\d]/.test(this.peek()) ? this.int() : undefined);
      this.skipSpace();
      if (this.peek() !== ':' || i === 2) break;
      this.pos++;
    }
    const [start, end, step] = parts;
    if (step === 0) this.fail('slice step cannot be 0');
    return {
      t: 'slice',
      ...(start === undefined ? {} : { start }),
      ...(end === undefined ? {} : { end }),
      ...(step === undefined ? {} : { step }),
    };
  }

  int(): number {
    const m = /^-?\d+/.exec(this.src.slice(this.pos));
    if (m === null) this.fail('expected an integer or a quoted name');
    this.pos += m[0].length;
    return Number.parseInt(m[0], 10);
  }

  quoted(): string {
    const q = this.peek();
    this.pos++;
    let out = '';
    for (;;) {
      const c = this.peek();
      if (c === '') this.fail('unterminated string');
      this.pos++;
      if (c === q) return out;
      if (c === '\\') {
        const n = this.peek();
        this.pos++;
        out += n === 'n' ? '\n' : n === 't' ? '\t' : n;
      } else {
        out += c;
      }
    }
  }

  orExpr(): FilterExpr {
    let l = this.andExpr();
    for (;;) {
      this.skipSpace();
      if (!this.src.startsWith('||', this.pos)) return l;
      this.pos += 2;
      l = { t: 'or', l, r: this.andExpr() };
    }
  }

  andExpr(): FilterExpr {
    let l = this.notExpr();
    for (;;) {
      this.skipSpace();
      if (!this.src.startsWith('&&', this.pos)) return l;
      this.pos += 2;
      l = { t: 'and', l, r: this.notExpr() };
    }
  }

  notExpr(): FilterExpr {
    this.skipSpace();
    if (this.peek() === '!' && this.peek(1) !== '=') {
      this.pos++;
      return { t: 'not', e: this.notExpr() };
    }
    return this.cmpExpr();
  }

  cmpExpr(): FilterExpr {
    const l = this.primary();
    this.skipSpace();
    const op = this.compareOp();
    if (op === undefined) return l;
    this.skipSpace();
    return { t: 'cmp', op, l, r: this.primary() };
  }

  compareOp(): CompareOp | undefined {
    for (const op of ['==', '!=', '<=', '>=', '=~', '<', '>'] as const) {
      if (this.src.startsWith(op, this.pos)) {
        this.pos += op.length;
        return op;
      }
    }
    if (/^in[\s[(]/.test(this.src.slice(this.pos))) {
      this.pos += 2;
      return 'in';
    }
    return undefined;
  }

  primary(): FilterExpr {
    this.skipSpace();
    const c = this.peek();
    if (c === '(') {
      this.pos++;
      const e = this.orExpr();
      this.skipSpace();
      this.expect(')');
      return e;
    }
    if (c === '@' || c === '$') return { t: 'path', path: this.path(true) };
    if (c === "'" || c === '"') return { t: 'lit', value: this.quoted() };
    if (c === '[') return { t: 'lit', value: this.listLiteral() };
    if (c === '/') return { t: 'regex', re: this.regex() };
    return { t: 'lit', value: this.scalarLiteral() };
  }

  listLiteral(): unknown[] {
    this.expect('[');
    const out: unknown[] = [];
    this.skipSpace();
    if (this.peek() === ']') {
      this.pos++;
      return out;
    }
    for (;;) {
      const e = this.primary();
      if (e.t !== 'lit') this.fail('list literals hold only literals');
      out.push(e.value);
      this.skipSpace();
      if (this.peek() === ']') {
        this.pos++;
        return out;
      }
      this.expect(',');
    }
  }

  regex(): RegExp {
    const end = this.src.indexOf('/', this.pos + 1);
    if (end < 0) this.fail('unterminated regular expression');
    const body = this.src.slice(this.pos + 1, end);
    this.pos = end + 1;
    const flags = /^[imsu]*/.exec(this.src.slice(this.pos))?.[0] ?? '';
    this.pos += flags.length;
    return new RegExp(body, flags);
  }

  scalarLiteral(): unknown {
    const rest = this.src.slice(this.pos);
    const word = /^(true|false|null)\b/.exec(rest);
    if (word !== null) {
      this.pos += word[0].length;
      return word[0] === 'null' ? null : word[0] === 'true';
    }
    const num = /^-?\d+(\.\d+)?([eE][+-]?\d+)?/.exec(rest);
    if (num === null) this.fail('expected a value');
    this.pos += num[0].length;
    return Number(num[0]);
  }
}

/** Parses `$...` (or `@...`) into steps. Throws JsonPathSyntaxError on malformed input. */
export function parseJsonPath(src: string): JsonPath {
  return new Parser(src).path(false);
}

// Computed strings are re-parsed on every evaluation, so parses (and their failures) are memoised.
const cache = new LRUCache<string, { path: JsonPath } | { error: JsonPathSyntaxError }>({ max: 10_000 });

/** Parses with a bounded memo. */
export function parseJsonPathCached(src: string): JsonPath {
  let hit = cache.get(src);
  if (hit === undefined) {
    try {
      hit = { path: parseJsonPath(src) };
    } catch (e) {
      hit = { error: e instanceof JsonPathSyntaxError ? e : new JsonPathSyntaxError(String(e)) };
    }
    cache.set(src, hit);
  }
  if ('error' in hit) throw hit.error;
  return hit.path;
}

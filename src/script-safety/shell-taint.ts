// Follows values from objects through a shell script's variables to the places where bash
// evaluates a variable's CONTENT: arithmetic ((( )), $(( )), let, [[ -eq ]], subscripts,
// ${s:off}, integer variables), where a value of `a[$(cmd)]` runs cmd although it was never
// spliced into the text, and name positions ([[ -v $V ]], printf -v "$V", ${!V} …).
//
// Sources: the template actions (FLOWOPS_T<i>), step env entries that hold a template, the
// STEP_* outputs of earlier steps, the object's name and namespace, and commands that read the
// object, the context or the cluster ($FLOWOPS_RESOURCE, resource.json, kubectl, curl …).
// The analysis is flow-insensitive (every assignment anywhere counts, in any order) and
// conservative (a function call taints every positional parameter). A value that reaches
// arithmetic by direct copies only (V=$T; W=$V) is a requirement checked at run time, before the
// script starts, on the original values; one that passed through something that cannot be
// checked (a command's output, a read from a pipe, a concatenation) is refused from the text.

import { ASSIGNMENT, DECLARE, RESERVED, TEST_ARITH, type Finding } from './shell-commands.js';
import { arithmeticRefs, parseWord, QUOTED_DOLLAR, type Ref } from './shell-refs.js';
import type { Command, Word } from './shell-scanner.js';

export interface Taint {
  /** Variables FlowOps sets from objects whose values arrive here by direct copies. */
  origins: Set<string>;
  /** How the value got here, nearest first: V, W, {{ .v }}. */
  path: string[];
  /** Set when the value passed through something FlowOps cannot check: what. */
  unprovable?: string | undefined;
}

/** Arithmetic reached by direct copies: each origin's value must be an integer (script-values.ts). */
export interface TaintRequirement {
  offset: number;
  origins: string[];
  /** V ← W ← {{ .v }} */
  path: string;
}

export interface TaintSources {
  /** Variables FlowOps sets from an object's values, each with how it reads in a message. */
  vars: ReadonlyMap<string, string>;
  /** Values reach the script through its text or env: shell-commands.ts already refuses dynamic names and code. */
  templated: boolean;
}

const STEP_OUTPUT = /^STEP_[A-Z0-9_]+$/;
const OBJECT_FILES = /(?:^|[^A-Za-z0-9_])(?:resource|context)\.json(?:$|[^A-Za-z0-9_])/;
const OBJECT_VARS = new Set(['FLOWOPS_RESOURCE', 'FLOWOPS_CONTEXT']);
const FETCHERS = /(?:^|[\s|;&(])(?:kubectl|curl|wget|helm)(?:\s|$)/;
const INTEGER_FORMAT = /^(?:[^%]|%%|%[-+ 0#]*[0-9]*[diouxX])*$/;
const PLAIN_LITERAL = /^[\s0-9+-]*$/;
const FUNCTION_DEF = /(?:^|[\s;&|(){}])(?:function\s+([A-Za-z_][A-Za-z0-9_-]*)|([A-Za-z_][A-Za-z0-9_-]*)\s*\(\s*\))/g;

export const arithmeticMessage = (path: string, reason: string): string => {
  const v = path.split(' ← ')[0] ?? 'V';
  return (
    `${v} reaches bash arithmetic, which evaluates a variable's content as an expression ` +
    `(a value of a[$(cmd)] runs cmd), and it carries a value from an object through ${reason} (${path}), ` +
    'which FlowOps cannot check before the script starts. ' +
    `Copy the template value itself (${v}={{ … }}): ` +
    'FlowOps then requires it to be an integer before the script runs; ' +
    `or compare as strings ([[ $${v} == 3 ]]); ` +
    `or convert it into a variable of its own with printf -v N '%d' "$${v}". ` +
    `A guard such as [[ $${v} =~ ^[0-9]+$ ]] is not recognised`
  );
};
const nameMessage = (path: string): string =>
  `a variable expansion that carries a value from an object (${path}) cannot name a variable: ` +
  'bash evaluates a subscript in a name (a[$(cmd)] runs cmd)';
const codeMessage = (path: string): string =>
  `a variable expansion that carries a value from an object (${path}) cannot be code`;

const show = (t: Taint): string => t.path.join(' ← ');
const literalText = (w: Word | undefined): string | undefined =>
  w && w.actions.length === 0 && !w.expands ? w.text : undefined;

export interface ChildShell {
  text: string;
  /** Where the code word starts: what is found in it is reported there. */
  offset: number;
  args: Word[];
  inherited: Map<string, Taint>;
}

const SHELLS = new Set(['bash', 'sh', 'dash', 'zsh', 'ksh']);

interface Assignment {
  name: string;
  value: () => Taint | undefined;
  /** The variables its value may read (a superset), or every one (a read of stdin). */
  reads: ReadonlySet<string> | 'all';
}

/** The variable names a text may expand; positional parameters are '@'. */
function readsOf(texts: readonly string[]): Set<string> {
  const out = new Set<string>();
  for (const t of texts) {
    for (const m of t.matchAll(/[A-Za-z_][A-Za-z0-9_]*/g)) out.add(m[0]);
    if (/\$(?:[0-9@*]|\{[0-9@*])/.test(t)) out.add('@');
  }
  return out;
}

interface Sink {
  offset: number;
  kind: 'arithmetic' | 'name' | 'code';
  taint: () => Taint | undefined;
}

function merge(list: readonly (Taint | undefined)[]): Taint | undefined {
  const all = list.filter((t): t is Taint => t !== undefined);
  if (all.length === 0) return undefined;
  const bad = all.find((t) => t.unprovable);
  const first = bad ?? all[0]!;
  return { origins: new Set(all.flatMap((t) => [...t.origins])), path: first.path, unprovable: bad?.unprovable };
}

/** One more hop; a long path keeps its first hops and its origin (messages stay short). */
const through = (t: Taint | undefined, step: string, unprovable?: string): Taint | undefined =>
  t && {
    origins: t.origins,
    path: t.path.length < 8 ? [step, ...t.path] : [step, ...t.path.slice(0, 4), '…', ...t.path.slice(-1)],
    unprovable: t.unprovable ?? unprovable,
  };

export class ShellTaint {
  private readonly commands: Command[] = [];
  private readonly arithmetic: { text: string; offset: number }[] = [];
  private readonly params: { text: string; offset: number }[] = [];
  private readonly names: Word[] = [];
  private readonly code: Word[] = [];
  private text = '';
  private vars = new Map<string, Taint>();
  private functions = new Set<string>();
  private integers = new Set<string>();
  private assoc = new Set<string>();
  private hasSources = false;

  /** `bash -c '…'` with literal code: a shell of its own, which gets this one's variables. */
  private readonly children: ChildShell[] = [];

  constructor(
    private readonly sources: TaintSources,
    private readonly actions: readonly string[],
    inherited?: ReadonlyMap<string, Taint>,
  ) {
    for (const [k, v] of inherited ?? []) this.vars.set(k, v);
  }

  feedText(text: string): void {
    this.text += text;
  }
  command(cmd: Command, dynamicNames: readonly Word[], dynamicCode: readonly Word[]): void {
    this.commands.push(cmd);
    this.names.push(...dynamicNames);
    this.code.push(...dynamicCode);
  }
  arithmeticText(text: string, offset: number): void {
    this.arithmetic.push({ text, offset });
  }
  param(text: string, offset: number): void {
    this.params.push({ text, offset });
  }

  finish(): { requirements: TaintRequirement[]; findings: Finding[]; children: ChildShell[] } {
    for (const m of this.text.matchAll(FUNCTION_DEF)) this.functions.add((m[1] ?? m[2]) as string);
    this.hasSources =
      this.actions.length > 0 ||
      [...this.sources.vars.keys()].some((v) => this.text.includes(v)) ||
      /STEP_[A-Z0-9_]|FLOWOPS_RESOURCE|FLOWOPS_CONTEXT/.test(this.text) ||
      OBJECT_FILES.test(this.text);
    for (const cmd of this.commands) this.attributes(cmd);
    const assignments: Assignment[] = [];
    const sinks: Sink[] = [];
    for (const cmd of this.commands) this.collect(cmd, assignments, sinks);
    for (const a of this.arithmetic) sinks.push(...this.arithmeticSinks(a.text, a.offset));
    for (const p of this.params) sinks.push(...this.paramSinks(p.text, p.offset));
    if (!this.sources.templated) {
      for (const w of this.names) sinks.push({ offset: w.start, kind: 'name', taint: () => this.wordTaint(w) });
      for (const w of this.code) sinks.push({ offset: w.start, kind: 'code', taint: () => this.wordTaint(w) });
    }
    this.solve(assignments);
    // Conservative: every variable counts as exported, and the arguments after the code are $0, $1 ….
    for (const c of this.children) {
      c.inherited = new Map(this.vars);
      const args = merge(c.args.map((w) => this.wordTaint(w)));
      if (args) c.inherited.set('@', through(args, 'the arguments of bash -c')!);
    }
    return { ...this.verdicts(sinks), children: this.children };
  }

  /** Integer (-i) and associative (-A) attributes, before anything is evaluated. */
  private attributes(cmd: Command): void {
    const words = cmd.words.filter((w) => !w.redirect);
    const k = words.findIndex((w) => !RESERVED.has(literalText(w) ?? ''));
    if (!DECLARE.has(literalText(words[k]) ?? '')) return;
    const args = words.slice(k + 1);
    const flags = args
      .filter((w) => /^[-+][A-Za-z]+$/.test(literalText(w) ?? ''))
      .map((w) => w.text.slice(1))
      .join('');
    for (const w of args) {
      const name = /^[A-Za-z_][A-Za-z0-9_]*/.exec(w.text)?.[0];
      if (!name || w.element) continue;
      if (flags.includes('i')) this.integers.add(name);
      if (flags.includes('A')) this.assoc.add(name);
    }
  }

  /**
   * A worklist: an assignment is evaluated again only when a variable it reads changed. A variable
   * only gains origins or becomes unprovable, so each changes a bounded number of times.
   */
  private solve(assignments: readonly Assignment[]): void {
    const readers = new Map<string, Assignment[]>();
    const everything: Assignment[] = [];
    for (const a of assignments) {
      if (a.reads === 'all') everything.push(a);
      else for (const v of a.reads) readers.set(v, [...(readers.get(v) ?? []), a]);
    }
    const queue = [...assignments];
    const queued = new Set(queue);
    while (queue.length) {
      const a = queue.shift()!;
      queued.delete(a);
      const t = a.value();
      if (!t) continue;
      const old = this.vars.get(a.name);
      const next = merge([old, t])!;
      if (old && next.origins.size === old.origins.size && (!next.unprovable || old.unprovable)) continue;
      this.vars.set(a.name, next);
      for (const b of [...(readers.get(a.name) ?? []), ...everything]) {
        if (!queued.has(b)) {
          queue.push(b);
          queued.add(b);
        }
      }
    }
  }

  private verdicts(sinks: readonly Sink[]): { requirements: TaintRequirement[]; findings: Finding[] } {
    const requirements: TaintRequirement[] = [];
    const findings: Finding[] = [];
    const seen = new Set<string>();
    for (const s of sinks) {
      const t = s.taint();
      if (!t) continue;
      const key = `${s.offset} ${s.kind} ${show(t)}`;
      if (seen.has(key)) continue;
      seen.add(key);
      if (s.kind === 'name') findings.push({ at: s.offset, message: nameMessage(show(t)) });
      else if (s.kind === 'code') findings.push({ at: s.offset, message: codeMessage(show(t)) });
      else if (t.unprovable) findings.push({ at: s.offset, message: arithmeticMessage(show(t), t.unprovable) });
      else requirements.push({ offset: s.offset, origins: [...t.origins].sort(), path: show(t) });
    }
    return { requirements, findings };
  }

  // —— what flows where ——

  private collect(cmd: Command, assignments: Assignment[], sinks: Sink[]): void {
    if (cmd.pattern) return;
    const words = cmd.words.filter((w) => !w.redirect);
    if (cmd.test) {
      words.forEach((w, k) => {
        if (TEST_ARITH.has(literalText(words[k - 1]) ?? '') || TEST_ARITH.has(literalText(words[k + 1]) ?? '')) {
          sinks.push(...this.arithmeticSinks(w.text, w.start));
        }
      });
      return;
    }
    let i = this.assignmentWords(words, 0, assignments, sinks);
    while (i < words.length && RESERVED.has(literalText(words[i]) ?? '')) i++;
    const first = literalText(words[i]);
    const args = words.slice(i + 1);
    if (first === undefined || first.startsWith('((')) return;
    const code = args.findIndex((w) => /^-[a-z]*c[a-z]*$/.test(literalText(w) ?? ''));
    const text = literalText(args[code + 1]);
    if (SHELLS.has(first) && code !== -1 && text !== undefined) {
      const shell = text.replaceAll(QUOTED_DOLLAR, '$');
      const offset = args[code + 1]!.start;
      this.children.push({ text: shell, offset, args: args.slice(code + 2), inherited: new Map() });
    }
    if (DECLARE.has(first)) {
      const k = args.findIndex((w) => !/^[-+]/.test(w.text) || w.element);
      if (k !== -1) this.assignmentWords(args, k, assignments, sinks, true);
      // declare -n ref=$V: the value is the name the reference reads.
      const nameref = args.slice(0, k === -1 ? undefined : k).some((w) => /^-[A-Za-z]*n/.test(w.text));
      if (nameref && !this.sources.templated) {
        for (const w of args.slice(k)) {
          const m = ASSIGNMENT.exec(w.text);
          if (m) sinks.push({ offset: w.start, kind: 'name', taint: () => this.wordTaint(this.tail(w, m[0].length)) });
        }
      }
    } else if (first === 'let') {
      for (const w of args) sinks.push(...this.arithmeticSinks(w.text, w.start));
    } else if (first === 'read' || first === 'mapfile' || first === 'readarray') {
      const input = (): Taint | undefined => this.inputTaint(cmd);
      const names = first === 'read' ? readNames(args) : [mapfileName(args)];
      for (const name of names) assignments.push({ name, value: input, reads: 'all' });
    } else if (first === 'printf' && literalText(args[0]) === '-v' && args[1]) {
      const name = /^[A-Za-z_][A-Za-z0-9_]*/.exec(args[1].text)?.[0];
      const rest = args.slice(2);
      const reads = readsOf(rest.map((w) => w.text));
      if (name) assignments.push({ name, value: () => this.printfTaint(rest), reads });
    } else if (first === 'for' && args[0] && literalText(args[1]) === 'in') {
      const list = args.slice(2).filter((w) => !/^(?:;|do)$/.test(literalText(w) ?? ''));
      const value = (): Taint | undefined => through(merge(list.map((w) => this.wordTaint(w))), 'a for list');
      assignments.push({ name: args[0].text, value, reads: readsOf(list.map((w) => w.text)) });
    } else if (this.functions.has(first) || (first === 'set' && args.some((w) => literalText(w) === '--'))) {
      const list = first === 'set' ? args.slice(args.findIndex((w) => literalText(w) === '--') + 1) : args;
      const hop = `the arguments of ${first}`;
      const value = (): Taint | undefined => through(merge(list.map((w) => this.wordTaint(w))), hop);
      assignments.push({ name: '@', value, reads: readsOf(list.map((w) => w.text)) });
    }
  }

  /** NAME=value words from `from` on (and elements of NAME=( … )); returns the index after them. */
  private assignmentWords(
    words: readonly Word[],
    from: number,
    assignments: Assignment[],
    sinks: Sink[],
    declared = false,
  ): number {
    let i = from;
    let array: string | undefined;
    for (; i < words.length; i++) {
      const w = words[i]!;
      if (w.element && array !== undefined) {
        const name = array;
        const close = w.text.startsWith('[') ? w.text.indexOf(']=') : -1;
        if (close !== -1 && !this.assoc.has(name)) sinks.push(...this.arithmeticSinks(w.text.slice(1, close), w.start));
        const value = close === -1 ? w : this.tail(w, close + 2);
        assignments.push({ name, value: () => this.wordTaint(value), reads: readsOf([value.text]) });
        continue;
      }
      const m = ASSIGNMENT.exec(w.text);
      if (!m || m[0].includes('\u0001')) {
        if (declared && !w.element) continue;
        break;
      }
      const name = /^[A-Za-z_][A-Za-z0-9_]*/.exec(m[0])![0];
      const sub = /\[([^\]]*)\]/.exec(m[0])?.[1];
      if (sub !== undefined && !this.assoc.has(name)) sinks.push(...this.arithmeticSinks(sub, w.start));
      const value = this.tail(w, m[0].length);
      if (this.integers.has(name)) sinks.push(...this.arithmeticSinks(value.text, w.start));
      assignments.push({ name, value: () => this.wordTaint(value), reads: readsOf([value.text]) });
      array = value.text === '' ? name : undefined;
    }
    return i;
  }

  /** The part of a word from character `at` on, with its actions. */
  private tail(w: Word, at: number): Word {
    const skipped = w.text.slice(0, at).split('\u0001').length - 1;
    return { ...w, text: w.text.slice(at), actions: w.actions.slice(skipped) };
  }

  /** Actions written in arithmetic are checked where they stand (bash-rewrite.ts): only variables here. */
  private arithmeticSinks(text: string, offset: number): Sink[] {
    return arithmeticRefs(text)
      .filter((r) => r.kind !== 'action')
      .map((r) => ({ offset, kind: 'arithmetic' as const, taint: () => this.refTaint(r) }));
  }

  /** ${S:off:len}, ${a[sub]}: arithmetic; ${!V}: a name; ${V@P}: code (prompt expansion runs $( )). */
  private paramSinks(text: string, offset: number): Sink[] {
    const prompt = /^([A-Za-z_][A-Za-z0-9_]*|[0-9]+|[@*])(?:\[[^\]]*\])?@P$/.exec(text);
    if (prompt) {
      const name = prompt[1] as string;
      return [{ offset, kind: 'code', taint: () => this.refTaint({ kind: 'var', name, op: '' }) }];
    }
    const indirect = /^!([A-Za-z_][A-Za-z0-9_]*)/.exec(text);
    if (indirect && !this.sources.templated) {
      const name = indirect[1] as string;
      return [{ offset, kind: 'name', taint: () => this.refTaint({ kind: 'var', name, op: '' }) }];
    }
    const sliced = /^[#!]?(?:[A-Za-z_][A-Za-z0-9_]*|[0-9]+|[@*])(?:\[[^\]]*\])?:(?![-+=?])/.exec(text);
    if (sliced) return this.arithmeticSinks(text.slice(sliced[0].length), offset);
    const sub = /^[#!]?([A-Za-z_][A-Za-z0-9_]*)\[([^\]]*)\]/.exec(text);
    const [, array = '', subscript = ''] = sub ?? [];
    if (sub && !this.assoc.has(array) && !/^[@*]$/.test(subscript)) return this.arithmeticSinks(subscript, offset);
    return [];
  }

  // —— taint of what bash expands ——

  private source(name: string): Taint | undefined {
    const shown = this.sources.vars.get(name) ?? (STEP_OUTPUT.test(name) ? "an earlier step's output" : undefined);
    return shown === undefined ? undefined : { origins: new Set([name]), path: [shown] };
  }

  private varTaint(name: string): Taint | undefined {
    const positional = /^(?:[0-9]+|[@*])$/.test(name) ? this.vars.get('@') : undefined;
    return merge([this.source(name), this.vars.get(name), positional]);
  }

  private refTaint(r: Ref): Taint | undefined {
    switch (r.kind) {
      case 'integer':
      case 'arith':
        return undefined;
      case 'action':
        return { origins: new Set([`FLOWOPS_T${r.index}`]), path: [this.actions[r.index] ?? '{{ … }}'] };
      case 'subst':
        return this.substTaint(r.text, r.actions);
      case 'var': {
        const base = this.varTaint(r.name);
        const op = r.op;
        // ${V:-word} ${V=word} ${V:+word}: the value, or the word (itself copied as it is).
        const alt = /^(:?[-=+?])([\s\S]*)$/.exec(op);
        if (alt) {
          const word = this.wordTaint({ text: alt[2] as string, actions: [] });
          return merge([(alt[1] as string).endsWith('+') ? undefined : through(base, r.name), word]);
        }
        if (!base) return undefined;
        if (op === '' || /^\[[^\]]*\]$/.test(op)) return through(base, r.name);
        return through(base, `\${${r.name}${op}}`, `a parameter expansion (\${${r.name}${op}})`);
      }
    }
  }

  private wordTaint(w: { text: string; actions: readonly number[] }): Taint | undefined {
    const { refs, literal } = parseWord(w.text, w.actions);
    const taints = refs.map((r) => this.refTaint(r));
    const t = merge(taints);
    if (!t || t.unprovable) return t;
    // Integers side by side stay an expression of integers; any other text could make a name.
    const integerOnly = (r: Ref, k: number): boolean =>
      taints[k] !== undefined || r.kind === 'integer' || r.kind === 'arith';
    const direct = PLAIN_LITERAL.test(literal) && refs.every(integerOnly);
    return direct ? t : { ...t, unprovable: 'a concatenation with other text' };
  }

  /** The output of $( … ): tainted when the command uses a tainted value or reads the object. */
  private substTaint(text: string, actions: readonly number[]): Taint | undefined {
    const inner = merge(parseWord(text, actions).refs.map((r) => this.refTaint(r)));
    if (inner) return through(inner, '$(…)', 'a command substitution');
    const reads = this.readsObject(text);
    if (reads) return { origins: new Set(), path: [reads], unprovable: `the output of ${reads}` };
    const fn = [...this.functions].find((f) => new RegExp(`(?:^|[\\s;&|(])${f}(?:\\s|$)`).test(text));
    if (fn && this.hasSources) {
      return { origins: new Set(), path: [`$(${fn})`], unprovable: `the output of the function ${fn}` };
    }
    return undefined;
  }

  private readsObject(text: string): string | undefined {
    const refs = parseWord(text, []).refs;
    const objectVar = refs.some((r) => r.kind === 'var' && OBJECT_VARS.has(r.name));
    if (objectVar || OBJECT_FILES.test(text)) return 'a command that reads the object';
    const fetcher = FETCHERS.exec(text)?.[0]
      .trim()
      .replace(/^[|;&(]/, '');
    return fetcher ? `${fetcher}, which reads from the cluster or the network` : undefined;
  }

  /** What `read`/`mapfile` gets: a here-string, a redirected file, a pipe, or the enclosing loop's input. */
  private inputTaint(cmd: Command): Taint | undefined {
    const stdin = cmd.words.filter((w) => w.redirect === 'herestring' || w.redirect === 'input');
    const here = stdin.filter((w) => w.redirect === 'herestring');
    const files = stdin.filter((w) => w.redirect === 'input');
    const fromFiles = merge(files.map((w) => this.fileTaint(w)));
    const fromPipe = cmd.pipedFrom ? this.pipeTaint(cmd.pipedFrom) : undefined;
    const ambient = stdin.length === 0 && !cmd.pipedFrom ? this.ambientInput() : undefined;
    return merge([...here.map((w) => through(this.wordTaint(w), '<<<')), fromFiles, fromPipe, ambient]);
  }

  private fileTaint(w: Word): Taint | undefined {
    const object = this.readsObject(w.text) ? { origins: new Set<string>(), path: ['the object'] } : undefined;
    const t = this.wordTaint(w) ?? object;
    return t && { ...t, path: ['a file', ...t.path], unprovable: 'a read from a file' };
  }

  private pipeTaint(cmd: Command): Taint | undefined {
    const words = cmd.words.filter((w) => w.redirect !== 'output');
    const text = words.map((w) => w.text).join(' ');
    const own = merge(words.map((w) => (w.redirect === 'input' ? this.fileTaint(w) : this.wordTaint(w))));
    const reads = own ? undefined : this.readsObject(text);
    const t = own ?? (reads ? { origins: new Set<string>(), path: [reads] } : undefined);
    const upstream = cmd.pipedFrom ? this.pipeTaint(cmd.pipedFrom) : undefined;
    const all = merge([t, upstream]);
    return all && { ...all, path: ['a pipe', ...all.path], unprovable: 'a read from a pipe' };
  }

  /** A read with no input of its own reads its loop's: any loop fed from a tainted input taints it. */
  private ambientInput(): Taint | undefined {
    const loops = this.commands.filter((c) => RESERVED.has(literalText(c.words[0]) ?? ''));
    return merge(
      loops.map((c) => {
        const stdin = c.words.filter((w) => w.redirect === 'input' || w.redirect === 'herestring');
        return merge([...stdin.map((w) => this.fileTaint(w)), c.pipedFrom ? this.pipeTaint(c.pipedFrom) : undefined]);
      }),
    );
  }

  private printfTaint(args: readonly Word[]): Taint | undefined {
    const format = literalText(args[0]);
    // %d and its kin print an integer or fail: the result is never an expression.
    if (format !== undefined && INTEGER_FORMAT.test(format)) return undefined;
    if (format === '%s' && args.length === 2) return through(this.wordTaint(args[1]!), 'printf -v');
    return through(merge(args.map((w) => this.wordTaint(w))), 'printf -v', 'printf');
  }
}

/** The variables `read` assigns: its operands, and the array of -a. */
function readNames(args: readonly Word[]): string[] {
  const names: string[] = [];
  for (let k = 0; k < args.length; k++) {
    const text = args[k]!.text;
    if (/^-[A-Za-z]+$/.test(text)) {
      const last = text.at(-1) ?? '';
      if ('adinNptu'.includes(last)) {
        if (last === 'a' && args[k + 1]) names.push(args[k + 1]!.text);
        k++;
      }
      continue;
    }
    if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(text)) names.push(text);
  }
  return names.length ? names : ['REPLY'];
}

function mapfileName(args: readonly Word[]): string {
  for (let k = args.length - 1; k >= 0; k--) {
    const text = args[k]!.text;
    const before = args[k - 1]?.text ?? '';
    if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(text) && !/^-[A-Za-z]*[dnOsuCc]$/.test(before)) return text;
  }
  return 'MAPFILE';
}

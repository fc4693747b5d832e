// A Helm chart repository as users make one: charts packaged by the real `helm package`, an
// index.yaml by `helm repo index`, served as static files by node:http (or node:https) with basic
// auth, as any web server or object store serves them.

import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { join, normalize } from 'node:path';
import { promisify } from 'node:util';
import { HELM } from '../helpers/kubectl.js';

const run = promisify(execFile);

/** Runs the real helm with its home, cache and config under `home`. */
export async function helmCli(home: string, args: string[]): Promise<string> {
  const env = {
    ...process.env,
    HOME: home,
    HELM_CACHE_HOME: join(home, 'cache'),
    HELM_CONFIG_HOME: join(home, 'config'),
    HELM_DATA_HOME: join(home, 'data'),
  };
  return (await run(HELM, args, { env, timeout: 60_000 })).stdout;
}

/** Who signs with `helm package --sign`: a gpg key's name and a keyring in gpg's legacy secring format. */
export interface ChartSigner {
  key: string;
  keyring: string;
}

/**
 * Writes chart `name` at `version` (one ConfigMap naming it) and packages it into `out`; returns the
 * .tgz. With `sign`, `helm package --sign` writes the .prov beside it.
 */
export async function packageChart(
  work: string,
  out: string,
  name: string,
  version: string,
  sign?: ChartSigner,
): Promise<string> {
  const dir = join(work, `${name}-${version}`);
  mkdirSync(join(dir, 'templates'), { recursive: true });
  writeFileSync(join(dir, 'Chart.yaml'), `apiVersion: v2\nname: ${name}\nversion: ${version}\n`);
  writeFileSync(join(dir, 'values.yaml'), 'greeting: hello\n');
  writeFileSync(
    join(dir, 'templates', 'configmap.yaml'),
    [
      'apiVersion: v1',
      'kind: ConfigMap',
      'metadata:',
      '  name: {{ .Release.Name }}-chart',
      'data:',
      '  chartVersion: {{ .Chart.Version | quote }}',
      '  greeting: {{ .Values.greeting | quote }}',
      '',
    ].join('\n'),
  );
  mkdirSync(out, { recursive: true });
  const signing = sign ? ['--sign', '--key', sign.key, '--keyring', sign.keyring] : [];
  await helmCli(work, ['package', dir, '-d', out, ...signing]);
  return join(out, `${name}-${version}.tgz`);
}

export const sha256File = (path: string): string =>
  `sha256:${createHash('sha256').update(readFileSync(path)).digest('hex')}`;

export interface StaticServer {
  url: string;
  /** Every request path served, in order. */
  requests: string[];
  /** Replace the bytes served for a path (a tampered mirror). */
  override: Map<string, Buffer>;
  stop(): Promise<void>;
}

/** Serves `root` read-only on 127.0.0.1; with `auth`, every request needs that basic auth (401 otherwise). */
export async function serveStatic(
  root: string,
  opts: { auth?: { username: string; password: string }; tls?: { cert: string; key: string } } = {},
): Promise<StaticServer> {
  const requests: string[] = [];
  const override = new Map<string, Buffer>();
  const expected = opts.auth
    ? `Basic ${Buffer.from(`${opts.auth.username}:${opts.auth.password}`).toString('base64')}`
    : undefined;
  const handler = (req: IncomingMessage, res: ServerResponse) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    requests.push(path);
    if (expected && req.headers.authorization !== expected) {
      res.writeHead(401, { 'www-authenticate': 'Basic realm="charts"' }).end();
      return;
    }
    const file = normalize(join(root, decodeURIComponent(path)));
    if (!file.startsWith(root)) return void res.writeHead(403).end();
    let body = override.get(path);
    if (!body) {
      try {
        body = readFileSync(file);
      } catch {
        return void res.writeHead(404).end();
      }
    }
    res.writeHead(200, { 'content-length': String(body.length) }).end(body);
  };
  const server: Server = opts.tls ? createHttpsServer(opts.tls, handler) : createHttpServer(handler);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `${opts.tls ? 'https' : 'http'}://127.0.0.1:${port}`,
    requests,
    override,
    stop: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

/** A gpg home with one RSA signing key for `uid`, made by the real gpg (no passphrase). */
export async function gpgSigner(home: string, uid: string): Promise<ChartSigner & { armoredPublic: string }> {
  mkdirSync(home, { recursive: true, mode: 0o700 });
  const gpg = (args: string[]) => run('gpg', ['--homedir', home, '--batch', ...args], { timeout: 60_000 });
  await gpg(['--pinentry-mode', 'loopback', '--passphrase', '', '--quick-gen-key', uid, 'rsa2048', 'sign', 'never']);
  // Helm reads only the legacy secring format, which `--export-secret-keys` writes.
  const keyring = join(home, 'secring.gpg');
  writeFileSync(
    keyring,
    (await run('gpg', ['--homedir', home, '--batch', '--export-secret-keys'], { encoding: 'buffer' })).stdout,
  );
  const armoredPublic = (await gpg(['--armor', '--export'])).stdout;
  return { key: uid, keyring, armoredPublic };
}

/**
 * A Flow whose template step pulls chart `web` (with `chartExtra` inside its chart field, e.g.
 * `, verify: {...}`) and whose next step reads `.Steps.web.Outputs.chart.<read>`: for the type check.
 */
export const flowReadingChartOutput = (read: string, chartExtra = ''): string =>
  [
    'apiVersion: flowops.io/v1',
    'kind: Flow',
    'metadata: {name: f}',
    'spec:',
    '  watch: {apiVersion: v1, kind: ConfigMap}',
    '  reconcile:',
    '    steps:',
    '      - name: web',
    '        type: template',
    '        engine: helm',
    `        chart: {repository: "https://c.example", name: web, version: "^1"${chartExtra}}`,
    '      - name: note',
    '        type: kubectl',
    '        action: apply',
    '        manifests: |',
    '          apiVersion: v1',
    '          kind: ConfigMap',
    '          metadata: {name: note}',
    `          data: {v: "{{ .Steps.web.Outputs.chart.${read} }}"}`,
    '',
  ].join('\n');

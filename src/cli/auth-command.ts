import { readFileSync, writeFileSync } from 'node:fs';
import type { Command } from 'commander';
import type { PolicyRule } from '../viewapi/index.js';
import { summaryOf } from './command-table.js';
import { SetupError } from '../util/setup-error.js';

const collect = (v: string, prev: string[]): string[] => [...prev, v];

function parseRules(text: string | undefined): PolicyRule[] {
  if (!text) return [];
  const v = JSON.parse(text) as unknown;
  const list = Array.isArray(v) ? v : [v];
  for (const [i, r] of list.entries()) {
    if (!r || typeof r !== 'object' || !Array.isArray((r as PolicyRule).verbs))
      throw new SetupError(`--rules[${i}]: a PolicyRule needs a verbs list`);
  }
  return list as PolicyRule[];
}

/**
 * `flowops auth`: credentials for the view API server (spec §6, the original's `dctl
 * generate-keys` and `generate-config`). Tokens are RS256 JWTs signed with the server key.
 */
export function registerAuthCommand(program: Command): void {
  const auth = program.command('auth').description(summaryOf('auth'));
  auth
    .command('generate-keys')
    .description('write apiserver.key and a self-signed apiserver.crt (needs the openssl CLI)')
    .option('--hostname <name>', 'a SAN of the certificate (repeatable)', collect, [])
    .option('--dir <dir>', 'where to write the files', '.')
    .action(async (o: { hostname: string[]; dir: string }) => {
      const { generateKeys } = await import('../viewapi/keys.js');
      const files = await generateKeys(o.dir, o.hostname.length ? o.hostname : ['localhost', '127.0.0.1']);
      process.stdout.write(`wrote ${files.keyFile}\nwrote ${files.certFile}\n`);
    });
  auth
    .command('kubeconfig')
    .description('print (or write) a kubeconfig with a signed token for the view API server')
    .requiredOption('--user <name>', 'the username claim')
    .option('--namespaces <list>', 'comma-separated namespaces the token may use ("*": all)', '')
    .option('--rules <json>', 'a JSON PolicyRule or list of them (none: full access)')
    .option('--expiry <duration>', 'token lifetime, e.g. 1h, 30d, 1y', '1y')
    .option('--server-address <host:port>', 'the view API server address', 'localhost:8443')
    .option('--tls-key-file <file>', 'the server key that signs the token', 'apiserver.key')
    .option('--tls-cert-file <file>', 'the server certificate, embedded as the CA', 'apiserver.crt')
    .option('--http', 'the server runs in development mode (plain HTTP, no token)')
    .option('--insecure', 'skip verifying the server certificate')
    .option('--namespace <ns>', 'the context namespace', 'default')
    .option('--output <file>', 'write here instead of stdout')
    .action(
      async (o: {
        user: string;
        namespaces: string;
        rules?: string;
        expiry: string;
        serverAddress: string;
        tlsKeyFile: string;
        tlsCertFile: string;
        http?: boolean;
        insecure?: boolean;
        namespace: string;
        output?: string;
      }) => {
        // Loaded on use, so other commands do not pay for jose at start-up.
        const [{ issueToken }, { viewKubeconfig }] = await Promise.all([
          import('../viewapi/tokens.js'),
          import('../viewapi/kubeconfig.js'),
        ]);
        const namespaces = o.namespaces
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean);
        const rules = parseRules(o.rules);
        const scheme = o.http ? 'http' : 'https';
        const server = /^https?:\/\//.test(o.serverAddress) ? o.serverAddress : `${scheme}://${o.serverAddress}`;
        const token = o.http
          ? undefined
          : await issueToken(
              readFileSync(o.tlsKeyFile, 'utf8'),
              { username: o.user, namespaces, rules },
              { expiresIn: o.expiry },
            );
        const caPem = o.http || o.insecure ? undefined : readFileSync(o.tlsCertFile, 'utf8');
        const text = viewKubeconfig({
          server,
          user: o.user,
          ...(token ? { token } : {}),
          ...(caPem ? { caPem } : {}),
          insecure: Boolean(o.insecure || o.http),
          namespace: o.namespace,
        });
        if (o.output) writeFileSync(o.output, text, { mode: 0o600 });
        else process.stdout.write(text);
      },
    );
}

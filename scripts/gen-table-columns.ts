// Generates src/apiserver/table/builtin-column-definitions.json: the Table column definitions
// (name, type, format, description, priority) a real kube-apiserver answers for each built-in kind
// the embedded server serves. Starts the control plane of scripts/control-plane/ for it (built
// once per machine) and stops it again. `npx tsx scripts/gen-table-columns.ts`
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BUILTIN_TYPES } from '../src/apiserver/registry/builtins.js';
import { apiVersionOf } from '../src/apiserver/registry/types.js';

const root = join(import.meta.dirname, '..');
const out = join(root, 'src/apiserver/table/builtin-column-definitions.json');
const dir = mkdtempSync(join(tmpdir(), 'flowops-columns-'));

function get(server: string, pki: string, path: string): Promise<string> {
  const tls = {
    ca: readFileSync(join(pki, 'ca.crt')),
    cert: readFileSync(join(pki, 'admin.crt')),
    key: readFileSync(join(pki, 'admin.key')),
  };
  return new Promise((resolve, reject) => {
    const req = request(
      new URL(path, server),
      { ...tls, headers: { Accept: 'application/json;as=Table;g=meta.k8s.io;v=v1' } },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (body += c));
        res.on('end', () =>
          res.statusCode === 200 ? resolve(body) : reject(new Error(`GET ${path}: ${res.statusCode} ${body}`)),
        );
      },
    );
    req.on('error', reject);
    req.end();
  });
}

execFileSync('bash', [join(root, 'scripts/control-plane/up.sh'), dir], {
  stdio: ['ignore', 'ignore', 'inherit'],
  env: { ...process.env, CONTROL_PLANE_CONTROLLER_MANAGER: '0' },
});
try {
  const server = /CONTROL_PLANE_SERVER=(\S+)/.exec(readFileSync(join(dir, 'env'), 'utf8'))![1]!;
  const definitions: Record<string, unknown> = {};
  // Create-only kinds (bindings, the reviews) have no list, so no table to read.
  for (const t of BUILTIN_TYPES.filter((k) => !k.verbs || k.verbs.includes('list'))) {
    const base = t.group ? `/apis/${apiVersionOf(t)}` : `/api/${t.version}`;
    const table = JSON.parse(await get(server, join(dir, 'pki'), `${base}/${t.plural}?limit=1`)) as {
      columnDefinitions: unknown;
    };
    definitions[`${t.group}/${t.kind}`] = table.columnDefinitions;
  }
  writeFileSync(out, `${JSON.stringify(definitions, null, 2)}\n`);
  console.log(`wrote ${out} (${Object.keys(definitions).length} kinds)`);
} finally {
  execFileSync('bash', [join(root, 'scripts/control-plane/down.sh'), dir], { stdio: 'inherit' });
  rmSync(dir, { recursive: true, force: true });
}

// Writes test/preview/schemas/gitea-openapi.json (`npm run gen:forge-openapi`): the operations a
// pull-request preview calls, cut out of Gitea's own OpenAPI 3 description with every component
// they reach. The source is templates/swagger/v1_openapi3_json.tmpl of the `code.gitea.io/gitea`
// Go module v<GITEA_VERSION>, fetched through the Go module proxy (`go mod download`), the
// template's two placeholders (version, sub-URL) filled in. GitHub's description comes whole from
// @octokit/openapi (a devDependency); GitLab publishes none that can be fetched here, so
// test/preview/schemas/gitlab-documented.json is written by hand from its REST API pages.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const GITEA_VERSION = '1.27.3';
const OUT = join(dirname(fileURLToPath(import.meta.url)), '../test/preview/schemas/gitea-openapi.json');

/** path → methods a preview sends. */
const OPERATIONS: Record<string, string[]> = {
  '/repos/{owner}/{repo}/pulls': ['get'],
  '/repos/{owner}/{repo}/issues/{index}/comments': ['get', 'post'],
  '/repos/{owner}/{repo}/issues/comments/{id}': ['patch'],
  '/repos/{owner}/{repo}/statuses/{sha}': ['post'],
};

type Json = Record<string, unknown>;

function moduleFile(): string {
  const mod = `code.gitea.io/gitea@v${GITEA_VERSION}`;
  const out = execFileSync('go', ['mod', 'download', '-json', mod], { encoding: 'utf8', cwd: '/' });
  const dir = (JSON.parse(out) as { Dir: string }).Dir;
  return join(dir, 'templates', 'swagger', 'v1_openapi3_json.tmpl');
}

const text = readFileSync(moduleFile(), 'utf8')
  .replaceAll('{{.SwaggerAppVer}}', GITEA_VERSION)
  .replaceAll('{{.SwaggerAppSubUrl}}', '');
const doc = JSON.parse(text) as { paths: Record<string, Json>; components: Record<string, Json>; info: Json };

const paths: Record<string, Json> = {};
for (const [path, methods] of Object.entries(OPERATIONS)) {
  const item = doc.paths[path];
  if (!item) throw new Error(`Gitea ${GITEA_VERSION} has no ${path}`);
  paths[path] = Object.fromEntries(
    methods.map((m) => {
      if (!item[m]) throw new Error(`Gitea ${GITEA_VERSION} has no ${m.toUpperCase()} ${path}`);
      return [m, item[m]];
    }),
  );
}

/** Every `#/components/<section>/<name>` reachable from `root`, followed transitively. */
function reachable(root: unknown): Map<string, Set<string>> {
  const found = new Map<string, Set<string>>();
  const queue: unknown[] = [root];
  while (queue.length) {
    const node = queue.pop();
    if (Array.isArray(node)) queue.push(...node);
    else if (node && typeof node === 'object') {
      for (const [k, v] of Object.entries(node)) {
        if (k === '$ref' && typeof v === 'string') {
          const m = /^#\/components\/([^/]+)\/(.+)$/.exec(v);
          if (!m) continue;
          const [, section = '', name = ''] = m;
          const names = found.get(section) ?? new Set<string>();
          found.set(section, names);
          if (names.has(name)) continue;
          names.add(name);
          queue.push(doc.components[section]?.[name]);
        } else queue.push(v);
      }
    }
  }
  return found;
}

const components: Record<string, Json> = {};
for (const [section, names] of reachable(paths))
  components[section] = Object.fromEntries([...names].sort().map((n) => [n, doc.components[section]?.[n]]));

const out = {
  openapi: '3.0.3',
  info: {
    ...doc.info,
    'x-vendored-from': `code.gitea.io/gitea@v${GITEA_VERSION} templates/swagger/v1_openapi3_json.tmpl`,
  },
  servers: [{ url: '/api/v1' }],
  paths,
  components,
};
writeFileSync(OUT, `${JSON.stringify(out, null, 2)}\n`);
process.stdout.write(`wrote test/preview/schemas/gitea-openapi.json (${Object.keys(paths).length} paths)\n`);

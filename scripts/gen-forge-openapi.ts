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
import { cutOperations, type OpenApi3 } from './openapi-cut.js';

const GITEA_VERSION = '1.27.3';
const OUT = join(dirname(fileURLToPath(import.meta.url)), '../test/preview/schemas/gitea-openapi.json');

/** path → methods a preview sends. */
const OPERATIONS: Record<string, string[]> = {
  '/repos/{owner}/{repo}/pulls': ['get'],
  '/repos/{owner}/{repo}/issues/{index}/comments': ['get', 'post'],
  '/repos/{owner}/{repo}/issues/comments/{id}': ['patch'],
  '/repos/{owner}/{repo}/statuses/{sha}': ['post'],
};

function moduleFile(): string {
  const mod = `code.gitea.io/gitea@v${GITEA_VERSION}`;
  const out = execFileSync('go', ['mod', 'download', '-json', mod], { encoding: 'utf8', cwd: '/' });
  const dir = (JSON.parse(out) as { Dir: string }).Dir;
  return join(dir, 'templates', 'swagger', 'v1_openapi3_json.tmpl');
}

const text = readFileSync(moduleFile(), 'utf8')
  .replaceAll('{{.SwaggerAppVer}}', GITEA_VERSION)
  .replaceAll('{{.SwaggerAppSubUrl}}', '');
const doc = JSON.parse(text) as OpenApi3;
// The operations with what they reach; a path's shared parameters come along (Gitea's have none).
const { paths, components } = cutOperations(doc, OPERATIONS, `Gitea ${GITEA_VERSION}`);

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

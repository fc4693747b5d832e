// Writes test/preview/schemas/bitbucket-cloud-openapi.json (`npm run gen:bitbucket-openapi -- FILE`):
// the operations FlowOps sends to Bitbucket Cloud (commit statuses, pull requests and their
// comments), cut out of Atlassian's published OpenAPI 3 description of the 2.0 API
// (https://developer.atlassian.com/cloud/bitbucket/rest/, the "swagger.v3.json" its pages offer).
// No package registry carries that document, so FILE is a copy of it: the one vendored here is
// Atlassian's document as the @coderabbitai/bitbucket client's repository keeps it unchanged
// (src/cloud/openapi/swagger.v3.json, the source of that npm package's generated types).
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cutOperations, type OpenApi3 } from './openapi-cut.js';

const OUT = join(dirname(fileURLToPath(import.meta.url)), '../test/preview/schemas/bitbucket-cloud-openapi.json');

const OPERATIONS: Record<string, string[]> = {
  '/repositories/{workspace}/{repo_slug}/pullrequests': ['get'],
  '/repositories/{workspace}/{repo_slug}/pullrequests/{pull_request_id}/comments': ['get', 'post'],
  '/repositories/{workspace}/{repo_slug}/pullrequests/{pull_request_id}/comments/{comment_id}': ['put'],
  '/repositories/{workspace}/{repo_slug}/commit/{commit}/statuses/build': ['post'],
};

const file = process.argv[2];
if (!file) {
  process.stderr.write('usage: npm run gen:bitbucket-openapi -- <Atlassian swagger.v3.json of Bitbucket Cloud>\n');
  process.exit(2);
}
const text = readFileSync(file, 'utf8');
const doc = JSON.parse(text) as OpenApi3;
const cut = cutOperations(doc, OPERATIONS, 'Bitbucket Cloud 2.0');
const out = {
  openapi: '3.0.0',
  info: { ...cut.info, 'x-vendored-from': `swagger.v3.json sha256:${createHash('sha256').update(text).digest('hex')}` },
  servers: [{ url: '/2.0' }],
  paths: cut.paths,
  components: cut.components,
};
writeFileSync(OUT, `${JSON.stringify(out, null, 2)}\n`);
const count = Object.keys(cut.paths).length;
process.stdout.write(`wrote test/preview/schemas/bitbucket-cloud-openapi.json (${count} paths)\n`);

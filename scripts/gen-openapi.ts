// Writes src/apiserver/openapi/vendor/ (`npm run gen:openapi`): the OpenAPI documents kube-apiserver
// v<KUBERNETES_VERSION> publishes, cut down to what the embedded server serves. The source is the
// `k8s.io/kubernetes` Go module (api/openapi-spec/, generated upstream by hack/update-openapi-spec.sh),
// fetched through the Go module proxy: `go mod download k8s.io/kubernetes@v<version>`.
//
// Per served group-version: the v3 document with the paths of the served resources and subresources
// only, and the schemas those paths reach. Once: the Swagger 2.0 definitions the served kinds reach,
// and the apimachinery schemas a CRD's document refers to (ObjectMeta, ListMeta, Status, …).
// test/apiserver/openapi-vendor.test.ts fails when the files and the registry disagree.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { BUILTIN_TYPES } from '../src/apiserver/registry/builtins.js';
import { KUBERNETES_VERSION } from '../src/apiserver/server-defaults.js';
import { hasScale } from '../src/apiserver/http/scale.js';
import {
  CRD_META_FILE,
  CRD_META_SCHEMAS,
  MANIFEST_FILE,
  SWAGGER_DEFINITIONS_FILE,
  VENDOR_DIR,
  documentHash,
  gvPath,
  v3FileName,
  type VendorManifest,
} from '../src/apiserver/openapi/vendor-files.js';
import { collectRefs, servedPath } from '../src/apiserver/openapi/served-paths.js';

type Json = Record<string, unknown>;

const moduleDir = (): string => {
  const mod = `k8s.io/kubernetes@v${KUBERNETES_VERSION}`;
  execFileSync('go', ['mod', 'download', mod], { stdio: 'inherit', cwd: '/' });
  const cache = execFileSync('go', ['env', 'GOMODCACHE'], { encoding: 'utf8' }).trim();
  return join(cache, mod, 'api', 'openapi-spec');
};

const spec = moduleDir();
const readJson = (path: string): Json => JSON.parse(readFileSync(path, 'utf8')) as Json;

/** The subresources the embedded server answers for a built-in (the same checks the handler makes). */
const subresources = new Map(
  BUILTIN_TYPES.map((t) => [
    `${t.group}/${t.version}/${t.plural}`,
    [
      ...(t.statusSubresource ? ['status'] : []),
      ...(hasScale(t) ? ['scale'] : []),
      ...(t.subresources ?? []).map((x) => x.name),
    ],
  ]),
);
const served =
  (group: string, version: string) =>
  (plural: string, sub: string | undefined): boolean => {
    const subs = subresources.get(`${group}/${version}/${plural}`);
    return subs !== undefined && (sub === undefined || subs.includes(sub));
  };

/** Keeps the schemas reachable from `roots` (a `$ref` walk), in the source's order. */
function reachable(schemas: Json, roots: unknown[], prefix: string): Json {
  const keep = new Set<string>();
  const queue = roots.flatMap((r) => collectRefs(r, prefix));
  while (queue.length) {
    const name = queue.pop()!;
    if (keep.has(name) || !(name in schemas)) continue;
    keep.add(name);
    queue.push(...collectRefs(schemas[name], prefix));
  }
  return Object.fromEntries(Object.entries(schemas).filter(([name]) => keep.has(name)));
}

rmSync(VENDOR_DIR, { recursive: true, force: true });
mkdirSync(VENDOR_DIR, { recursive: true });
const manifest: VendorManifest = { kubernetesVersion: KUBERNETES_VERSION, v3: {} };
const write = (file: string, doc: unknown): string => {
  const text = JSON.stringify(doc);
  const gz = gzipSync(text, { level: 9 });
  writeFileSync(join(VENDOR_DIR, file), gz);
  process.stdout.write(
    `wrote ${file} (${(text.length / 1024).toFixed(0)} KiB, ${(gz.length / 1024).toFixed(0)} KiB gzipped)\n`,
  );
  return text;
};

const groupVersions = [...new Map(BUILTIN_TYPES.map((t) => [`${t.group}/${t.version}`, t])).values()];
const sourceFiles = new Set(readdirSync(join(spec, 'v3')));
let metaSchemas: Json = {};
for (const { group, version } of groupVersions) {
  const file = group ? `apis__${group}__${version}_openapi.json` : `api__${version}_openapi.json`;
  if (!sourceFiles.has(file))
    throw new Error(
      `${file}: not in ${spec}/v3 (kube-apiserver ${KUBERNETES_VERSION} does not serve ${group || 'core'}/${version})`,
    );
  const doc = readJson(join(spec, 'v3', file));
  const paths = Object.fromEntries(
    Object.entries(doc.paths as Json).filter(([p]) => servedPath(p, group, version, served(group, version))),
  );
  const components = doc.components as Json;
  const schemas = reachable(components.schemas as Json, Object.values(paths), '#/components/schemas/');
  const text = write(v3FileName(group, version), {
    ...doc,
    info: { title: 'Kubernetes', version: `v${KUBERNETES_VERSION}` },
    paths,
    components: { ...components, schemas },
  });
  manifest.v3[gvPath({ group, version })] = { file: v3FileName(group, version), hash: documentHash(text) };
  metaSchemas = { ...metaSchemas, ...(components.schemas as Json) };
}
write(CRD_META_FILE, {
  schemas: reachable(
    metaSchemas,
    CRD_META_SCHEMAS.map((n) => ({ $ref: `#/components/schemas/${n}` })),
    '#/components/schemas/',
  ),
  paths: crdPathTemplates(),
  properties: typeMetaProperties(metaSchemas, 'io.k8s.api.apps.v1.'),
});

/** apiVersion, kind and metadata as every kind (and so a CRD's) declares them: Deployment's and DeploymentList's. */
function typeMetaProperties(schemas: Json, prefix: string): Json {
  const props = (name: string): Json => (schemas[`${prefix}${name}`] as { properties: Json }).properties;
  const object = props('Deployment');
  return {
    apiVersion: object.apiVersion,
    kind: object.kind,
    metadata: object.metadata,
    listMetadata: props('DeploymentList').metadata,
  };
}

/**
 * A CRD's operations are the ones kube-apiserver builds for every resource (the same route builder),
 * so they are taken from Deployment's and made templates: `{{Kind}}`, `{{schema}}`, `{{listSchema}}`,
 * `{{OpGroupVersion}}` (AppsV1), `{{tag}}` (apps_v1), `{{group}}`, `{{version}}`.
 */
function crdPathTemplates(): Json {
  const apps = readJson(join(spec, 'v3', 'apis__apps__v1_openapi.json')).paths as Json;
  const ns = '/apis/apps/v1/namespaces/{namespace}/deployments';
  const picked = {
    collection: apps[ns],
    item: apps[`${ns}/{name}`],
    status: apps[`${ns}/{name}/status`],
    scale: apps[`${ns}/{name}/scale`],
    allNamespaces: apps['/apis/apps/v1/deployments'],
  };
  const text = JSON.stringify(picked, (key, value: unknown) =>
    key === 'x-kubernetes-group-version-kind' && (value as Json).kind === 'Deployment'
      ? { group: '{{group}}', kind: 'Deployment', version: '{{version}}' }
      : value,
  )
    .replaceAll('io.k8s.api.apps.v1.DeploymentList', '{{listSchema}}')
    .replaceAll('io.k8s.api.apps.v1.Deployment', '{{schema}}')
    .replaceAll('AppsV1', '{{OpGroupVersion}}')
    .replaceAll('apps_v1', '{{tag}}')
    .replaceAll('Deployment', '{{Kind}}');
  const unresolved = collectRefs(JSON.parse(text), '#/components/schemas/').filter(
    (r) => !r.startsWith('{{') && !CRD_META_SCHEMAS.includes(r),
  );
  if (unresolved.length)
    throw new Error(`CRD path templates refer to ${unresolved.join(', ')}: add them to CRD_META_SCHEMAS`);
  if (/apps|deployments/i.test(text))
    throw new Error('CRD path templates still name apps/deployments somewhere: extend the substitutions');
  return JSON.parse(text) as Json;
}

const swagger = readJson(join(spec, 'swagger.json'));
const kept = Object.entries(swagger.paths as Json).filter(([p]) =>
  groupVersions.some(({ group, version }) => servedPath(p, group, version, served(group, version))),
);
const definitions = reachable(
  swagger.definitions as Json,
  [...kept.map(([, item]) => item), ...CRD_META_SCHEMAS.map((n) => ({ $ref: `#/definitions/${n}` }))],
  '#/definitions/',
);
write(SWAGGER_DEFINITIONS_FILE, {
  definitions,
  properties: typeMetaProperties(swagger.definitions as Json, 'io.k8s.api.apps.v1.'),
});
writeFileSync(join(VENDOR_DIR, MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`);
process.stdout.write(`wrote ${MANIFEST_FILE}\n`);

// Writes src/apiserver/protobuf/vendor/ (`npm run gen:proto`): the `generated.proto` files of k8s.io/api,
// k8s.io/apimachinery and k8s.io/apiextensions-apiserver (CustomResourceDefinition) at the version the embedded
// server reports (kube 1.34.4 ⇒ v0.34.4), fetched through the Go module proxy with `go mod download -json` in a
// throw-away module, as gen:openapi fetches kube's OpenAPI.
//
// Three things are written:
// - the .proto files themselves, under their import paths (k8s.io/api/core/v1/generated.proto, …): every stable
//   version (v1, v2) of every k8s.io/api group, and the apimachinery packages they import;
// - descriptor.json: the same files as one protobufjs JSON descriptor (Root#toJSON), which starts several times
//   faster than parsing the .proto text (bench/proto-load.ts measures both);
// - go-fields.json: what the .proto files cannot say and the JSON form depends on, read from the Go structs the
//   messages are generated from: per message, in Go declaration order, [Go field name, field number, JSON name,
//   Go type, omitempty]. A pointer keeps a zero value, omitempty drops it, a slice without omitempty is null…
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import protobuf from 'protobufjs';
import { KUBERNETES_VERSION } from '../src/apiserver/server-defaults.js';
import { DESCRIPTOR_FILE, GO_FIELDS_FILE, VENDOR_DIR, type GoField } from '../src/apiserver/protobuf/vendor-files.js';

const moduleVersion = `v0.${KUBERNETES_VERSION.split('.').slice(1).join('.')}`;
const MODULES = ['k8s.io/api', 'k8s.io/apimachinery', 'k8s.io/apiextensions-apiserver', 'k8s.io/kube-aggregator'];
/** apimachinery's packages with protobuf messages the API groups use (and PartialObjectMetadata, WatchEvent, …). */
const APIMACHINERY_PACKAGES = [
  'pkg/apis/meta/v1',
  'pkg/apis/meta/v1beta1',
  'pkg/runtime',
  'pkg/runtime/schema',
  'pkg/api/resource',
  'pkg/util/intstr',
];

function download(): Map<string, string> {
  const work = mkdtempSync(join(tmpdir(), 'gen-proto-'));
  try {
    writeFileSync(join(work, 'go.mod'), 'module genproto\n\ngo 1.22\n');
    const args = ['mod', 'download', '-json', ...MODULES.map((m) => `${m}@${moduleVersion}`)];
    const out = execFileSync('go', args, { cwd: work, encoding: 'utf8', env: { ...process.env, GOFLAGS: '-mod=mod' } });
    // `go mod download -json` prints one JSON object per module, back to back.
    const dirs = new Map<string, string>();
    for (const text of out.split(/\n(?=\{)/)) {
      const info = JSON.parse(text) as { Path: string; Dir?: string; Error?: string };
      if (info.Error || !info.Dir)
        throw new Error(`go mod download ${info.Path}@${moduleVersion}: ${info.Error ?? 'no Dir'}`);
      dirs.set(info.Path, info.Dir);
    }
    return dirs;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** [import path of the package, directory] for every package vendored. */
function packages(dirs: Map<string, string>): Array<[string, string]> {
  const api = dirs.get('k8s.io/api')!;
  const machinery = dirs.get('k8s.io/apimachinery')!;
  const out: Array<[string, string]> = [];
  for (const group of readdirSync(api, { withFileTypes: true }).filter((d) => d.isDirectory())) {
    for (const version of readdirSync(join(api, group.name))) {
      if (/^v\d+$/.test(version) && readdirSync(join(api, group.name, version)).includes('generated.proto')) {
        out.push([`k8s.io/api/${group.name}/${version}`, join(api, group.name, version)]);
      }
    }
  }
  for (const p of APIMACHINERY_PACKAGES) out.push([`k8s.io/apimachinery/${p}`, join(machinery, p)]);
  // CustomResourceDefinition itself, which kube-apiserver serves in protobuf like any built-in.
  out.push([
    'k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1',
    join(dirs.get('k8s.io/apiextensions-apiserver')!, 'pkg/apis/apiextensions/v1'),
  ]);
  // APIService, which kube-apiserver's aggregator serves in protobuf too.
  out.push([
    'k8s.io/kube-aggregator/pkg/apis/apiregistration/v1',
    join(dirs.get('k8s.io/kube-aggregator')!, 'pkg/apis/apiregistration/v1'),
  ]);
  return out.sort(([a], [b]) => a.localeCompare(b));
}

const STRUCT = /^type (\w+) struct \{\n([\s\S]*?)^\}/gm;
/** `Name Type `tags`` or an embedded `pkg.Type `tags``. */
const FIELD = /^\s*(?:(\w+)\s+)?([\][*\w.]+)\s+`([^`]*)`\s*$/;

/** The Go structs of one package that have protobuf tags, keyed by the proto message's full name. */
function goFields(dir: string, protoPackage: string): Record<string, GoField[]> {
  const out: Record<string, GoField[]> = {};
  for (const file of readdirSync(dir).filter(
    (f) => f.endsWith('.go') && !f.endsWith('_test.go') && !f.startsWith('zz_generated'),
  )) {
    const text = readFileSync(join(dir, file), 'utf8');
    for (const [, name, body] of text.matchAll(STRUCT)) {
      const fields: GoField[] = [];
      for (const line of body!.split('\n')) {
        const m = FIELD.exec(line);
        if (!m) continue;
        const [, fieldName, type, tags] = m;
        const pb = /protobuf:"([^"]*)"/.exec(tags!)?.[1];
        const json = /json:"([^"]*)"/.exec(tags!)?.[1];
        if (!pb || json === undefined) continue;
        const number = Number(pb.split(',')[1]);
        const [jsonName, ...opts] = json.split(',');
        const goName = fieldName ?? type!.replace(/^\*/, '').split('.').pop()!;
        fields.push([
          goName,
          number,
          opts.includes('inline') ? '' : jsonName!,
          type!,
          opts.includes('omitempty') ? 1 : 0,
        ]);
      }
      if (fields.length) out[`${protoPackage}.${name}`] = fields;
    }
  }
  return out;
}

const dirs = download();
rmSync(VENDOR_DIR, { recursive: true, force: true });
const files: string[] = [];
const fields: Record<string, GoField[]> = {};
for (const [importPath, dir] of packages(dirs)) {
  const target = join(VENDOR_DIR, importPath);
  mkdirSync(target, { recursive: true });
  cpSync(join(dir, 'generated.proto'), join(target, 'generated.proto'));
  files.push(`${importPath}/generated.proto`);
  const protoPackage = /^package ([\w.]+);/m.exec(readFileSync(join(dir, 'generated.proto'), 'utf8'))?.[1];
  if (!protoPackage) throw new Error(`${importPath}/generated.proto: no package statement`);
  Object.assign(fields, goFields(dir, protoPackage));
}

const root = new protobuf.Root();
root.resolvePath = (_origin, target) => (target.startsWith('/') ? target : join(VENDOR_DIR, target));
root.loadSync(
  files.map((f) => join(VENDOR_DIR, f)),
  { keepCase: true },
);
root.resolveAll();
writeFileSync(join(VENDOR_DIR, DESCRIPTOR_FILE), JSON.stringify(root.toJSON()));
writeFileSync(join(VENDOR_DIR, GO_FIELDS_FILE), `${JSON.stringify(fields)}\n`);
writeFileSync(join(VENDOR_DIR, 'FILES'), `${files.join('\n')}\n`);
process.stdout.write(
  `vendored ${files.length} .proto files of ${MODULES.join(', ')} ${moduleVersion}; ` +
    `${Object.keys(fields).length} Go structs\n`,
);

import { KUBERNETES_VERSION } from '../../server-defaults.js';
import { STRATEGIC_MERGE_PATCH } from '../../openapi/crd-document.js';
import { crdSchemas } from '../../openapi/crd-schemas.js';
import type { SwaggerDefinitions } from '../../openapi/vendored.js';
import type { JsonObject, ResourceType } from '../../registry/types.js';
import { ProtoWriter } from './proto-writer.js';
import { writeNamedSchemas } from './schema-proto.js';

/**
 * The Swagger 2.0 document kubectl 1.27–1.29 read. They fetch `/openapi/v2` as the gnostic
 * `openapi_v2.Document` protobuf before every `apply`/`create`/`replace`/`edit` with validation on,
 * and cli-runtime's QueryParamVerifier looks for a PATCH operation whose
 * `x-kubernetes-group-version-kind` is the object's GVK and which declares a `fieldValidation` query
 * parameter. When found, kubectl sends `fieldValidation=Strict` and validates nothing itself.
 *
 * `definitions` are the v3 documents' schemas in v2 form: kube-apiserver's own for the built-ins
 * (vendored from its swagger.json) and each CRD's, so the apply patcher and `explain
 * --output=plaintext-openapiv2` see what a real server publishes. Paths carry only the PATCH
 * operations, the one part of them kubectl reads; a client that wants every operation reads v3.
 */
export interface SwaggerDocument {
  swagger: '2.0';
  info: { title: string; version: string };
  paths: Record<string, PathItem>;
  definitions: JsonObject;
}

export interface PathItem {
  patch?: Operation;
  parameters?: Parameter[];
}

export interface GroupVersionKind {
  group: string;
  version: string;
  kind: string;
}

export interface Operation {
  description?: string;
  consumes?: string[];
  produces?: string[];
  schemes?: string[];
  tags?: string[];
  operationId?: string;
  parameters: Parameter[];
  responses: Record<string, { description: string }>;
  'x-kubernetes-action'?: string;
  'x-kubernetes-group-version-kind': GroupVersionKind;
}

export interface Parameter {
  name: string;
  in: 'query' | 'path';
  type: 'string' | 'boolean';
  description?: string;
  required?: boolean;
  uniqueItems?: boolean;
}

export const OPENAPI_V2_INFO = { title: 'Kubernetes', version: `v${KUBERNETES_VERSION}` };

const PATCH_CONSUMES = [
  'application/json-patch+json',
  'application/merge-patch+json',
  STRATEGIC_MERGE_PATCH,
  'application/apply-patch+yaml',
];

export function buildDocument(types: readonly ResourceType[], vendored: SwaggerDefinitions): SwaggerDocument {
  const paths: Record<string, PathItem> = {};
  let definitions: JsonObject = { ...vendored.definitions };
  for (const t of types) {
    paths[itemPath(t)] = { patch: patchOperation(t), parameters: pathParameters(t) };
    if (t.custom) definitions = { ...definitions, ...crdSchemas(t, 'v2', vendored.properties) };
  }
  return { swagger: '2.0', info: { ...OPENAPI_V2_INFO }, paths, definitions };
}

function itemPath(t: ResourceType): string {
  const base = t.group ? `/apis/${t.group}/${t.version}` : `/api/${t.version}`;
  return t.namespaced ? `${base}/namespaces/{namespace}/${t.plural}/{name}` : `${base}/${t.plural}/{name}`;
}

function pathParameters(t: ResourceType): Parameter[] {
  const params: Parameter[] = [
    {
      name: 'name',
      in: 'path',
      type: 'string',
      required: true,
      uniqueItems: true,
      description: `name of the ${t.kind}`,
    },
  ];
  if (t.namespaced)
    params.push({
      name: 'namespace',
      in: 'path',
      type: 'string',
      required: true,
      uniqueItems: true,
      description: 'object name and auth scope, such as for teams and projects',
    });
  return params;
}

function patchOperation(t: ResourceType): Operation {
  const query = (name: string, type: Parameter['type'], description: string): Parameter => ({
    name,
    in: 'query',
    type,
    uniqueItems: true,
    description,
  });
  return {
    description: `partially update the specified ${t.kind}`,
    consumes: t.custom ? PATCH_CONSUMES.filter((c) => c !== STRATEGIC_MERGE_PATCH) : PATCH_CONSUMES,
    produces: ['application/json', 'application/yaml'],
    operationId: `patch${t.namespaced ? 'Namespaced' : ''}${t.kind}`,
    parameters: [
      query('dryRun', 'string', 'When present, indicates that modifications should not be persisted. Valid value: All'),
      query(
        'fieldManager',
        'string',
        'fieldManager is a name associated with the actor or entity that is making these changes.',
      ),
      query('fieldValidation', 'string', 'How the server handles unknown or duplicate fields: Ignore, Warn or Strict.'),
      query(
        'force',
        'boolean',
        'Force is going to "force" Apply requests. It must be unset for non-apply patch requests.',
      ),
    ],
    responses: { '200': { description: 'OK' }, '201': { description: 'Created' } },
    'x-kubernetes-action': 'patch',
    'x-kubernetes-group-version-kind': { group: t.group, version: t.version, kind: t.kind },
  };
}

// Field numbers from gnostic-models openapiv2/OpenAPIv2.proto (package openapi.v2).
const F = {
  Document: { swagger: 1, info: 2, paths: 8, definitions: 9 },
  Info: { title: 1, version: 2 },
  Paths: { vendorExtension: 1, path: 2 },
  NamedPathItem: { name: 1, value: 2 },
  PathItem: { patch: 8, parameters: 9 },
  Operation: {
    tags: 1,
    description: 3,
    operationId: 5,
    produces: 6,
    consumes: 7,
    parameters: 8,
    responses: 9,
    schemes: 10,
    vendorExtension: 13,
  },
  ParametersItem: { parameter: 1 },
  Parameter: { nonBodyParameter: 2 },
  NonBodyParameter: { query: 3, path: 4 },
  // QueryParameterSubSchema and PathParameterSubSchema share 1–4; `type` and `unique_items` differ.
  QueryParameterSubSchema: { required: 1, in: 2, description: 3, name: 4, type: 6, uniqueItems: 20 },
  PathParameterSubSchema: { required: 1, in: 2, description: 3, name: 4, type: 5, uniqueItems: 19 },
  Responses: { responseCode: 1 },
  NamedResponseValue: { name: 1, value: 2 },
  ResponseValue: { response: 1 },
  Response: { description: 1 },
  NamedAny: { name: 1, value: 2 },
  Any: { yaml: 2 },
} as const;

/** Encodes the document as the gnostic `openapi_v2.Document` protobuf message. */
export function encodeDocument(doc: SwaggerDocument): Buffer {
  const w = new ProtoWriter();
  w.string(F.Document.swagger, doc.swagger);
  w.message(F.Document.info, (i) => i.string(F.Info.title, doc.info.title).string(F.Info.version, doc.info.version));
  w.message(F.Document.paths, (p) => {
    for (const [name, item] of Object.entries(doc.paths)) {
      p.message(F.Paths.path, (np) =>
        np.string(F.NamedPathItem.name, name).message(F.NamedPathItem.value, (pi) => writePathItem(pi, item)),
      );
    }
  });
  w.message(F.Document.definitions, (d) => writeNamedSchemas(d, 1, doc.definitions)); // Definitions.additional_properties
  return w.finish();
}

function writePathItem(w: ProtoWriter, item: PathItem): void {
  if (item.patch) w.message(F.PathItem.patch, (o) => writeOperation(o, item.patch!));
  for (const p of item.parameters ?? []) w.message(F.PathItem.parameters, (pi) => writeParametersItem(pi, p));
}

function writeOperation(w: ProtoWriter, op: Operation): void {
  w.strings(F.Operation.tags, op.tags);
  w.string(F.Operation.description, op.description);
  w.string(F.Operation.operationId, op.operationId);
  w.strings(F.Operation.produces, op.produces);
  w.strings(F.Operation.consumes, op.consumes);
  for (const p of op.parameters) w.message(F.Operation.parameters, (pi) => writeParametersItem(pi, p));
  w.message(F.Operation.responses, (r) => {
    for (const [code, resp] of Object.entries(op.responses)) {
      r.message(F.Responses.responseCode, (nr) =>
        nr
          .string(F.NamedResponseValue.name, code)
          .message(F.NamedResponseValue.value, (rv) =>
            rv.message(F.ResponseValue.response, (x) => x.string(F.Response.description, resp.description)),
          ),
      );
    }
  });
  w.strings(F.Operation.schemes, op.schemes);
  if (op['x-kubernetes-action'])
    writeExtension(w, F.Operation.vendorExtension, 'x-kubernetes-action', yamlString(op['x-kubernetes-action']));
  writeExtension(
    w,
    F.Operation.vendorExtension,
    'x-kubernetes-group-version-kind',
    gvkYaml(op['x-kubernetes-group-version-kind']),
  );
}

function writeParametersItem(w: ProtoWriter, p: Parameter): void {
  const s = p.in === 'query' ? F.QueryParameterSubSchema : F.PathParameterSubSchema;
  const which = p.in === 'query' ? F.NonBodyParameter.query : F.NonBodyParameter.path;
  w.message(F.ParametersItem.parameter, (param) =>
    param.message(F.Parameter.nonBodyParameter, (nb) =>
      nb.message(which, (x) => {
        x.bool(s.required, p.required);
        x.string(s.in, p.in);
        x.string(s.description, p.description);
        x.string(s.name, p.name);
        x.string(s.type, p.type);
        x.bool(s.uniqueItems, p.uniqueItems);
      }),
    ),
  );
}

/** A vendor extension is a NamedAny whose Any carries the value as YAML text (gnostic's encoding). */
function writeExtension(w: ProtoWriter, field: number, name: string, yaml: string): void {
  w.message(field, (na) =>
    na.string(F.NamedAny.name, name).message(F.NamedAny.value, (a) => a.string(F.Any.yaml, yaml)),
  );
}

/** Same text kube-apiserver produces, e.g. `group: ""\nkind: Namespace\nversion: v1\n`. */
export function gvkYaml(gvk: GroupVersionKind): string {
  return `group: ${yamlString(gvk.group)}kind: ${yamlString(gvk.kind)}version: ${yamlString(gvk.version)}`;
}

/** A YAML scalar line: plain when safe, double-quoted (JSON escaping is valid YAML) otherwise. */
function yamlString(s: string): string {
  const plain = /^[A-Za-z][A-Za-z0-9.\-_/]*$/.test(s) && !/^(true|false|yes|no|on|off|null|y|n)$/i.test(s);
  return `${plain ? s : JSON.stringify(s)}\n`;
}

import { isObject } from '../objects/meta.js';
import type { JsonObject, ResourceType } from '../registry/types.js';
import type { TypeMetaProperties } from './vendored.js';

export type OpenApiFlavour = 'v2' | 'v3';

/** `example.com/v1/Widget` → `com.example.v1.Widget` (kube-openapi's util.ToRESTFriendlyName). */
export function crdSchemaName(t: Pick<ResourceType, 'group' | 'version'>, kind: string): string {
  return [t.group.split('.').reverse().join('.'), t.version, kind].join('.');
}

export const refPrefix = (flavour: OpenApiFlavour): string =>
  flavour === 'v3' ? '#/components/schemas/' : '#/definitions/';

/**
 * A CRD version's object and list schemas as apiextensions-apiserver's openapi builder writes them
 * (pkg/controller/openapi/builder buildKubeNative, buildListSchema): the openAPIV3Schema with
 * apiVersion, kind and metadata replaced by the standard ones and the GVK extension. For v2 the schema
 * is first made what v2 can say (pkg/controller/openapi/v2 ToStructuralOpenAPIV2), and a schema that
 * keeps unknown fields at its root is published as a bare object, because kubectl's v2 validation
 * would otherwise reject every field the schema does not list.
 */
export function crdSchemas(
  t: ResourceType,
  flavour: OpenApiFlavour,
  meta: TypeMetaProperties,
): Record<string, JsonObject> {
  const name = crdSchemaName(t, t.kind);
  const gvk = (kind: string): JsonObject => ({
    'x-kubernetes-group-version-kind': [{ group: t.group, kind, version: t.version }],
  });
  const declared = t.schema;
  let object: JsonObject;
  if (!declared || (flavour === 'v2' && declared['x-kubernetes-preserve-unknown-fields'] === true))
    object = { type: 'object' };
  else {
    const base = flavour === 'v2' ? toOpenApiV2(declared) : declared;
    const properties = {
      ...((base.properties as JsonObject | undefined) ?? {}),
      apiVersion: meta.apiVersion,
      kind: meta.kind,
      metadata: meta.metadata,
    };
    object = { ...base, properties };
  }
  const list: JsonObject = {
    description: `${t.listKind} is a list of ${t.kind}`,
    properties: {
      apiVersion: meta.apiVersion,
      items: {
        description: `List of ${t.plural}. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md`,
        type: 'array',
        items: { $ref: `${refPrefix(flavour)}${name}` },
      },
      kind: meta.kind,
      metadata: meta.listMetadata,
    },
    required: ['items'],
    type: 'object',
  };
  return { [name]: { ...object, ...gvk(t.kind) }, [crdSchemaName(t, t.listKind)]: { ...list, ...gvk(t.listKind) } };
}

const V2_UNSUPPORTED = new Set(['allOf', 'oneOf', 'anyOf', 'not', 'nullable']);

/** What OpenAPI v2 (and kubectl's v2 validation) can take of a structural schema, recursively. */
function toOpenApiV2(s: JsonObject): JsonObject {
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(s)) if (!V2_UNSUPPORTED.has(k)) out[k] = v;
  // An untyped value (nullable, int-or-string, unknown fields) with properties or items breaks kubectl.
  if (s.nullable === true || s['x-kubernetes-int-or-string'] === true) delete out.type;
  if (s.nullable === true || s['x-kubernetes-preserve-unknown-fields'] === true) {
    delete out.properties;
    delete out.items;
  }
  if (isObject(out.properties))
    out.properties = Object.fromEntries(
      Object.entries(out.properties).map(([k, v]) => [k, isObject(v) ? toOpenApiV2(v) : v]),
    );
  if (isObject(out.items)) out.items = toOpenApiV2(out.items);
  if (isObject(out.additionalProperties)) out.additionalProperties = toOpenApiV2(out.additionalProperties);
  return out;
}

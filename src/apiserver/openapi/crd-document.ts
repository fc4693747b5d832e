import type { JsonObject, ResourceType } from '../registry/types.js';
import { crdSchemaName, crdSchemas } from './crd-schemas.js';
import type { CrdMeta, CrdPathTemplate } from './vendored.js';

/**
 * The v3 document of a group-version served by CRDs, as kube-apiserver merges it from each CRD's
 * (apiextensions-apiserver BuildOpenAPIV3): every kind's paths, its object and list schemas, and the
 * apimachinery schemas they refer to. The operations are upstream's own, instantiated per kind.
 */
export function crdDocument(types: readonly ResourceType[], meta: CrdMeta, kubernetesVersion: string): JsonObject {
  const paths: JsonObject = {};
  let schemas: JsonObject = { ...meta.schemas };
  for (const t of types) {
    schemas = { ...schemas, ...crdSchemas(t, 'v3', meta.properties) };
    const base = `/apis/${t.group}/${t.version}`;
    const scoped = t.namespaced ? `${base}/namespaces/{namespace}/${t.plural}` : `${base}/${t.plural}`;
    const add = (path: string, template: CrdPathTemplate): void => {
      paths[path] = instantiate(meta.paths[template], t);
    };
    add(scoped, 'collection');
    add(`${scoped}/{name}`, 'item');
    if (t.statusSubresource) add(`${scoped}/{name}/status`, 'status');
    if (t.scaleSubresource) add(`${scoped}/{name}/scale`, 'scale');
    if (t.namespaced) add(`${base}/${t.plural}`, 'allNamespaces');
  }
  return {
    openapi: '3.0.0',
    info: { title: 'Kubernetes CRD Swagger', version: `v${kubernetesVersion}` },
    paths,
    components: { schemas },
  };
}

/** A template from Deployment's operations, made this kind's (and cluster-scoped where the kind is). */
function instantiate(template: JsonObject, t: ResourceType): JsonObject {
  const values: Record<string, string> = {
    Kind: t.kind,
    schema: crdSchemaName(t, t.kind),
    listSchema: crdSchemaName(t, t.listKind),
    OpGroupVersion: `${t.group.split(/[.-]/).map(capitalize).join('')}${capitalize(t.version)}`,
    tag: `${camel(t.group)}_${t.version}`,
    group: t.group,
    version: t.version,
  };
  let text = JSON.stringify(template);
  if (!t.namespaced) text = text.replaceAll('Namespaced{{Kind}}', '{{Kind}}');
  text = text.replace(/\{\{(\w+)\}\}/g, (_, key: string) => JSON.stringify(values[key] ?? '').slice(1, -1));
  const item = JSON.parse(text) as JsonObject;
  // Cluster-scoped kinds have no namespace in their path, so no namespace path parameter.
  if (!t.namespaced && Array.isArray(item.parameters))
    item.parameters = item.parameters.filter((p) => (p as JsonObject).name !== 'namespace');
  // Custom resources take no strategic merge patch. kubectl reads this list: when it names strategic
  // merge, client-side apply sends one (and gets 415).
  const content = ((item.patch as JsonObject | undefined)?.requestBody as JsonObject | undefined)?.content as
    | JsonObject
    | undefined;
  if (content) delete content[STRATEGIC_MERGE_PATCH];
  return item;
}

export const STRATEGIC_MERGE_PATCH = 'application/strategic-merge-patch+json';

const capitalize = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);
const camel = (group: string): string =>
  group
    .split(/[.-]/)
    .map((p, i) => (i === 0 ? p : capitalize(p)))
    .join('');

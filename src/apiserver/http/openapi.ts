import { createHash } from 'node:crypto';
import type { ResourceRegistry } from '../registry/resource-registry.js';
import type { ResourceType } from '../registry/types.js';

/**
 * The smallest OpenAPI v3 that lets the default `kubectl apply` (validation on) hand validation to
 * the server: each built-in group/version declares a PATCH operation per kind with a
 * `fieldValidation` parameter. CRD groups are left out on purpose: kubectl then checks the
 * Namespace PATCH operation in api/v1 instead (research/kube-api-surface.md §4).
 */
export class OpenApiV3 {
  private cache: { version: number; docs: Map<string, { text: string; hash: string }> } | undefined;

  constructor(private readonly registry: ResourceRegistry) {}

  index(): object {
    const paths: Record<string, { serverRelativeURL: string }> = {};
    for (const [path, doc] of this.docs()) paths[path] = { serverRelativeURL: `/openapi/v3/${path}?hash=${doc.hash}` };
    return { paths };
  }

  document(path: string): string | undefined {
    return this.docs().get(path)?.text;
  }

  private docs(): Map<string, { text: string; hash: string }> {
    if (this.cache?.version === this.registry.version) return this.cache.docs;
    const byGv = new Map<string, ResourceType[]>();
    for (const t of this.registry.all()) {
      if (t.custom) continue;
      const path = t.group ? `apis/${t.group}/${t.version}` : `api/${t.version}`;
      byGv.set(path, [...(byGv.get(path) ?? []), t]);
    }
    const docs = new Map<string, { text: string; hash: string }>();
    for (const [path, types] of byGv) {
      const paths: Record<string, object> = {};
      for (const t of types) paths[itemPath(t)] = { patch: patchOperation(t) };
      const text = JSON.stringify({ openapi: '3.0.0', info: { title: 'Kubernetes', version: 'v1.32.0' }, components: { schemas: {} }, paths });
      docs.set(path, { text, hash: createHash('sha512').update(text).digest('hex').slice(0, 32).toUpperCase() });
    }
    this.cache = { version: this.registry.version, docs };
    return docs;
  }
}

function itemPath(t: ResourceType): string {
  const base = t.group ? `/apis/${t.group}/${t.version}` : `/api/${t.version}`;
  return t.namespaced ? `${base}/namespaces/{namespace}/${t.plural}/{name}` : `${base}/${t.plural}/{name}`;
}

function patchOperation(t: ResourceType): object {
  return {
    'x-kubernetes-group-version-kind': { group: t.group, version: t.version, kind: t.kind },
    parameters: [
      { name: 'dryRun', in: 'query', schema: { type: 'string' } },
      { name: 'fieldManager', in: 'query', schema: { type: 'string' } },
      { name: 'fieldValidation', in: 'query', schema: { type: 'string' } },
      { name: 'force', in: 'query', schema: { type: 'boolean' } },
    ],
    responses: { '200': { description: 'OK' } },
  };
}

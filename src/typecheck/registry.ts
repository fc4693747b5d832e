// The schemas a set of files is checked against: the CRDs in those same files (or commit), and
// kube-apiserver 1.34's own documents for built-in kinds. A kind found in neither has no schema,
// and nothing is claimed about it.

import { createHash } from 'node:crypto';
import { vendoredOpenApi } from '../apiserver/openapi/vendored.js';
import { isJson, tyOf, type Json, type Schema } from './schema.js';
import { UNKNOWN, type Ty } from './types.js';

const OBJECT_META = '#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta';

/** Where `.Children.<Kind>` looks when no manifest of the Flow names the kind's apiVersion. */
const COMMON_BUILTINS: Record<string, string> = {
  ConfigMap: 'v1',
  Secret: 'v1',
  Service: 'v1',
  Pod: 'v1',
  ServiceAccount: 'v1',
  PersistentVolumeClaim: 'v1',
  Namespace: 'v1',
  Deployment: 'apps/v1',
  StatefulSet: 'apps/v1',
  DaemonSet: 'apps/v1',
  ReplicaSet: 'apps/v1',
  Job: 'batch/v1',
  CronJob: 'batch/v1',
  Ingress: 'networking.k8s.io/v1',
  NetworkPolicy: 'networking.k8s.io/v1',
  Role: 'rbac.authorization.k8s.io/v1',
  RoleBinding: 'rbac.authorization.k8s.io/v1',
  HorizontalPodAutoscaler: 'autoscaling/v2',
  PodDisruptionBudget: 'policy/v1',
};

function splitApiVersion(apiVersion: string): { group: string; version: string } {
  const slash = apiVersion.indexOf('/');
  return slash < 0
    ? { group: '', version: apiVersion }
    : { group: apiVersion.slice(0, slash), version: apiVersion.slice(slash + 1) };
}

/** GA before beta before alpha, as kube-apiserver prefers a group's versions. */
function stability(version: string): number {
  return /^v\d+$/.test(version) ? 0 : version.includes('beta') ? 1 : 2;
}

export class SchemaRegistry {
  private readonly crds = new Map<string, Json | null>();
  private readonly types = new Map<string, Ty>();
  /** Every kind's schema once looked up: a commit's Flows ask for the same few kinds thousands of times. */
  private readonly schemas = new Map<string, Schema | undefined>();

  private hash: string | undefined;

  /** `objects`: every document of the files; those that are CRDs contribute their versions' schemas. */
  constructor(objects: readonly unknown[]) {
    for (const o of objects) if (isJson(o) && o.kind === 'CustomResourceDefinition') this.addCrd(o);
  }

  private addCrd(crd: Json): void {
    const spec = isJson(crd.spec) ? crd.spec : {};
    const names = isJson(spec.names) ? spec.names : {};
    if (typeof spec.group !== 'string' || typeof names.kind !== 'string' || !Array.isArray(spec.versions)) return;
    for (const v of spec.versions) {
      if (!isJson(v) || typeof v.name !== 'string') continue;
      const schema = isJson(v.schema) && isJson(v.schema.openAPIV3Schema) ? v.schema.openAPIV3Schema : null;
      this.crds.set(`${spec.group}/${v.name}/${names.kind}`, schema);
    }
  }

  /**
   * A hash of the CRD schemas it holds (the built-in kinds are the same in every registry): two
   * registries with the same fingerprint check every file alike, so results may be kept by it.
   */
  get fingerprint(): string {
    if (this.hash === undefined) {
      const h = createHash('sha256');
      for (const [key, schema] of this.crds) h.update(`${key}\u0000${JSON.stringify(schema)}\u0000`);
      this.hash = h.digest('hex');
    }
    return this.hash;
  }

  /** Whether a schema is known for the kind (a CRD of these files, or a vendored built-in). */
  schemaOf(apiVersion: string, kind: string): Schema | undefined {
    const cacheKey = `${apiVersion}\u0000${kind}`;
    if (this.schemas.has(cacheKey)) return this.schemas.get(cacheKey);
    const schema = this.lookUp(apiVersion, kind);
    this.schemas.set(cacheKey, schema);
    return schema;
  }

  private lookUp(apiVersion: string, kind: string): Schema | undefined {
    const { group, version } = splitApiVersion(apiVersion);
    const key = `${group}/${version}/${kind}`;
    if (this.crds.has(key)) {
      const node = this.crds.get(key);
      // A root that is not an object schema says nothing usable: the kind's type is unknown.
      if (
        !node ||
        (node.type !== undefined && node.type !== 'object') ||
        (node.properties !== undefined && !isJson(node.properties))
      )
        return undefined;
      const props = isJson(node.properties) ? node.properties : {};
      const open = node.properties === undefined ? { 'x-kubernetes-preserve-unknown-fields': true } : {};
      // The API server gives every custom object apiVersion, kind and a full ObjectMeta, whatever the CRD says.
      const root = {
        ...node,
        ...open,
        type: 'object',
        properties: {
          ...props,
          apiVersion: { type: 'string' },
          kind: { type: 'string' },
          metadata: { $ref: OBJECT_META },
        },
      };
      return { node: root, defs: vendoredOpenApi.crdMeta().schemas };
    }
    if (group.includes('.') && !group.endsWith('.k8s.io')) return undefined;
    const found = vendoredOpenApi.kindSchema(group, version, kind);
    return found ? { node: found.root, defs: found.schemas } : undefined;
  }

  tyOf(apiVersion: string, kind: string): Ty {
    const key = `${apiVersion}/${kind}`;
    let ty = this.types.get(key);
    if (!ty)
      this.types.set(
        key,
        (ty = ((schema) => (schema ? tyOf(schema, kind) : UNKNOWN))(this.schemaOf(apiVersion, kind))),
      );
    return ty;
  }

  /**
   * The version of `group` an Operator's source without one reads (the API server's preferred one):
   * a CRD's first version listed, else a built-in group's most stable version serving the kind.
   */
  versionOf(group: string, kind: string): string | undefined {
    for (const key of this.crds.keys()) {
      const [g, version, k] = key.split('/');
      if (g === group && k === kind) return version;
    }
    if (group.includes('.') && !group.endsWith('.k8s.io')) return undefined;
    const prefix = group ? `apis/${group}/` : 'api/';
    const versions = Object.keys(vendoredOpenApi.manifest().v3)
      .filter((p) => p.startsWith(prefix) && !p.slice(prefix.length).includes('/'))
      .map((p) => p.slice(prefix.length))
      .sort((a, b) => stability(a) - stability(b));
    return versions.find((v) => vendoredOpenApi.kindSchema(group, v, kind) !== undefined);
  }

  /** The apiVersion a bare kind name most likely means, from these files' CRDs or the common built-ins. */
  apiVersionOfKind(kind: string): string | undefined {
    for (const key of this.crds.keys()) {
      const [group, version, k] = key.split('/');
      if (k === kind) return `${group}/${version}`;
    }
    return COMMON_BUILTINS[kind];
  }
}

import type { KubeObject } from './types.js';

/** The kinds a CustomResourceDefinition serves, one per version: `{ apiVersion: group/version, kind }`. */
export function crdKinds(crd: KubeObject): Array<{ apiVersion: string; kind: string }> {
  const spec = crd.spec as
    | { group?: string; names?: { kind?: string }; versions?: Array<{ name?: string }> }
    | undefined;
  const kind = spec?.names?.kind;
  if (!spec?.group || !kind) return [];
  return (spec.versions ?? []).filter((v) => v.name).map((v) => ({ apiVersion: `${spec.group}/${v.name}`, kind }));
}

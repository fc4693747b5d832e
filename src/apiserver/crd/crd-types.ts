import type { JsonObject, PrinterColumn, ResourceType } from '../registry/types.js';
import { isObject } from '../objects/meta.js';

const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);

/** The resources one CustomResourceDefinition serves: one per served version. */
export function typesFromCrd(crd: JsonObject): ResourceType[] {
  const spec = isObject(crd.spec) ? crd.spec : {};
  const names = isObject(spec.names) ? spec.names : {};
  const group = String(spec.group ?? '');
  const kind = String(names.kind ?? '');
  const plural = String(names.plural ?? '');
  const versions = Array.isArray(spec.versions) ? spec.versions.filter(isObject) : [];
  return versions
    .filter((v) => v.served !== false)
    .map((v) => {
      const schema = isObject(v.schema) && isObject(v.schema.openAPIV3Schema) ? v.schema.openAPIV3Schema : undefined;
      const subresources = isObject(v.subresources) ? v.subresources : {};
      const t: ResourceType = {
        group,
        version: String(v.name),
        kind,
        listKind: typeof names.listKind === 'string' ? names.listKind : `${kind}List`,
        plural,
        singular: typeof names.singular === 'string' && names.singular ? names.singular : kind.toLowerCase(),
        namespaced: spec.scope !== 'Cluster',
        shortNames: strings(names.shortNames),
        categories: strings(names.categories),
        statusSubresource: subresources.status !== undefined,
        custom: true,
        tracksGeneration: true,
      };
      if (schema) t.schema = schema;
      const scale = isObject(subresources.scale) ? subresources.scale : undefined;
      if (scale && typeof scale.specReplicasPath === 'string' && typeof scale.statusReplicasPath === 'string') {
        t.scaleSubresource = {
          specReplicasPath: scale.specReplicasPath,
          statusReplicasPath: scale.statusReplicasPath,
          ...(typeof scale.labelSelectorPath === 'string' ? { labelSelectorPath: scale.labelSelectorPath } : {}),
        };
      }
      const columns = Array.isArray(v.additionalPrinterColumns) ? v.additionalPrinterColumns.filter(isObject) : [];
      if (columns.length) t.printerColumns = columns.map(toColumn);
      return t;
    });
}

function toColumn(c: JsonObject): PrinterColumn {
  const col: PrinterColumn = {
    name: String(c.name),
    type: String(c.type ?? 'string'),
    jsonPath: String(c.jsonPath ?? ''),
  };
  if (typeof c.description === 'string') col.description = c.description;
  if (typeof c.format === 'string') col.format = c.format;
  if (typeof c.priority === 'number') col.priority = c.priority;
  return col;
}

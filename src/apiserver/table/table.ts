import type { JsonObject, JsonValue, PrinterColumn, ResourceType } from '../registry/types.js';
import { builtinColumns, nameColumn, type Column } from './builtin-columns.js';
import { ageOf } from './human-duration.js';
import { partialObjectMetadata } from '../objects/meta.js';
import { evalKubectlPath } from '../../jsonpath/index.js';

export type IncludeObject = 'None' | 'Metadata' | 'Object';

const NAME_COLUMN = nameColumn();
/** What a CRD version without printer columns shows besides the name. */
const CUSTOM_DEFAULT: PrinterColumn[] = [{ name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' }];

/** Does the Accept header ask for a meta.k8s.io Table (kubectl get does)? */
export function wantsTable(accept: string | undefined): boolean {
  return !!accept && /as=Table/.test(accept.split(',')[0] ?? '');
}

export function columnsFor(t: ResourceType): Column[] {
  if (!t.custom) {
    const builtin = builtinColumns(t.group, t.kind);
    if (builtin) return builtin;
  }
  return [NAME_COLUMN, ...(t.printerColumns?.length ? t.printerColumns : CUSTOM_DEFAULT).map(fromPrinterColumn)];
}

function fromPrinterColumn(c: PrinterColumn): Column {
  const type = ['integer', 'number', 'boolean', 'date'].includes(c.type) ? c.type : 'string';
  return {
    name: c.name,
    type,
    format: c.format ?? '',
    priority: c.priority ?? 0,
    // apiextensions-apiserver's tableconvertor describes an undescribed column by its path.
    description: c.description || `Custom resource definition column (in JSONPath format): ${c.jsonPath}`,
    cell: (o) => {
      let values: JsonValue[];
      try {
        values = evalKubectlPath(o, c.jsonPath) as JsonValue[]; // read out of a JSON object
      } catch {
        return '<error>';
      }
      if (!values.length) return null;
      const v =
        values.length === 1
          ? values[0]!
          : values.map((x) => (typeof x === 'object' ? JSON.stringify(x) : String(x))).join(',');
      if (type === 'date') return ageOf(v);
      if (typeof v === 'object' && v !== null) return JSON.stringify(v);
      return v;
    },
  };
}

export interface TableOptions {
  includeObject: IncludeObject;
  /** A watch sends the column definitions once; later events carry null. */
  withColumns: boolean;
  resourceVersion?: string;
  continueToken?: string;
  remainingItemCount?: number;
}

export function toTable(t: ResourceType, objects: JsonObject[], opts: TableOptions): JsonObject {
  const cols = columnsFor(t);
  const rows = objects.map((o) => {
    const row: JsonObject = { cells: cols.map((c) => c.cell(o) ?? null) };
    if (opts.includeObject === 'None') row.object = null;
    else if (opts.includeObject === 'Object') row.object = o;
    else row.object = partialObjectMetadata(t, o);
    return row;
  });
  const metadata: JsonObject = {};
  if (opts.resourceVersion) metadata.resourceVersion = opts.resourceVersion;
  if (opts.continueToken) metadata.continue = opts.continueToken;
  if (opts.remainingItemCount !== undefined) metadata.remainingItemCount = opts.remainingItemCount;
  return {
    kind: 'Table',
    apiVersion: 'meta.k8s.io/v1',
    metadata,
    columnDefinitions: opts.withColumns
      ? cols.map((c) => ({
          name: c.name,
          type: c.type,
          format: c.format,
          description: c.description,
          priority: c.priority,
        }))
      : null,
    rows,
  };
}

export function includeObjectParam(q: URLSearchParams): IncludeObject {
  const v = q.get('includeObject');
  return v === 'None' || v === 'Object' ? v : 'Metadata';
}

import { readFileSync } from 'node:fs';
import { parseAllDocuments } from 'yaml';
import { OPERATOR_KIND } from './types.js';
import { OperatorError } from './errors.js';

export interface OperatorDoc {
  metadata: { name: string };
  spec: unknown;
}

/** Every YAML/JSON document of a file, flattening Kubernetes Lists and top-level arrays. */
export function loadObjects(file: string): Array<Record<string, unknown>> {
  const out: Array<Record<string, unknown>> = [];
  for (const doc of parseAllDocuments(readFileSync(file, 'utf8'))) {
    if (doc.errors.length) throw new OperatorError('InvalidFile', `${file}: ${doc.errors[0]!.message}`);
    flatten(doc.toJS() as unknown, out);
  }
  return out;
}

function flatten(v: unknown, out: Array<Record<string, unknown>>): void {
  if (Array.isArray(v)) for (const x of v) flatten(x, out);
  else if (v && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    if (typeof o.kind === 'string' && o.kind.endsWith('List') && Array.isArray(o.items)) flatten(o.items, out);
    else out.push(o);
  }
}

/** The Operators in a file (other documents are ignored). */
export function loadOperators(file: string): OperatorDoc[] {
  const ops = loadObjects(file).filter((o) => o.kind === OPERATOR_KIND) as unknown as OperatorDoc[];
  if (ops.length === 0) throw new OperatorError('InvalidFile', `${file}: no Operator found`);
  for (const op of ops)
    if (typeof op.metadata?.name !== 'string')
      throw new OperatorError('InvalidFile', `${file}: an Operator has no metadata.name`);
  return ops;
}

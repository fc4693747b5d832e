// The template type checker: every template of a Flow checked against the schemas of what it reads
// (the watched kind, earlier steps' outputs, the children), and every kubectl manifest against its
// kind's schema; an Operator's pipeline expressions against its sources' schemas. Used by `flowops
// validate`, a Git commit's validation, `flowops render` and the admission webhook.

import { isMap, LineCounter, parseAllDocuments, type Document } from 'yaml';
import { formatPath, formatValidationError, type ValidationError, type ParsedYaml, YamlLocator } from '../api/index.js';
import { checkFlow } from './check-flow.js';
import { checkOperator } from './check-operator.js';
import { cachedFindings } from './file-cache.js';
import { SchemaRegistry } from './registry.js';

export { checkFlow, type TypeProblem } from './check-flow.js';
export { checkOperator } from './check-operator.js';
export { SchemaRegistry } from './registry.js';

export interface TypeFinding extends ValidationError {
  severity: 'error' | 'warning';
}

export interface SourceFile {
  path: string;
  text: string;
  /** The file as validateFlowFile parsed it: not parsed again. */
  parsed?: ParsedYaml;
}

interface ParsedFile {
  path: string;
  text: string;
  counter: LineCounter;
  docs: Document[];
  flows?: Map<Document, unknown>;
}

function parseFile(file: SourceFile): ParsedFile {
  if (file.parsed) return { path: file.path, text: file.text, ...file.parsed };
  const counter = new LineCounter();
  const docs = parseAllDocuments(file.text, { lineCounter: counter, merge: true });
  return { path: file.path, text: file.text, counter, docs: Array.isArray(docs) ? docs : [] };
}

/** An Operator (dcontroller.io): its pipelines' expressions are checked too. */
function isOperator(doc: Document): boolean {
  return (
    isMap(doc.contents) &&
    doc.contents.get('kind') === 'Operator' &&
    String(doc.contents.get('apiVersion')).startsWith('dcontroller.io/')
  );
}

/** Whether a file may hold an Operator, before it is parsed: most files of a commit do not. */
export function mayHoldOperator(text: string): boolean {
  return text.includes('dcontroller.io/');
}

function isFlow(doc: Document): boolean {
  return (
    isMap(doc.contents) &&
    doc.contents.get('kind') === 'Flow' &&
    String(doc.contents.get('apiVersion') ?? 'flowops.io/v1').startsWith('flowops.io/')
  );
}

const CRD_KIND = 'CustomResourceDefinition';

/** The CRDs among the files' documents (only those are turned into data: a chart's templates may not be plain YAML). */
function crdsOf(files: readonly ParsedFile[]): unknown[] {
  return files.flatMap((f) =>
    f.docs
      .filter((d) => d.errors.length === 0 && isMap(d.contents) && d.contents.get('kind') === CRD_KIND)
      .map((d) => d.toJS({ maxAliasCount: 100 }) as unknown),
  );
}

/**
 * The CRDs of files read for their schemas only. A JSON file is read as JSON: the YAML parser takes
 * seconds on a large flow-style document, JSON.parse milliseconds.
 */
function contextCrds(files: readonly SourceFile[]): unknown[] {
  const out: unknown[] = [];
  for (const f of files) {
    if (!f.text.includes(CRD_KIND)) continue;
    if (!f.parsed && f.text.trimStart().startsWith('{')) {
      try {
        out.push(JSON.parse(f.text) as unknown);
        continue;
      } catch {
        // Not JSON after all: read as YAML below.
      }
    }
    out.push(...crdsOf([parseFile(f)]));
  }
  return out;
}

function crdName(crd: unknown): string | undefined {
  if (typeof crd !== 'object' || crd === null || !('metadata' in crd)) return undefined;
  const meta = crd.metadata;
  return typeof meta === 'object' && meta !== null && 'name' in meta && typeof meta.name === 'string'
    ? meta.name
    : undefined;
}

/**
 * The schemas for a set of files: the CRDs among them, the server's CRDs (`serverCrds`, as listed)
 * where the files have none of that name (a commit's own CRD replaces the server's whole, as
 * applying it will), and the vendored built-in kinds.
 */
export function schemaRegistryOf(files: readonly SourceFile[], serverCrds: readonly unknown[] = []): SchemaRegistry {
  const own = contextCrds(files);
  const names = new Set(own.map(crdName));
  return new SchemaRegistry([...serverCrds.filter((c) => !names.has(crdName(c))), ...own]);
}

/** Type-checks the Flows of one file against `registry` (once per content and schemas: file-cache.ts). */
export function typecheckFile(file: SourceFile, registry: SchemaRegistry): TypeFinding[] {
  return cachedFindings(file.path, file.text, registry, () => checkFile(file, registry));
}

function checkFile(file: SourceFile, registry: SchemaRegistry): TypeFinding[] {
  const parsedFile = parseFile(file);
  // Made only for a file with findings: most have none.
  let locator: YamlLocator | undefined;
  const out: TypeFinding[] = [];
  for (const doc of parsedFile.docs) {
    if (doc.errors.length) continue;
    const flow = isFlow(doc);
    if (!flow && !isOperator(doc)) continue;
    const value: unknown = (flow ? parsedFile.flows?.get(doc) : undefined) ?? doc.toJS({ maxAliasCount: 100 });
    for (const p of flow ? checkFlow(value, registry) : checkOperator(value, registry)) {
      locator ??= new YamlLocator(parsedFile.text, parsedFile.counter);
      const { line, column } = locator.locate(doc, p);
      const message = p.severity === 'warning' ? `warning: ${p.message}` : p.message;
      const field = formatPath(p.path);
      out.push({ file: file.path, line, column, columnExact: true, field, message, severity: p.severity });
    }
  }
  return out;
}

/**
 * Type-checks the Flows of `files`. CRDs are taken from `files` and `context` (the rest of the
 * commit or of the paths given); built-in kinds from the vendored kube-apiserver documents.
 */
export function typecheckFiles(files: readonly SourceFile[], context: readonly SourceFile[] = []): TypeFinding[] {
  const registry = schemaRegistryOf([...files, ...context]);
  return files.flatMap((f) => typecheckFile(f, registry));
}

/** `file:line:column: field: problem`, a warning's problem starting `warning: `. */
export function formatTypeFinding(f: TypeFinding): string {
  return formatValidationError(f);
}

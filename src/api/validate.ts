import { isMap, LineCounter, parseAllDocuments, type Document } from 'yaml';
import { FLOW_GROUP, FLOW_KIND, flowSchema, type Flow } from './flow.js';
import { formatPath, type FieldProblem } from './problem.js';
import { semanticProblems } from './semantic.js';
import { compareValidationErrors, FlowValidationError, type ValidationError } from './validation-error.js';
import { YamlLocator } from './yaml-positions.js';
import { zodProblems } from './zod-issues.js';

export {
  compareValidationErrors,
  FlowValidationError,
  formatValidationError,
  type ValidationError,
} from './validation-error.js';

/** Everything wrong with one Flow object, zod's findings first, then the rules zod cannot state. */
function flowProblems(obj: unknown): FieldProblem[] {
  const parsed = flowSchema.safeParse(obj, { reportInput: true });
  const problems = [...(parsed.success ? [] : zodProblems(parsed.error.issues)), ...semanticProblems(obj)];
  const seen = new Set<string>();
  return problems.filter((p) => {
    // The same problem at two places in one script is two problems.
    const key = `${formatPath(p.path)}\u0000${p.message}\u0000${p.inner?.line ?? ''}:${p.inner?.column ?? ''}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** For live objects (the controller): the same checks as for files, without positions. */
export function validateFlow(obj: unknown): ValidationError[] {
  return flowProblems(obj).map((p) => ({
    file: '',
    line: 0,
    column: 0,
    field: formatPath(p.path),
    message: p.message,
  }));
}

/** A typed Flow, or a FlowValidationError listing every problem. */
export function parseFlow(obj: unknown): Flow {
  const errors = validateFlow(obj);
  if (errors.length) throw new FlowValidationError(errors);
  return flowSchema.parse(obj);
}

export interface FileValidation {
  /** Documents in the file that are Flows. */
  flows: number;
  errors: ValidationError[];
}

export interface ParsedFileValidation extends FileValidation {
  /** The file as parsed, for checks that run after this one (the type check) to reuse. */
  parsed: ParsedYaml;
}

export interface ParsedYaml {
  docs: Document[];
  counter: LineCounter;
  /** The Flow documents as data (toJS), for a later check to use instead of converting again. */
  flows?: Map<Document, unknown>;
}

/**
 * Only Flows are checked: a repository of operators also holds their CRDs and examples. A
 * document counts as a Flow by `kind: Flow` in flowops.io (or with no apiVersion at all, which
 * is itself an error), so another group's kind that happens to be called Flow is left alone.
 */
function isFlowDocument(doc: Document): boolean {
  if (!isMap(doc.contents)) return false;
  const apiVersion = doc.contents.get('apiVersion');
  return (
    doc.contents.get('kind') === FLOW_KIND &&
    (apiVersion === undefined || String(apiVersion).startsWith(`${FLOW_GROUP}/`))
  );
}

/** Strips the position and source excerpt the yaml package appends; the line is reported apart. */
function yamlMessage(message: string): string {
  return (message.split('\n')[0] ?? '').replace(/ at line \d+, column \d+:?$/, '');
}

export function validateFlowFile(text: string, file: string): FileValidation {
  const { flows, errors } = validateParsedFlowFile(text, file);
  return { flows, errors };
}

export function validateParsedFlowFile(text: string, file: string): ParsedFileValidation {
  const counter = new LineCounter();
  const locator = new YamlLocator(text, counter);
  const errors: ValidationError[] = [];
  let flows = 0;
  const docs = parseAllDocuments(text, { lineCounter: counter, merge: true });
  const parsed: ParsedYaml = { docs: Array.isArray(docs) ? docs : [], counter, flows: new Map() };
  for (const doc of parsed.docs) {
    if (doc.errors.length) {
      for (const e of doc.errors) {
        const { line, col } = counter.linePos(e.pos[0]);
        errors.push({ file, line, column: col, field: '', message: `invalid YAML: ${yamlMessage(e.message)}` });
      }
      continue;
    }
    if (!isFlowDocument(doc)) continue;
    flows++;
    const value: unknown = doc.toJS();
    parsed.flows?.set(doc, value);
    for (const p of flowProblems(value)) {
      const { line, column } = locator.locate(doc, p);
      errors.push({ file, line, column, field: formatPath(p.path), message: p.message });
    }
  }
  return { flows, errors: errors.sort(compareValidationErrors), parsed };
}

/** Every problem in the Flows of a multi-document YAML file, sorted by line. */
export function validateFlowDocuments(text: string, file: string): ValidationError[] {
  return validateFlowFile(text, file).errors;
}

import { isMap, isSeq, LineCounter, parseAllDocuments, type Document } from 'yaml';
import type { FieldPath } from './problem.js';
import { YamlLocator, type Position } from './yaml-positions.js';

/**
 * A template error says where it is inside the field's string (`line 19, column 49` of a
 * `manifests: |` block); a Flow author reads the file. These turn that position into the file's
 * own line and column, given the file the Flow was applied from.
 */

/** The file a Flow came from: its path as people name it (repository path, or the CLI's argument) and text. */
export interface FlowFile {
  path: string;
  text: string;
}

/** `template "NAME": DETAIL (line L, column C)`, as src/template/errors.ts formats it, anywhere in a message. */
const TEMPLATE_ERROR = /template "([^"]+)": ([\s\S]*?) \(line (\d+), column (\d+)\)/g;
/** Files larger than this are not parsed again for a message (validation caps definitions far below it). */
const MAX_TEXT = 1024 * 1024;

const STEP_LISTS = ['reconcile', 'onDelete', 'onError'] as const;

/** `values.foo[0].bar` → ['values', 'foo', 0, 'bar']. */
function segments(rest: string): Array<string | number> {
  const out: Array<string | number> = [];
  for (const part of rest.split('.')) {
    const m = /^([^[]*)((?:\[\d+\])*)$/.exec(part);
    if (!m) {
      out.push(part);
      continue;
    }
    if (m[1]) out.push(m[1]);
    for (const idx of (m[2] ?? '').matchAll(/\[(\d+)\]/g)) out.push(Number(idx[1]));
  }
  return out;
}

/** The field a template name (`<step>.<field>`, `status.<name>`) was rendered from, as a path in the Flow. */
export function fieldPathOf(doc: Document, templateName: string): FieldPath | undefined {
  const dot = templateName.indexOf('.');
  if (dot < 0) return undefined;
  const head = templateName.slice(0, dot);
  const rest = segments(templateName.slice(dot + 1));
  const spec = doc.get('spec');
  if (!isMap(spec)) return undefined;
  for (const list of STEP_LISTS) {
    const steps = spec.getIn([list, 'steps']);
    if (!isSeq(steps)) continue;
    const index = steps.items.findIndex((s) => isMap(s) && s.get('name') === head);
    if (index >= 0) return ['spec', list, 'steps', index, ...rest];
  }
  return head === 'status' ? ['spec', 'status', ...rest] : undefined;
}

function flowDocument(docs: Document[], flowName: string): Document | undefined {
  return docs.find((d) => isMap(d.contents) && d.get('kind') === 'Flow' && d.getIn(['metadata', 'name']) === flowName);
}

/** Where in `file` the template `templateName` of Flow `flowName` has its `inner` position. */
export function templatePosition(
  file: FlowFile,
  flowName: string,
  templateName: string,
  inner: Position,
): Position | undefined {
  if (file.text.length > MAX_TEXT) return undefined;
  const counter = new LineCounter();
  const docs = parseAllDocuments(file.text, { lineCounter: counter });
  const doc = flowDocument(docs, flowName);
  const path = doc ? fieldPathOf(doc, templateName) : undefined;
  if (!doc || !path) return undefined;
  return new YamlLocator(file.text, counter).locate(doc, { path, message: '', inner });
}

/**
 * Rewrites each template position in `message` to the file's: `(flow.yaml:34:49)`. Without the
 * file (a Flow applied by hand) the position is said to be the field's own, never left to pass
 * for a line of some file.
 */
export function placeTemplateErrors(message: string, flowName: string, file: FlowFile | undefined): string {
  return message.replace(TEMPLATE_ERROR, (_all: string, name: string, detail: string, line: string, column: string) => {
    const inner = { line: Number(line), column: Number(column) };
    const at = file ? templatePosition(file, flowName, name, inner) : undefined;
    if (at) return `template "${name}": ${detail} (${file?.path}:${at.line}:${at.column})`;
    return `template "${name}": ${detail} (line ${line}, column ${column} of the field ${name})`;
  });
}

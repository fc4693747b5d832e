// Every templated string of one Flow, checked with the type of the data it is rendered with: the
// steps of a list see the outputs of the steps before them, `status:` sees every reconcile step and
// the children, onError sees `.Error`, readyWhen sees `.Child`.

import type { FieldPath } from '../api/index.js';
import { NOT_TEMPLATED } from '../api/step-templates.js';
import { type Node, LineIndex, parsedTemplate } from '../template/index.js';
import { checkManifest, manifestKinds, type ManifestShape, manifestShape } from './check-manifest.js';
import { checkExpression, checkPipeline } from './check-pipeline.js';
import { checkTemplate, type Mode } from './check-template.js';
import { flowTypesOf } from './flow-types.js';
import type { TemplateFinding } from './problems.js';
import type { SchemaRegistry } from './registry.js';
import { isJson, type Json } from './schema.js';
import type { ObjectTy } from './types.js';

export interface TypeProblem {
  path: FieldPath;
  /** 1-based line/column inside the field's string. */
  inner: { line: number; column: number };
  severity: 'error' | 'warning';
  message: string;
}

const LISTS = ['reconcile', 'onDelete', 'onError'] as const;
/** Fields rendered as a value (a single action keeps its type); the others are rendered as text. */
const VALUE_FIELDS = new Set(['when', 'readyWhen', 'body', 'values']);
/**
 * Fields rendered as YAML documents (renderManifest): a value there may be a map. Only documents
 * with a literal apiVersion and kind of known schema (kubectl manifests) are checked against it.
 */
const RENDERED_AS_YAML = new Set(['manifests', 'patch', 'body', 'values']);

function parsed(text: string): Node[] | undefined {
  try {
    return parsedTemplate(text);
  } catch {
    // A template that does not parse is the structural check's to report.
    return undefined;
  }
}

type PathItem = FieldPath[number];

/** Whether any string under `value` may be a template. */
function hasTemplate(value: unknown): boolean {
  if (typeof value === 'string') return value.includes('{{');
  if (Array.isArray(value)) return value.some(hasTemplate);
  return isJson(value) && Object.values(value).some(hasTemplate);
}

/** Calls `each` with every templated string under `value`, `at` (mutated, restored) its path meanwhile. */
function forEachTemplate(value: unknown, at: PathItem[], each: (text: string) => void): void {
  if (typeof value === 'string') {
    if (value.includes('{{')) each(value);
  } else if (Array.isArray(value)) {
    for (const [i, v] of value.entries()) {
      at.push(i);
      forEachTemplate(v, at, each);
      at.pop();
    }
  } else if (isJson(value))
    for (const [k, v] of Object.entries(value)) {
      at.push(k);
      forEachTemplate(v, at, each);
      at.pop();
    }
}

function stepsOf(spec: Json, list: string): Json[] {
  const holder = spec[list];
  return isJson(holder) && Array.isArray(holder.steps) ? holder.steps.filter(isJson) : [];
}

export function checkFlow(flow: unknown, registry: SchemaRegistry): TypeProblem[] {
  const spec = isJson(flow) && isJson(flow.spec) ? flow.spec : undefined;
  if (!spec) return [];
  const types = flowTypesOf(registry);
  const watch = isJson(spec.watch) ? spec.watch : {};
  const resource = types.resource(watch.apiVersion, watch.kind);
  const out: TypeProblem[] = [];
  // A pipeline Flow is a one-controller Operator whose source is the watched kind.
  if (spec.pipeline !== undefined && typeof watch.kind === 'string')
    out.push(...checkPipeline(spec.pipeline, [{ kind: watch.kind, ty: resource }], ['spec', 'pipeline']));
  // A manifest's YAML shape is read once, though the children's kinds and its check both use it.
  const shapes = new Map<string, ManifestShape | undefined>();
  const shapeOf = (text: string): ManifestShape | undefined => {
    if (!shapes.has(text)) {
      const nodes = parsed(text);
      shapes.set(text, nodes && manifestShape(nodes));
    }
    return shapes.get(text);
  };
  const checkText = (text: string, root: ObjectTy, mode: Mode): readonly TemplateFinding[] => {
    const nodes = parsed(text);
    if (!nodes) return [];
    const result = checkTemplate(nodes, root, mode);
    const shape = mode === 'manifest' ? shapeOf(text) : undefined;
    if (shape) checkManifest(shape, result.actionTypes, registry, result.findings);
    return result.findings.list;
  };
  /** `at`: the field's path, copied only when the template has findings (most have none). */
  const check = (text: string, at: readonly PathItem[], root: ObjectTy, mode: Mode): void => {
    // Found once per text, mode and data type across the commit's Flows (flow-types.ts).
    const found = types.findings(text, mode, root, () => checkText(text, root, mode));
    if (found.length === 0) return;
    const path = [...at];
    const lines = new LineIndex(text);
    for (const f of found)
      out.push({ path, inner: lines.position(f.offset), severity: f.severity, message: f.message });
  };

  const kinds = new Map<string, string>();
  const reconcile = stepsOf(spec, 'reconcile');
  for (const step of reconcile) {
    if (step.type !== 'kubectl' || typeof step.manifests !== 'string') continue;
    const shape = shapeOf(step.manifests);
    for (const k of shape ? manifestKinds(shape) : []) kinds.set(k.kind, k.apiVersion);
  }

  let all = types.noSteps;
  for (const list of LISTS) {
    let before = types.noSteps;
    const error = list === 'onError';
    for (const [i, step] of stepsOf(spec, list).entries()) {
      const at: PathItem[] = ['spec', list, 'steps', i];
      if (step.type === 'pipeline') out.push(...checkExpression(step.expression, resource, [...at, 'expression']));
      for (const key of Object.keys(step)) {
        const value = step[key];
        if (NOT_TEMPLATED.has(key) || !hasTemplate(value)) continue;
        // readyWhen also sees .Child.
        const root = types.dataOf(resource, before, { error, child: key === 'readyWhen' });
        at.push(key);
        if (typeof value === 'string' && RENDERED_AS_YAML.has(key)) check(value, at, root, 'manifest');
        else forEachTemplate(value, at, (text) => check(text, at, root, VALUE_FIELDS.has(key) ? 'value' : 'text'));
        at.pop();
      }
      if (typeof step.name === 'string') before = types.withStep(before, step.name, types.outputsOf(step));
    }
    if (list === 'reconcile') all = before;
  }

  if (isJson(spec.status)) {
    const root = types.dataOf(resource, all, { children: types.childrenOf(kinds) });
    for (const [key, value] of Object.entries(spec.status))
      if (typeof value === 'string' && value.includes('{{')) check(value, ['spec', 'status', key], root, 'value');
  }
  return out;
}

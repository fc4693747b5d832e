// Every templated string of one Flow, checked with the type of the data it is rendered with: the
// steps of a list see the outputs of the steps before them, `status:` sees every reconcile step and
// the children, onError sees `.Error`, readyWhen sees `.Child`.

import type { FieldPath } from '../api/problem.js';
import { NOT_TEMPLATED } from '../api/step-templates.js';
import type { Node } from '../template/ast.js';
import { LineIndex } from '../template/errors.js';
import { parsedTemplate } from '../template/parse-cache.js';
import { checkManifest, manifestKinds, type ManifestShape } from './check-manifest.js';
import { checkExpression, checkPipeline } from './check-pipeline.js';
import { checkTemplate, type Mode } from './check-template.js';
import { flowTypesOf, type StepData } from './flow-types.js';
import type { TemplateFinding } from './problems.js';
import type { SchemaRegistry } from './registry.js';
import { isJson, type Json } from './schema.js';
import type { ObjectTy } from './types.js';
import { manifestShape } from './check-manifest.js';

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

function* stringLeaves(value: unknown, path: FieldPath): Generator<[FieldPath, string]> {
  if (typeof value === 'string') yield [path, value];
  else if (Array.isArray(value)) for (const [i, v] of value.entries()) yield* stringLeaves(v, [...path, i]);
  else if (isJson(value)) for (const [k, v] of Object.entries(value)) yield* stringLeaves(v, [...path, k]);
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
  const check = (text: string, path: FieldPath, rootOf: () => ObjectTy, mode: Mode): void => {
    if (!text.includes('{{')) return;
    const root = rootOf();
    // Found once per text, mode and data type across the commit's Flows (flow-types.ts).
    const found = types.findings(text, mode, root, () => checkText(text, root, mode));
    if (found.length === 0) return;
    const lines = new LineIndex(text);
    for (const f of found)
      out.push({ path, inner: lines.position(f.offset), severity: f.severity, message: f.message });
  };

  const kinds = new Map<string, string>();
  for (const step of stepsOf(spec, 'reconcile')) {
    if (step.type !== 'kubectl' || typeof step.manifests !== 'string') continue;
    const shape = shapeOf(step.manifests);
    for (const k of shape ? manifestKinds(shape) : []) kinds.set(k.kind, k.apiVersion);
  }

  for (const list of LISTS) {
    const before: Array<{ name: string; outputs: ObjectTy }> = [];
    stepsOf(spec, list).forEach((step, i) => {
      const at: FieldPath = ['spec', list, 'steps', i];
      // The data's type is built once per commit (and once more for readyWhen, which also sees .Child).
      const ctx: StepData = { resource, steps: [...before], error: list === 'onError' };
      const roots = new Map<boolean, ObjectTy>();
      const rootFor = (child: boolean) => (): ObjectTy => {
        let r = roots.get(child);
        if (!r) roots.set(child, (r = types.dataOf({ ...ctx, child })));
        return r;
      };
      if (step.type === 'pipeline') out.push(...checkExpression(step.expression, resource, [...at, 'expression']));
      for (const [key, value] of Object.entries(step)) {
        if (NOT_TEMPLATED.has(key)) continue;
        const root = rootFor(key === 'readyWhen');
        if (typeof value === 'string' && RENDERED_AS_YAML.has(key)) {
          check(value, [...at, key], root, 'manifest');
          continue;
        }
        for (const [path, text] of stringLeaves(value, [...at, key]))
          check(text, path, root, VALUE_FIELDS.has(key) ? 'value' : 'text');
      }
      if (typeof step.name === 'string') before.push({ name: step.name, outputs: types.outputsOf(step) });
    });
  }

  if (isJson(spec.status)) {
    const steps = stepsOf(spec, 'reconcile').flatMap((s) =>
      typeof s.name === 'string' ? [{ name: s.name, outputs: types.outputsOf(s) }] : [],
    );
    const root = types.dataOf({ resource, steps, children: types.childrenOf(kinds) });
    for (const [key, value] of Object.entries(spec.status))
      if (typeof value === 'string') check(value, ['spec', 'status', key], () => root, 'value');
  }
  return out;
}

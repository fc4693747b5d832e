// The template step: `helm template` or `kustomize build` (or `kubectl kustomize`), then every
// rendered object is applied exactly as `kubectl apply` applies manifests.

import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { parseAllDocuments, stringify } from 'yaml';
import type { TemplateStep } from '../api/index.js';
import { applyObjects, appliedOutputs } from './apply-objects.js';
import { defaultNamespace } from './namespace.js';
import { renderDocuments, renderText, renderTree } from './render.js';
import { runTool } from './run-tool.js';
import { chartOutputs, pullStepChart } from './template-chart.js';
import { invalid, isPlainObject } from './step-errors.js';
import { withTempDir } from './temp-dir.js';
import { findTool, requireTool } from './tools.js';
import type { Outputs, StepContext, StepExecutor, StepResult } from './types.js';

const REMOTE_CHART = /^(oci|https?):\/\//;

/**
 * Relative paths resolve against the Flow's source checkout (else the working directory). A path
 * built from template values must stay inside that folder, or a resource field of "../.." could
 * make FlowOps render and apply any chart on the machine.
 */
function localPath(raw: string, rendered: string, ctx: StepContext, field: string): string {
  const base = ctx.sourceDir ?? process.cwd();
  const path = isAbsolute(rendered) ? rendered : resolve(base, rendered);
  const rel = relative(base, path);
  if (raw.includes('{{') && (rel.startsWith('..') || isAbsolute(rel))) {
    throw invalid(`${field}: rendered path ${JSON.stringify(rendered)} leaves ${base}`, 'InvalidPath');
  }
  if (!existsSync(path)) throw invalid(`${field}: ${path} does not exist`, 'PathNotFound');
  return path;
}

async function valuesFile(step: TemplateStep, ctx: StepContext, dir: string): Promise<string | undefined> {
  if (step.values === undefined) return undefined;
  const field = `${step.name}.values`;
  let values: unknown;
  if (typeof step.values === 'string') {
    const docs = renderDocuments(step.values, ctx.data, field);
    if (docs.length > 1) throw invalid(`${field} must be one YAML document, got ${docs.length}`);
    values = docs[0] ?? {};
  } else {
    values = renderTree(step.values, ctx.data, field);
  }
  if (!isPlainObject(values)) throw invalid(`${field} must be a mapping`);
  // A file, never --set: values stay data, whatever characters they contain.
  const file = join(dir, 'values.yaml');
  await writeFile(file, stringify(values), { mode: 0o600 });
  return file;
}

interface Rendered {
  output: string;
  /** What the step reports beside the applied objects (the pulled chart's version and digest). */
  outputs: Outputs;
}

/** The chart argument of `helm template`: a folder of the source, a pulled archive, or a URL helm reads itself. */
async function chartArg(step: TemplateStep, ctx: StepContext): Promise<{ chart: string; outputs: Outputs }> {
  const field = `${step.name}.chart`;
  if (step.chart === undefined) throw invalid(`${step.name}: engine helm needs chart`);
  if (typeof step.chart !== 'string') {
    const pulled = await pullStepChart(step.chart, ctx, field);
    return { chart: pulled.path, outputs: chartOutputs(pulled) };
  }
  const rendered = renderText(step.chart, ctx.data, field);
  return { chart: REMOTE_CHART.test(rendered) ? rendered : localPath(step.chart, rendered, ctx, field), outputs: {} };
}

async function helm(step: TemplateStep, ctx: StepContext, dir: string, namespace: string): Promise<Rendered> {
  const binary = requireTool('helm');
  const { chart, outputs } = await chartArg(step, ctx);
  const release =
    step.releaseName === undefined
      ? (ctx.resource.metadata.name ?? '')
      : renderText(step.releaseName, ctx.data, `${step.name}.releaseName`);
  if (!release) throw invalid(`${step.name}: no release name (set releaseName)`);
  const args = ['template', release, chart, '--namespace', namespace, '--include-crds'];
  const values = await valuesFile(step, ctx, dir);
  if (values) args.push('-f', values);
  return {
    output: await runTool(binary, args, { cwd: dir, signal: ctx.signal, what: `${step.name}: helm template` }),
    outputs,
  };
}

async function kustomize(step: TemplateStep, ctx: StepContext, dir: string): Promise<string> {
  if (step.path === undefined) throw invalid(`${step.name}: engine kustomize needs path`);
  const path = localPath(step.path, renderText(step.path, ctx.data, `${step.name}.path`), ctx, `${step.name}.path`);
  const standalone = findTool('kustomize');
  if (standalone)
    return runTool(standalone, ['build', path], {
      cwd: dir,
      signal: ctx.signal,
      what: `${step.name}: kustomize build`,
    });
  return runTool(requireTool('kubectl'), ['kustomize', path], {
    cwd: dir,
    signal: ctx.signal,
    what: `${step.name}: kubectl kustomize`,
  });
}

function parseStream(text: string, field: string): unknown[] {
  const docs: unknown[] = [];
  // YAML 1.1, as Kubernetes decodes manifests.
  for (const doc of parseAllDocuments(text, { version: '1.1' })) {
    const err = doc.errors[0];
    if (err) throw invalid(`${field}: rendered output is not valid YAML: ${err.message}`, 'InvalidManifest');
    const value: unknown = doc.toJS({ maxAliasCount: 100 });
    if (value !== null && value !== undefined) docs.push(value);
  }
  return docs;
}

async function run(step: TemplateStep, ctx: StepContext): Promise<StepResult> {
  const namespace =
    step.namespace === undefined
      ? defaultNamespace(ctx)
      : renderText(step.namespace, ctx.data, `${step.name}.namespace`);
  return withTempDir('template', async (dir) => {
    const { output, outputs } =
      step.engine === 'helm'
        ? await helm(step, ctx, dir, namespace)
        : { output: await kustomize(step, ctx, dir), outputs: {} };
    const field = `${step.name} (${step.engine} output)`;
    const applied = await applyObjects(parseStream(output, field), ctx, {
      field,
      ownerReference: step.ownerReference !== false,
      namespace,
      step: { name: step.name, readyWhen: step.readyWhen },
    });
    return { outputs: { ...appliedOutputs(applied), ...outputs } };
  });
}

export const templateExecutor: StepExecutor<TemplateStep> = { type: 'template', run };

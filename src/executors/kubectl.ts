// The kubectl step: apply / delete / patch / get / wait, through the Kubernetes API (no kubectl
// binary), so that status codes reach error handling and nothing depends on a shell.

import type { KubectlStep } from '../api/index.js';
import { type PatchType, UnknownKindError, describeRef, type KubeObject, type ObjectRef } from '../kube/index.js';
import { applyObjects, appliedOutputs, asKubeObject, objectOutputs } from './apply-objects.js';
import { JsonPathError, parseKubectlPath } from '../jsonpath/index.js';
import { jsonPathOutput, toOutputValue } from './output-value.js';
import { defaultNamespace } from './namespace.js';
import { renderDocuments } from './render.js';
import { invalid, kubeError } from './step-errors.js';
import { resolveTarget } from './target.js';
import { StepError, type Outputs, type StepContext, type StepExecutor, type StepResult } from './types.js';
import { conditionText, isMet, parseWaitCondition } from './wait-condition.js';
import { waitForObject } from './watch-object.js';

function needManifests(step: KubectlStep): string {
  if (step.manifests === undefined) throw invalid(`${step.name}: action ${step.action} needs manifests`);
  return step.manifests;
}

async function apply(step: KubectlStep, ctx: StepContext): Promise<StepResult> {
  const field = `${step.name}.manifests`;
  const docs = renderDocuments(needManifests(step), ctx.data, field);
  const applied = await applyObjects(docs, ctx, {
    field,
    ownerReference: step.ownerReference !== false,
    namespace: defaultNamespace(ctx),
    step: { name: step.name, readyWhen: step.readyWhen },
  });
  return { outputs: appliedOutputs(applied) };
}

async function deleteOne(ref: ObjectRef, ctx: StepContext): Promise<boolean> {
  try {
    return await ctx.kube.delete(ref);
  } catch (err) {
    const e = kubeError(err, `delete ${describeRef(ref)}`);
    // A kind that is no longer served has no objects left to delete (its CRD went first).
    if (e.reason === 'UnknownKind') return false;
    throw e;
  }
}

async function remove(step: KubectlStep, ctx: StepContext): Promise<StepResult> {
  const refs: ObjectRef[] = [];
  if (step.manifests !== undefined) {
    const field = `${step.name}.manifests`;
    const docs = renderDocuments(step.manifests, ctx.data, field);
    for (const [i, doc] of docs.entries()) {
      const obj = asKubeObject(doc, field, i + 1);
      let namespaced = true;
      try {
        namespaced = (await ctx.kube.resource(obj.apiVersion, obj.kind)).namespaced;
      } catch (err) {
        if (!(err instanceof UnknownKindError)) throw kubeError(err, `delete ${obj.kind}/${obj.metadata.name}`);
      }
      const namespace = namespaced ? obj.metadata.namespace || defaultNamespace(ctx) : undefined;
      refs.push({ apiVersion: obj.apiVersion, kind: obj.kind, name: obj.metadata.name as string, namespace });
    }
  } else {
    try {
      refs.push((await resolveTarget(step, ctx)).ref);
    } catch (err) {
      if (err instanceof StepError && err.reason === 'UnknownKind') return { outputs: { deleted: 0 } };
      throw err;
    }
  }
  let deleted = 0;
  for (const ref of refs) if (await deleteOne(ref, ctx)) deleted++;
  return { outputs: { deleted } };
}

const PATCH_TYPES: Record<NonNullable<KubectlStep['patchType']>, PatchType> = {
  merge: 'merge',
  json: 'json',
  strategic: 'strategic',
};

async function patch(step: KubectlStep, ctx: StepContext): Promise<StepResult> {
  if (step.patch === undefined) throw invalid(`${step.name}: action patch needs patch`);
  const { ref } = await resolveTarget(step, ctx);
  // Rendered like manifests (YAML is a superset of JSON), so a value cannot add patch fields.
  const docs = renderDocuments(step.patch, ctx.data, `${step.name}.patch`);
  if (docs.length !== 1)
    throw invalid(`${step.name}.patch must be exactly one YAML or JSON document, got ${docs.length}`);
  const type = PATCH_TYPES[step.patchType ?? 'merge'];
  if (type === 'json' ? !Array.isArray(docs[0]) : Array.isArray(docs[0])) {
    throw invalid(
      `${step.name}.patch: a ${step.patchType ?? 'merge'} patch must be ${type === 'json' ? 'a list of operations' : 'an object'}`,
    );
  }
  try {
    const patched = await ctx.kube.patch(ref, docs[0], type, { fieldManager: ctx.fieldManager });
    return { outputs: objectOutputs(patched) };
  } catch (err) {
    throw kubeError(err, `patch ${describeRef(ref)}`);
  }
}

async function get(step: KubectlStep, ctx: StepContext): Promise<StepResult> {
  const paths = Object.entries(step.outputs ?? {});
  for (const [name, path] of paths) {
    try {
      parseKubectlPath(path);
    } catch (err) {
      throw invalid(`${step.name}.outputs.${name}: ${err instanceof JsonPathError ? err.message : String(err)}`);
    }
  }
  const { ref } = await resolveTarget(step, ctx);
  let obj: KubeObject | undefined;
  try {
    obj = await ctx.kube.get(ref);
  } catch (err) {
    throw kubeError(err, `get ${describeRef(ref)}`);
  }
  if (!obj) throw new StepError(`get ${describeRef(ref)}: not found`, { reason: 'NotFound', statusCode: 404 });
  if (paths.length === 0) return { outputs: { object: toOutputValue(obj) } };
  const outputs: Outputs = {};
  for (const [name, path] of paths) outputs[name] = jsonPathOutput(obj, path);
  return { outputs };
}

async function wait(step: KubectlStep, ctx: StepContext): Promise<StepResult> {
  if (step.condition === undefined) throw invalid(`${step.name}: action wait needs condition`);
  const condition = parseWaitCondition(step.condition, `${step.name}.condition`);
  const target = await resolveTarget(step, ctx);
  const what = `wait for ${describeRef(target.ref)} to be ${conditionText(condition)}`;
  const obj = await waitForObject(ctx, target, (o) => isMet(condition, o), what);
  return { outputs: { condition: conditionText(condition), ...(obj ? objectOutputs(obj) : {}) } };
}

export const kubectlExecutor: StepExecutor<KubectlStep> = {
  type: 'kubectl',
  run(step, ctx) {
    switch (step.action) {
      case 'apply':
        return apply(step, ctx);
      case 'delete':
        return remove(step, ctx);
      case 'patch':
        return patch(step, ctx);
      case 'get':
        return get(step, ctx);
      case 'wait':
        return wait(step, ctx);
    }
  },
};

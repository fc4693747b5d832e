// The object a kubectl patch/get/wait/delete step acts on, rendered and placed in a namespace.

import type { KubectlStep } from '../api/index.js';
import type { ApiResource, ObjectRef } from '../kube/index.js';
import { defaultNamespace } from './namespace.js';
import { renderText } from './render.js';
import { invalid, kubeError } from './step-errors.js';
import type { StepContext } from './types.js';

export interface ResolvedTarget {
  ref: ObjectRef;
  resource: ApiResource;
}

export async function resolveTarget(step: KubectlStep, ctx: StepContext): Promise<ResolvedTarget> {
  const t = step.target;
  if (!t) throw invalid(`${step.name}: action ${step.action} needs a target (apiVersion, kind, name)`);
  const field = (f: string): string => `${step.name}.target.${f}`;
  const apiVersion = renderText(t.apiVersion, ctx.data, field('apiVersion'));
  const kind = renderText(t.kind, ctx.data, field('kind'));
  const name = renderText(t.name, ctx.data, field('name'));
  const namespace = t.namespace === undefined ? undefined : renderText(t.namespace, ctx.data, field('namespace'));
  if (!name) throw invalid(`${field('name')} rendered to an empty name`);
  let resource: ApiResource;
  try {
    resource = await ctx.kube.resource(apiVersion, kind);
  } catch (err) {
    throw kubeError(err, `${step.action} ${kind}/${name}`);
  }
  const ns = resource.namespaced ? namespace || defaultNamespace(ctx) : undefined;
  return { ref: { apiVersion, kind, name, namespace: ns }, resource };
}

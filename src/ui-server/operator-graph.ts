// An Operator's controllers as graph data for the web view: sources → pipeline stages → target,
// with each controller's Ready condition and last errors from status.controllers[].

import type { ControllerStatus } from '../operator/index.js';
import { controllersOf, isViewGroup, viewGroup, type ResourceSpec } from '../operator/types.js';
import type { KubeObject } from '../kube/index.js';
import { readinessOf } from './summaries.js';
import type { GraphResource, OperatorController, OperatorSummary } from './types.js';

function resource(operator: string, r: Partial<ResourceSpec> & { namespace?: unknown; type?: unknown }): GraphResource {
  const view = r.apiGroup === undefined || r.apiGroup === null || isViewGroup(r.apiGroup);
  const group = view ? (r.apiGroup ?? viewGroup(operator)) : r.apiGroup === '' ? 'core' : r.apiGroup!;
  return {
    kind: r.kind ?? '?',
    group,
    view,
    ...(typeof r.namespace === 'string' && r.namespace ? { namespace: r.namespace } : {}),
    ...(typeof r.type === 'string' ? { type: r.type } : {}),
  };
}

/** The `@stage` names of a pipeline: one object of stages, or a list of them. */
export function stagesOf(pipeline: unknown): string[] {
  const list = Array.isArray(pipeline) ? pipeline : pipeline && typeof pipeline === 'object' ? [pipeline] : [];
  return list.flatMap((p: unknown) =>
    p && typeof p === 'object' ? Object.keys(p).filter((k) => k.startsWith('@')) : [],
  );
}

export function operatorControllers(op: KubeObject): OperatorController[] {
  const name = op.metadata.name ?? '';
  const statuses = ((op.status as { controllers?: ControllerStatus[] } | undefined)?.controllers ?? []).filter(
    (s) => s && typeof s.name === 'string',
  );
  return controllersOf(op.spec).map((c, i) => {
    const cname = typeof c.name === 'string' ? c.name : `controller ${i}`;
    const status = statuses.find((s) => s.name === cname);
    const target = c.target && typeof c.target === 'object' ? resource(name, c.target) : undefined;
    return {
      name: cname,
      sources: (Array.isArray(c.sources) ? c.sources : []).map((s) => resource(name, s)),
      stages: stagesOf(c.pipeline),
      ...(target ? { target } : {}),
      ready: readinessOf(status?.conditions?.find((x) => x.type === 'Ready')),
      lastErrors: status?.lastErrors ?? [],
    };
  });
}

export function operatorSummary(op: KubeObject): OperatorSummary {
  const controllers = operatorControllers(op);
  return {
    name: op.metadata.name ?? '',
    controllers: controllers.length,
    ready: controllers.filter((c) => c.ready.status === 'True').length,
  };
}

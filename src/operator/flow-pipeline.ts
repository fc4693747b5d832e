import type { FlowSpec } from '../api/index.js';
import type { KubeClient } from '../kube/index.js';
import type { Logger } from '../log/index.js';
import { DeclarativeController } from './controller.js';
import type { ControllerSpec, SourceSpec, TargetSpec } from './types.js';
import type { ViewBackend } from './view-backend.js';

export interface FlowPipelineDeps {
  kube: KubeClient;
  views: ViewBackend;
  log: Logger;
  onChange(): void;
}

function splitApiVersion(apiVersion: string): { apiGroup: string; version: string } {
  const i = apiVersion.lastIndexOf('/');
  return i < 0
    ? { apiGroup: '', version: apiVersion }
    : { apiGroup: apiVersion.slice(0, i), version: apiVersion.slice(i + 1) };
}

/**
 * A Flow with pipeline + target is a one-controller Operator whose single source is spec.watch.
 * A target without apiVersion is a view of the Flow, in group `<name>.<namespace>.view.dcontroller.io`.
 */
export function flowControllerSpec(name: string, spec: FlowSpec): ControllerSpec {
  const w = spec.watch;
  const source: SourceSpec = {
    ...splitApiVersion(w.apiVersion),
    kind: w.kind,
    ...(w.namespace ? { namespace: w.namespace } : {}),
    ...(w.labelSelector ? { labelSelector: w.labelSelector as Record<string, unknown> } : {}),
  };
  const t = spec.target!;
  const target: TargetSpec = {
    ...(t.apiVersion ? splitApiVersion(t.apiVersion) : {}),
    kind: t.kind,
    ...(t.type ? { type: t.type } : {}),
  };
  return { name, sources: [source], pipeline: spec.pipeline, target };
}

/** The running controller of one pipeline Flow. */
export function flowPipelineController(
  namespace: string,
  name: string,
  spec: FlowSpec,
  deps: FlowPipelineDeps,
): DeclarativeController {
  return new DeclarativeController(flowControllerSpec(name, spec), {
    kube: deps.kube,
    views: deps.views,
    log: deps.log.child({ flow: `${namespace}/${name}` }),
    operator: `${name}.${namespace}`,
    fieldManager: `flowops-pipeline-${namespace}-${name}`.slice(0, 128),
    onChange: deps.onChange,
  });
}

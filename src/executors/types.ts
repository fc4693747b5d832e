import type { AppliedCache, LiveChild } from './applied-cache.js';
import type { ChartPuller } from '../charts/index.js';
import type { Logger } from '../log/index.js';
import type { KubeClient, KubeObject } from '../kube/index.js';
import type { Step } from '../api/index.js';

export type OutputValue = string | number | boolean | null | OutputValue[] | { [k: string]: OutputValue };
export type Outputs = Record<string, OutputValue>;

/** What templates see: `{{ .Resource.spec.x }}`, `{{ .Steps.<name>.Outputs.<key> }}`, `{{ .Now }}`, `{{ .Error }}`, `{{ .Flow.name }}`. */
export interface TemplateData {
  Resource: KubeObject;
  Steps: Record<string, { Outputs: Outputs }>;
  Now: string;
  Flow: { name: string; namespace?: string };
  Error?: { step: string; reason: string; message: string };
}

/** Where the Flow itself came from (its Git provenance), stamped on what it applies. */
export interface FlowProvenance {
  source?: string;
  revision?: string;
}

/**
 * Told of every object a reconcile step applied: these are the watched object's children, which
 * FlowOps then tracks (inventory), watches, prunes and judges for readiness. Absent in onDelete
 * and onError runs, whose objects are not children.
 */
export interface ChildRecorder {
  record(obj: KubeObject, opts: { step: string; keep: boolean; readyWhen?: string }): void;
}

export interface StepContext {
  flow: { name: string; namespace?: string; uid?: string } & FlowProvenance;
  /** Reconcile runs only: collects the children the steps apply. */
  children?: ChildRecorder;
  /** `--no-cross-namespace-refs`: objects may only be written in the Flow's own namespace. */
  ownNamespaceOnly?: boolean;
  /** The watched resource as read when this run started. */
  resource: KubeObject;
  data: TemplateData;
  kube: KubeClient;
  /** Aborted when the step's timeout passes or the run is cancelled. */
  signal: AbortSignal;
  log: Logger;
  /** Folder that relative chart/kustomize paths resolve against (the Flow's source checkout), if any. */
  sourceDir?: string;
  /** Pulls charts from repositories (template steps); absent, the process's shared puller and its disk cache. */
  charts?: ChartPuller;
  /** Field manager for every write (`flowops`). */
  fieldManager: string;
  /**
   * Reconcile runs with a child watch cache: applies that would change nothing are not sent
   * (applied-cache.ts). `identity` names who applies (the impersonated account, if any); `sent`
   * is told of each apply that was sent.
   */
  applied?: { cache: AppliedCache; live: LiveChild; identity: string; sent?: () => void };
}

export interface StepResult {
  outputs: Outputs;
}

export interface StepExecutor<S extends Step = Step> {
  readonly type: S['type'];
  run(step: S, ctx: StepContext): Promise<StepResult>;
}

/**
 * A step failure with what error handling matches on: an HTTP or Kubernetes API status code, or a
 * script's exit code. `permanent` marks failures no retry can fix (a template that does not render,
 * a manifest that does not parse).
 */
export class StepError extends Error {
  readonly statusCode: number | undefined;
  readonly exitCode: number | undefined;
  readonly reason: string;
  readonly permanent: boolean;

  constructor(
    message: string,
    opts: { reason: string; statusCode?: number; exitCode?: number; permanent?: boolean; cause?: unknown },
  ) {
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.reason = opts.reason;
    this.statusCode = opts.statusCode;
    this.exitCode = opts.exitCode;
    this.permanent = opts.permanent ?? false;
  }
}

/** Label on every child: the Flow's name (a label value cannot hold the namespace). Child informers select on it. */
export const FLOW_LABEL = 'flowops.io/flow';
/** Annotations on every child that lead back to its cause (with the Git provenance ones of sync/provenance.ts). */
export const FLOW_ANNOTATION = 'flowops.io/flow';
export const OWNER_ANNOTATION = 'flowops.io/owner';

export const FIELD_MANAGER = 'flowops';

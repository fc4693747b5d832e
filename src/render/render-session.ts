// One render: an embedded API server on a free loopback port with its state in a temporary
// folder, the Flow controllers and an in-process worker as `flowops up` runs them (no simulated
// workloads: a render shows what the Flows decide, not what a kubelet would report later), the
// CRDs, Flows and sample objects applied, and a wait until every sample has been reconciled.

import {
  findCondition,
  crdKinds,
  KubeClient,
  UnknownKindError,
  writeKubeconfig,
  type KubeObject,
  type ObjectRef,
  describeRef,
  refOf,
} from '../kube/index.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startApiServer, type ApiServer } from '../apiserver/index.js';
import { FLOW_API_VERSION, FLOW_KIND, type FlowFile } from '../api/index.js';
import { FIELD_MANAGER } from '../executors/index.js';
import type { Logger } from '../log/index.js';
import { startControllers, type Controllers } from '../runtime/controllers.js';
import { RenderError, RenderTimeoutError } from './errors.js';

export interface RenderInputs {
  crds: readonly KubeObject[];
  /** Flows with the folder their relative chart / kustomize paths resolve against. */
  flows: ReadonlyArray<{ flow: KubeObject; sourceDir: string; file?: FlowFile }>;
  samples: readonly KubeObject[];
  log: Logger;
  timeoutMs: number;
  /** `{{ .Now }}` in every template. */
  now: string;
}

export interface RenderSession {
  kube: KubeClient;
  /** The samples as they are after their reconciles settled. */
  reconciled: KubeObject[];
  close(): Promise<void>;
}

const POLL_MS = 50;
const KIND_WAIT_MS = 10_000;
const FLOW_KIND_KEY = `${FLOW_API_VERSION}/${FLOW_KIND}`;

export { RenderTimeoutError } from './errors.js';

export async function startRenderSession(inputs: RenderInputs): Promise<RenderSession> {
  const dir = mkdtempSync(join(tmpdir(), 'flowops-render-'));
  let server: ApiServer | undefined;
  let controllers: Controllers | undefined;
  const close = async (): Promise<void> => {
    await controllers?.stop();
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    server = await startApiServer({ host: '127.0.0.1', port: 0, dataDir: join(dir, 'data') });
    writeKubeconfig(join(dir, 'kubeconfig'), server.url);
    const kube = KubeClient.fromKubeconfig(join(dir, 'kubeconfig'));
    const dirs = new Map(inputs.flows.map((f) => [flowKey(f.flow), f.sourceDir]));
    const files = new Map(inputs.flows.flatMap((f) => (f.file ? [[flowKey(f.flow), f.file] as const] : [])));
    controllers = await startControllers({
      kube,
      log: inputs.log,
      installCrds: true,
      now: () => inputs.now,
      sourceDirFor: (flow) => dirs.get(flowKey(flow)),
      fileFor: (flow) => files.get(flowKey(flow)),
    });
    const deadline = Date.now() + inputs.timeoutMs;
    for (const crd of inputs.crds) await kube.apply(crd, { fieldManager: FIELD_MANAGER, force: true });
    kube.discovery.invalidate();
    // A CRD is served within milliseconds; a kind still unknown after this has no CRD among the inputs.
    const kindDeadline = Math.min(deadline, Date.now() + KIND_WAIT_MS);
    const defined = new Set([
      FLOW_KIND_KEY,
      ...inputs.crds.flatMap((c) => crdKinds(c).map((k) => `${k.apiVersion}/${k.kind}`)),
    ]);
    for (const { flow } of inputs.flows) await applyWhenServed(kube, withNamespace(flow), kindDeadline, defined);
    for (const ns of new Set(inputs.samples.map((s) => s.metadata.namespace).filter((n): n is string => !!n))) {
      await kube.apply(
        { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } },
        { fieldManager: FIELD_MANAGER, force: true },
      );
    }
    for (const sample of inputs.samples) {
      await applyWhenServed(kube, sample, kindDeadline, defined).catch((e: unknown) => {
        throw e instanceof UnknownKindError
          ? new Error(
              `${describeRef(refOf(sample))}: ${e.message}; is its CustomResourceDefinition under the paths given?`,
            )
          : e;
      });
    }
    const reconciled = await waitUntilSettled(kube, controllers, inputs.samples.map(refOf), deadline, inputs.timeoutMs);
    return { kube, reconciled, close };
  } catch (e) {
    await close();
    throw e;
  }
}

const flowKey = (flow: KubeObject): string => `${flow.metadata.namespace ?? 'default'}/${flow.metadata.name}`;

function withNamespace(flow: KubeObject): KubeObject {
  return { ...flow, metadata: { ...flow.metadata, namespace: flow.metadata.namespace ?? 'default' } };
}

/** A CRD is served a moment after it is created: apply once its kind is known, until the deadline. */
async function applyWhenServed(
  kube: KubeClient,
  obj: KubeObject,
  deadline: number,
  defined: ReadonlySet<string>,
): Promise<void> {
  for (;;) {
    try {
      await kube.apply(obj, { fieldManager: 'flowops-render', force: true });
      return;
    } catch (e) {
      // Only a kind whose CRD was just applied is worth waiting for.
      if (!(e instanceof UnknownKindError) || !defined.has(`${obj.apiVersion}/${obj.kind}`) || Date.now() > deadline)
        throw e;
      kube.discovery.invalidate();
      await new Promise((r) => setTimeout(r, POLL_MS));
    }
  }
}

/** Ready written for the object's current generation: a success, a failure, or children not ready. */
function isReconciled(obj: KubeObject): boolean {
  const ready = findCondition(obj, 'Ready');
  return (
    ready !== undefined &&
    (obj.metadata.generation === undefined ||
      ready.observedGeneration === undefined ||
      ready.observedGeneration === obj.metadata.generation)
  );
}

/**
 * Every sample has its Ready condition, the queue is empty, and nothing changed between two polls:
 * a run that a child's event triggered after the first one has finished too.
 */
async function waitUntilSettled(
  kube: KubeClient,
  controllers: Controllers,
  refs: readonly ObjectRef[],
  deadline: number,
  timeoutMs: number,
): Promise<KubeObject[]> {
  let previous = '';
  let pending: string[] = [];
  for (;;) {
    const objects = await Promise.all(refs.map(async (r) => (await kube.get(r)) ?? missing(r)));
    pending = objects.filter((o) => !isReconciled(o)).map((o) => describeRef(refOf(o)));
    const state = objects.map((o) => o.metadata.resourceVersion).join(',');
    if (!pending.length && controllers.queue.depth() === 0 && state === previous) return objects;
    previous = pending.length ? '' : state;
    if (Date.now() > deadline) {
      const what = pending.length
        ? `${pending.join(', ')} to be reconciled (no Ready condition yet: is it in the namespace its Flow watches, and does it match the Flow's labelSelector?)`
        : 'the reconciles to settle (they kept changing the objects)';
      throw new RenderTimeoutError(`timed out after ${timeoutMs / 1000}s waiting for ${what}`);
    }
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
}

function missing(ref: ObjectRef): never {
  throw new RenderError('ObjectDisappeared', `${describeRef(ref)} disappeared during the render`);
}

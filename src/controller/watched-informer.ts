// The informer on a Flow's watched kind, shared by the leader's watches (which enqueue) and a
// worker's read cache (which only caches): built from the Flow's `watch`, and read the way
// controller-runtime's cached client is read.

import type { KubeClient, KubeObject, ObjectRef } from '../kube/index.js';
import { dropManagedFields, Informer, type InformerHandlers } from '../kube/informer.js';
import type { Logger } from '../log/index.js';
import { labelSelectorString } from './label-selector.js';

export interface WatchSpec {
  apiVersion?: string;
  kind?: string;
  namespace?: string;
  labelSelector?: unknown;
}

/** The Flow's `watch` as written (read from the raw object: an invalid Flow still names what it watched). */
export const watchOf = (flow: KubeObject): WatchSpec | undefined =>
  (flow.spec as { watch?: WatchSpec } | undefined)?.watch;

/** Equal for two Flows (or two generations) that watch the same objects. */
export const watchSignature = (flow: KubeObject): string => JSON.stringify(watchOf(flow) ?? null);

/** An informer on the watched kind, not started; throws the selector's error for a bad labelSelector. */
export function watchedInformer(
  kube: KubeClient,
  log: Logger,
  watch: WatchSpec & { apiVersion: string; kind: string },
  handlers: InformerHandlers,
  keep?: (namespace: string | undefined, name: string) => boolean,
): Informer {
  const selector = labelSelectorString(watch.labelSelector);
  return new Informer(
    kube,
    {
      apiVersion: watch.apiVersion,
      kind: watch.kind,
      ...(watch.namespace ? { namespace: watch.namespace } : {}),
      ...(selector ? { labelSelector: selector } : {}),
      ...(keep ? { keep } : {}),
      log,
      // Nothing of a run reads them (the predicates and the memo leave them out), and they were
      // the larger part of each watched object held here (client-go's TransformStripManagedFields).
      transform: dropManagedFields,
    },
    handlers,
  );
}

/**
 * The cached copy of a watched object. With `seen` (the version the enqueuer saw) only exactly
 * that version answers: a cache may lag the watch that enqueued, and an older copy would
 * reconcile a spec already replaced with nothing left to trigger the next run.
 */
export function cachedObject(informer: Informer, ref: ObjectRef, seen: string | undefined): KubeObject | undefined {
  const obj = informer.get(ref.namespace, ref.name);
  if (!obj) return undefined;
  return seen === undefined || obj.metadata.resourceVersion === seen ? obj : undefined;
}

/** Whether a Flow's informer holds objects of `ref`'s kind. */
export const watchesKindOf = (flow: KubeObject, ref: ObjectRef): boolean => {
  const w = watchOf(flow);
  return w?.apiVersion === ref.apiVersion && w.kind === ref.kind;
};

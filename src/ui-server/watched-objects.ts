// A Flow's watched objects as its page lists them, and the test of whether an object is still one
// of them: the Flow page updates the objects a change names instead of listing them all again.

import { matchesLabels, parseLabelSelector } from '../apiserver/selectors/index.js';
import { labelSelectorString } from '../controller/label-selector.js';
import { readInventory, readFailure } from '../engine/index.js';
import type { KubeObject } from '../kube/index.js';
import { keyOf, readyOf } from './summaries.js';
import type { ObjectKey, WatchedObject } from './types.js';

/** Keys one update may name: a bigger batch is as cheap to read as the whole list. */
export const MAX_UPDATE_KEYS = 100;

export interface FlowWatch {
  apiVersion: string;
  kind: string;
  namespace?: string;
  /** The label selector in the API's query-string form. */
  selector?: string;
}

export function watchOf(flow: KubeObject): FlowWatch | undefined {
  const watch = (flow.spec as { watch?: Record<string, unknown> } | undefined)?.watch;
  const { apiVersion, kind, namespace } = watch ?? {};
  if (typeof apiVersion !== 'string' || typeof kind !== 'string' || !kind) return undefined;
  const selector = labelSelectorString(watch?.labelSelector);
  return {
    apiVersion,
    kind,
    ...(typeof namespace === 'string' && namespace ? { namespace } : {}),
    ...(selector ? { selector } : {}),
  };
}

export const watchedObjectOf = (o: KubeObject): WatchedObject => ({
  key: keyOf(o),
  ready: readyOf(o),
  children: readInventory(o).length,
  ...(readFailure(o) ? { failing: true } : {}),
});

/** The key could name one of the watched objects (its kind and namespace). */
export const inWatch = (w: FlowWatch, key: ObjectKey): boolean =>
  key.apiVersion === w.apiVersion && key.kind === w.kind && (!w.namespace || key.namespace === w.namespace);

/** The object, as read now, is one the Flow watches (its labels still match the selector). */
export function stillWatched(w: FlowWatch, obj: KubeObject): boolean {
  if (!inWatch(w, keyOf(obj))) return false;
  return !w.selector || matchesLabels(parseLabelSelector(w.selector), obj.metadata.labels);
}

/** `namespace/name` (`/name` for a cluster-scoped object): the form of the objects update's `key` parameters. */
export function parseObjectRef(w: FlowWatch, ref: string): ObjectKey | undefined {
  const at = ref.indexOf('/');
  if (at < 0) return undefined;
  const namespace = ref.slice(0, at);
  const name = ref.slice(at + 1);
  if (!name || name.length > 253 || namespace.length > 63) return undefined;
  return { apiVersion: w.apiVersion, kind: w.kind, name, ...(namespace ? { namespace } : {}) };
}

import type { InventoryEntry, SkippedEntry } from '../api/index.js';
import type { KubeClient, KubeObject } from '../kube/index.js';
import { UnknownKindError } from '../kube/discovery.js';
import { foreignOwner, isAdopted } from './foreign.js';
import { inPhases } from './order.js';
import { entryOf, type DesiredObject } from './plan.js';
import { stamp } from './provenance.js';
import { forEachLimit } from './limit.js';

export interface ApplyOptions {
  kube: KubeClient;
  fieldManager: string;
  /** `namespace/name` of the FlowSource and the revision being applied. */
  source: string;
  revision: string;
  /** An OCI source's artifact: the Git revision it was pushed from (stamped beside the revision). */
  origin?: string | undefined;
  items: readonly DesiredObject[];
  concurrency?: number;
  /** How long to wait for a kind whose CRD this sync just applied to be served. */
  kindWaitMs?: number;
}

export interface ApplyOutcome {
  applied: InventoryEntry[];
  skipped: SkippedEntry[];
  failures: string[];
}

/**
 * Server-side applies a commit's objects phase by phase (CRDs, Namespaces, the rest, Flows), each
 * stamped with its provenance. An object another GitOps tool tracks is left alone unless it says
 * `flowops.io/adopt: "true"`. One failing object does not stop the others; the outcome lists it.
 */
export async function applyObjects(opts: ApplyOptions): Promise<ApplyOutcome> {
  const out: ApplyOutcome = { applied: [], skipped: [], failures: [] };
  let crdsApplied = false;
  for (const phase of inPhases(opts.items)) {
    await forEachLimit(phase, opts.concurrency ?? 16, async (item) => {
      try {
        const result = await applyOne(opts, item, crdsApplied);
        if ('reason' in result) out.skipped.push(result);
        else out.applied.push(result);
      } catch (e) {
        out.failures.push(
          `${item.path}: ${item.object.kind} ${item.object.metadata.name}: ${e instanceof Error ? e.message : String(e)}`,
        );
      }
    });
    if (phase.some((p) => p.object.kind === 'CustomResourceDefinition')) {
      crdsApplied = true;
      opts.kube.discovery.invalidate();
    }
  }
  return out;
}

async function applyOne(
  opts: ApplyOptions,
  item: DesiredObject,
  waitForKind: boolean,
): Promise<InventoryEntry | SkippedEntry> {
  const { kube } = opts;
  const resource = await resourceOf(kube, item.object, waitForKind ? (opts.kindWaitMs ?? 10_000) : 0);
  const metadata = { ...item.object.metadata };
  if (!resource.namespaced) delete metadata.namespace;
  const desired: KubeObject = { ...item.object, metadata };
  const entry = entryOf({ object: desired, path: item.path });
  const live = await kube.get({
    apiVersion: desired.apiVersion,
    kind: desired.kind,
    name: metadata.name!,
    namespace: metadata.namespace,
  });
  const owner = live ? foreignOwner(live) : undefined;
  if (owner && !isAdopted(live) && !isAdopted(desired)) {
    const { path: _p, ...ref } = entry;
    return { ...ref, reason: `tracked by ${owner}; annotate it flowops.io/adopt: "true" to let FlowOps manage it` };
  }
  const provenance = { source: opts.source, revision: opts.revision, path: item.path, origin: opts.origin };
  await kube.apply(stamp(desired, provenance), { fieldManager: opts.fieldManager, force: true });
  return entry;
}

async function resourceOf(kube: KubeClient, obj: KubeObject, waitMs: number): Promise<{ namespaced: boolean }> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    try {
      return await kube.resource(obj.apiVersion, obj.kind);
    } catch (e) {
      if (!(e instanceof UnknownKindError) || Date.now() > deadline) throw e;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

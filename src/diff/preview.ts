// What a sync of the local definitions would do to the live cluster, worked out without changing
// it: each object is server-side applied with dryRun=All under the sync's field manager (so the
// server merges it with the live object and runs defaulting and validation exactly as a real sync
// would), and the answer is compared with the live object; what the source's inventory lists and
// the definitions no longer do would be pruned, by the same rules as src/sync/prune-objects.ts.

import type { InventoryEntry } from '../api/index.js';
import { FIELD_MANAGER } from '../executors/types.js';
import { type KubeClient, UnknownKindError, type KubeObject, crdKinds } from '../kube/index.js';
import {
  foreignOwner,
  isAdopted,
  describeEntry,
  refOfEntry,
  phaseOf,
  entryOf,
  pruneCandidates,
  type DesiredObject,
  provenanceOf,
  stamp,
} from '../sync/index.js';
import { unifiedDiff } from '../util/line-diff.js';
import { changedFields } from './changed-fields.js';
import { comparableYaml } from './comparable.js';
import { maskSecrets } from './secret-mask.js';

export type ChangeKind = 'changed' | 'created' | 'pruned';

export interface ObjectChange {
  change: ChangeKind;
  /** `Kind namespace/name`. */
  object: string;
  diff: string;
  /** For a change: the fields it touches (`spec.replicas`); empty for created and pruned. */
  fields: string[];
}

export interface Preview {
  changes: ObjectChange[];
  /** Objects the sync would leave alone, with why (another GitOps tool tracks them). */
  skipped: string[];
}

export interface PreviewOptions {
  kube: KubeClient;
  /** `namespace/name` of the FlowSource. */
  source: string;
  /** Stamped as the revision (the comparison ignores it). */
  revision: string;
  items: readonly DesiredObject[];
  inventory: readonly InventoryEntry[];
  /** Shown in the `+++` header: the folder or commit the definitions came from. */
  origin: string;
}

const header = (id: string, side: string): string => `${id} (${side})`;

export async function previewSync(opts: PreviewOptions): Promise<Preview> {
  const out: Preview = { changes: [], skipped: [] };
  const wanted: InventoryEntry[] = [];
  // Kinds whose CRD is in the definitions but not yet served: their objects can only be shown as created.
  const definedKinds = new Set(
    opts.items
      .filter((i) => phaseOf(i.object) === 0)
      .flatMap((i) => crdKinds(i.object).map((k) => `${k.apiVersion}/${k.kind}`)),
  );
  const sorted = [...opts.items].sort(
    (a, b) => phaseOf(a.object) - phaseOf(b.object) || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0),
  );
  for (const item of sorted) {
    const result = await previewOne(opts, item, definedKinds);
    wanted.push(result.entry);
    if (result.skipped) out.skipped.push(result.skipped);
    if (result.change) out.changes.push(result.change);
  }
  for (const entry of pruneCandidates(opts.inventory, wanted)) {
    const live = await opts.kube
      .get(refOfEntry(entry))
      .catch((e: unknown) => (e instanceof UnknownKindError ? undefined : Promise.reject(e)));
    if (!live) continue;
    const owner = foreignOwner(live);
    if (owner && !isAdopted(live)) out.skipped.push(`${describeEntry(entry)}: not pruned: tracked by ${owner}`);
    else if (provenanceOf(live)?.source !== opts.source)
      out.skipped.push(`${describeEntry(entry)}: not pruned: no longer applied by this FlowSource`);
    else {
      const id = describeEntry(entry);
      const shown = comparableYaml(maskSecrets(live, undefined).live);
      const diff = unifiedDiff(shown, '', { fromName: header(id, 'live'), toName: header(id, 'pruned') });
      out.changes.push({ change: 'pruned', object: id, fields: [], diff });
    }
  }
  return out;
}

async function previewOne(
  opts: PreviewOptions,
  item: DesiredObject,
  definedKinds: ReadonlySet<string>,
): Promise<{ entry: InventoryEntry; change?: ObjectChange; skipped?: string }> {
  const { kube } = opts;
  let namespaced = true;
  try {
    namespaced = (await kube.resource(item.object.apiVersion, item.object.kind)).namespaced;
  } catch (e) {
    if (!(e instanceof UnknownKindError) || !definedKinds.has(`${item.object.apiVersion}/${item.object.kind}`)) throw e;
    // A new CRD's objects: the server cannot dry-run them before the CRD exists.
    const entry = entryOf(item);
    const id = describeEntry(entry);
    const shown = comparableYaml(maskSecrets(undefined, stamped(opts, item.object, item.path)).desired);
    const diff = unifiedDiff('', shown, { fromName: header(id, 'live'), toName: header(id, opts.origin) });
    return { entry, change: { change: 'created', object: id, fields: [], diff } };
  }
  const metadata = { ...item.object.metadata };
  if (!namespaced) delete metadata.namespace;
  const desired: KubeObject = { ...item.object, metadata };
  const entry = entryOf({ object: desired, path: item.path });
  const id = describeEntry(entry);
  const live = await kube.get(refOfEntry(entry));
  const owner = live ? foreignOwner(live) : undefined;
  if (live && owner && !isAdopted(live) && !isAdopted(desired))
    return { entry, skipped: `${id}: left alone: tracked by ${owner}` };
  const merged = await kube.apply(stamped(opts, desired, item.path), {
    fieldManager: FIELD_MANAGER,
    force: true,
    dryRun: true,
  });
  // Secrets are compared masked: a changed value still shows as a change, never as its text.
  const shown = maskSecrets(live, merged);
  const diff = unifiedDiff(comparableYaml(shown.live), comparableYaml(shown.desired), {
    fromName: header(id, 'live'),
    toName: header(id, opts.origin),
  });
  if (!diff) return { entry };
  const fields = changedFields(shown.live, shown.desired);
  return { entry, change: { change: live ? 'changed' : 'created', object: id, diff, fields } };
}

function stamped(opts: PreviewOptions, obj: KubeObject, path: string): KubeObject {
  return stamp(obj, { source: opts.source, revision: opts.revision, path });
}

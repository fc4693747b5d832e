// The Flow specs of the generations still in use, kept in the cluster as apps/v1 ControllerRevisions
// (`<flow>-g<n>`), so that any process (a worker, a new leader) reconciles an object by the spec of
// its own generation. Revisions are immutable: read ones are cached by name and uid.

import { FLOW_API_VERSION, type FlowSpec, flowSpecSchema, REVISION_FLOW_LABEL, revisionName } from '../api/index.js';
import type { KubeClient, KubeObject } from '../kube/index.js';
import { isConflict } from '../kube/client.js';
import { REVISION_ANNOTATION } from '../sync/provenance.js';

export const REVISION_API_VERSION = 'apps/v1';
export const REVISION_KIND = 'ControllerRevision';

/** What a generation needs besides its number: its spec and the commit it came from. */
export interface StoredGeneration {
  generation: number;
  spec: FlowSpec;
  /** The Flow's flowops.io/revision at that generation (the commit), when it came from Git. */
  revision?: string;
}

/** The Flow a revision belongs to. */
export interface FlowIdentity {
  namespace: string;
  name: string;
  uid: string;
}

/** How long a revision read stands before it is looked up again (its content never changes; its presence may). */
const RECHECK_MS = 5_000;

export type ReadResult = { ok: true; stored: StoredGeneration } | { ok: false; reason: string };

export class RevisionStore {
  /** name → stored generation, for revisions known to exist with this Flow uid. */
  private readonly known = new Map<string, StoredGeneration>();
  /** When each known revision was last seen on the server: one deleted by hand is noticed within RECHECK_MS. */
  private readonly seenAt = new Map<string, number>();
  private readonly creating = new Map<string, Promise<void>>();

  constructor(
    private readonly kube: KubeClient,
    private readonly fieldManager: string,
  ) {}

  private keyOf(flow: FlowIdentity, generation: number): string {
    return `${flow.namespace}/${revisionName(flow.name, generation)}/${flow.uid}`;
  }

  /** Makes sure the generation's revision exists (created at most once per process). */
  async ensure(flow: FlowIdentity, stored: StoredGeneration): Promise<void> {
    const key = this.keyOf(flow, stored.generation);
    if (this.known.has(key)) return;
    let p = this.creating.get(key);
    if (!p) {
      p = this.create(flow, stored).finally(() => this.creating.delete(key));
      this.creating.set(key, p);
    }
    await p;
    this.known.set(key, stored);
    this.seenAt.set(key, Date.now());
  }

  private async create(flow: FlowIdentity, stored: StoredGeneration): Promise<void> {
    const obj: KubeObject = {
      apiVersion: REVISION_API_VERSION,
      kind: REVISION_KIND,
      metadata: {
        name: revisionName(flow.name, stored.generation),
        namespace: flow.namespace,
        labels: { [REVISION_FLOW_LABEL]: flow.name },
        ...(stored.revision ? { annotations: { [REVISION_ANNOTATION]: stored.revision } } : {}),
        ownerReferences: [
          { apiVersion: FLOW_API_VERSION, kind: 'Flow', name: flow.name, uid: flow.uid, controller: true },
        ],
      },
      revision: stored.generation,
      data: { spec: stored.spec },
    };
    try {
      await this.kube.create(obj, { fieldManager: this.fieldManager });
    } catch (err) {
      // Another process made it first (the same generation's spec: revisions are immutable).
      if (!isConflict(err)) throw err;
    }
  }

  /** The spec of a generation, from its revision; not ok (with a reason naming it) when it cannot be read. */
  async read(flow: FlowIdentity, generation: number): Promise<ReadResult> {
    const key = this.keyOf(flow, generation);
    const cached = this.known.get(key);
    if (cached && Date.now() - (this.seenAt.get(key) ?? 0) < RECHECK_MS) return { ok: true, stored: cached };
    const name = revisionName(flow.name, generation);
    const what = `ControllerRevision ${flow.namespace}/${name} (generation ${generation} of Flow ${flow.name})`;
    const obj = await this.kube.get({
      apiVersion: REVISION_API_VERSION,
      kind: REVISION_KIND,
      namespace: flow.namespace,
      name,
    });
    if (!obj)
      return { ok: false, reason: `${what} is gone; its objects stay as they are until it is restored or they move` };
    if (!obj.metadata.ownerReferences?.some((o) => o.uid === flow.uid)) {
      return { ok: false, reason: `${what} belongs to another Flow of that name` };
    }
    const data = (obj as { data?: { spec?: unknown } }).data;
    const parsed = flowSpecSchema.safeParse(data?.spec);
    if (!parsed.success) return { ok: false, reason: `${what} holds no valid Flow spec` };
    const commit = obj.metadata.annotations?.[REVISION_ANNOTATION];
    const stored: StoredGeneration = { generation, spec: parsed.data, ...(commit ? { revision: commit } : {}) };
    this.known.set(key, stored);
    this.seenAt.set(key, Date.now());
    return { ok: true, stored };
  }

  /** Deletes the Flow's revisions of generations not in `keep`. */
  async prune(flow: FlowIdentity, keep: ReadonlySet<number>): Promise<number[]> {
    const list = await this.kube.list(REVISION_API_VERSION, REVISION_KIND, {
      namespace: flow.namespace,
      labelSelector: `${REVISION_FLOW_LABEL}=${flow.name}`,
    });
    const deleted: number[] = [];
    for (const rev of list.items) {
      const generation = (rev as { revision?: unknown }).revision;
      if (typeof generation !== 'number' || keep.has(generation)) continue;
      if (!rev.metadata.ownerReferences?.some((o) => o.uid === flow.uid)) continue;
      const name = rev.metadata.name ?? '';
      await this.kube.delete({
        apiVersion: REVISION_API_VERSION,
        kind: REVISION_KIND,
        namespace: flow.namespace,
        name,
      });
      this.forget(flow, generation);
      deleted.push(generation);
    }
    return deleted;
  }

  /** Forgets a cached revision (it was found deleted). */
  forget(flow: FlowIdentity, generation: number): void {
    this.known.delete(this.keyOf(flow, generation));
    this.seenAt.delete(this.keyOf(flow, generation));
  }
}

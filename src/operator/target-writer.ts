import type { KubeClient, KubeObject, ObjectRef } from '../kube/index.js';
import type { ResolvedResource, TargetType } from './types.js';
import { OperatorError } from './errors.js';

/** Metadata the server owns: sending it back would be a precondition (resourceVersion) or an error (managedFields). */
const SERVER_METADATA = [
  'managedFields',
  'resourceVersion',
  'uid',
  'creationTimestamp',
  'generation',
  'selfLink',
  'deletionTimestamp',
  'deletionGracePeriodSeconds',
];

/**
 * Writes pipeline outputs to the target (spec §1.4), through server-side apply with the
 * controller's own field manager, which fixes the original's positional list merge (§8 item 15):
 * the API server merges lists by their merge keys (a Deployment's containers by name), and a
 * manager's fields are exactly what it applied last.
 *
 * - Updater: apply with force (creates when missing); fields this manager applied before and no
 *   longer outputs are removed by the server. Deleted: the object is deleted.
 * - Patcher: never creates (the target must exist); Deleted applies an empty configuration with
 *   the same manager, which releases, and so removes, exactly the fields the pipeline had set.
 */
export class TargetWriter {
  constructor(
    private readonly kube: KubeClient,
    private readonly target: ResolvedResource,
    private readonly type: TargetType,
    private readonly fieldManager: string,
  ) {}

  async upsert(output: Record<string, unknown>): Promise<void> {
    const obj = this.shape(output);
    if (this.type === 'Patcher') {
      if (!(await this.kube.get(this.ref(obj))))
        throw new OperatorError(
          'PatcherTargetMissing',
          `Patcher cannot create objects: ${describe(this.ref(obj))} not found`,
        );
      await this.kube.apply(obj, { fieldManager: this.fieldManager, force: true });
      return;
    }
    await this.kube.apply(obj, { fieldManager: this.fieldManager, force: true });
    // With a status subresource the main apply ignores status; the original Updater writes it too.
    if (obj.status !== undefined && (await this.kube.hasStatus(obj.apiVersion, obj.kind))) {
      const status = {
        apiVersion: obj.apiVersion,
        kind: obj.kind,
        metadata: { name: obj.metadata.name, ...(obj.metadata.namespace ? { namespace: obj.metadata.namespace } : {}) },
        status: obj.status,
      };
      await this.kube.patch(this.ref(obj), status, 'apply', {
        subresource: 'status',
        fieldManager: this.fieldManager,
        force: true,
      });
    }
  }

  async delete(output: Record<string, unknown>): Promise<void> {
    const obj = this.shape(output);
    const ref = this.ref(obj);
    if (this.type === 'Updater') {
      await this.kube.delete(ref);
      return;
    }
    // An empty apply for an object that is gone would create it: look first.
    if (!(await this.kube.get(ref))) return;
    const empty: KubeObject = {
      apiVersion: obj.apiVersion,
      kind: obj.kind,
      metadata: { name: obj.metadata.name, ...(obj.metadata.namespace ? { namespace: obj.metadata.namespace } : {}) },
    };
    await this.kube.apply(empty, { fieldManager: this.fieldManager, force: true });
  }

  /** The output as an apply configuration of the target kind (the GVK is always forced, spec §1.4). */
  private shape(output: Record<string, unknown>): KubeObject {
    const copy = structuredClone(output) as KubeObject;
    copy.apiVersion = this.target.apiVersion;
    copy.kind = this.target.kind;
    const meta = { ...(copy.metadata ?? {}) };
    for (const k of SERVER_METADATA) delete meta[k];
    copy.metadata = meta;
    return copy;
  }

  private ref(obj: KubeObject): ObjectRef {
    return {
      apiVersion: obj.apiVersion,
      kind: obj.kind,
      name: obj.metadata.name!,
      ...(obj.metadata.namespace ? { namespace: obj.metadata.namespace } : {}),
    };
  }
}

function describe(ref: ObjectRef): string {
  return `${ref.kind} ${ref.namespace ? `${ref.namespace}/` : ''}${ref.name}`;
}

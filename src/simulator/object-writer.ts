import { isNotFound, type KubeClient, refOf, type KubeObject } from '../kube/index.js';
import { mergePatchFrom } from './json.js';

export const SIMULATOR_FIELD_MANAGER = 'flowops-simulator';

interface Sent {
  /** resourceVersion of the cached object the patch was computed from. */
  basedOn: string | undefined;
  patch: string;
}

/**
 * Writes what a controller computed, and only when it differs from the object in the informer cache.
 * A cache lags its own writes: until the watch delivers the written version, a second reconcile sees
 * the old object and would send the same patch again. So the last patch sent per object is kept, and
 * an identical patch computed from the same cached version is not sent twice.
 */
export class ObjectWriter {
  private readonly sent = new Map<string, Sent>();

  constructor(private readonly kube: KubeClient) {}

  /** The status subresource, owned whole by the controller: members it no longer sets are removed. */
  status(obj: KubeObject, desired: Record<string, unknown>): Promise<boolean> {
    return this.send(obj, 'status', { status: obj.status }, { status: desired }, true);
  }

  /** Spec or metadata members the controller sets (replicas, annotations); others are left alone. */
  merge(obj: KubeObject, desired: Record<string, unknown>): Promise<boolean> {
    return this.send(obj, undefined, obj, desired, false);
  }

  forget(obj: KubeObject): void {
    this.sent.delete(this.keyOf(obj, 'status'));
    this.sent.delete(this.keyOf(obj, undefined));
  }

  private async send(
    obj: KubeObject,
    subresource: 'status' | undefined,
    current: unknown,
    desired: Record<string, unknown>,
    prune: boolean,
  ): Promise<boolean> {
    const patch = mergePatchFrom(current, desired, prune);
    if (!patch) return false;
    const key = this.keyOf(obj, subresource);
    const text = JSON.stringify(patch);
    const last = this.sent.get(key);
    if (last && last.basedOn === obj.metadata.resourceVersion && last.patch === text) return false;
    try {
      await this.kube.sendPatch(refOf(obj), patch, 'merge', {
        fieldManager: SIMULATOR_FIELD_MANAGER,
        ...(subresource ? { subresource } : {}),
      });
    } catch (e) {
      if (isNotFound(e)) return false;
      throw e;
    }
    this.sent.set(key, { basedOn: obj.metadata.resourceVersion, patch: text });
    return true;
  }

  private keyOf(obj: KubeObject, subresource: string | undefined): string {
    return `${obj.apiVersion}/${obj.kind}/${obj.metadata.namespace ?? ''}/${obj.metadata.name}/${subresource ?? ''}`;
  }
}

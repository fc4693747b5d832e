import type { ObjectStore } from '../objects/object-store.js';
import type { ResourceRegistry } from '../registry/resource-registry.js';
import type { JsonObject, ResourceType } from '../registry/types.js';
import { metadataOf } from '../objects/meta.js';
import type { StoreEvent } from '../storage/index.js';
import { typesFromCrd } from './crd-types.js';
import { keepGoing } from '../../log/keep-going.js';

const isCrdType = (t: ResourceType): boolean =>
  t.group === 'apiextensions.k8s.io' && t.kind === 'CustomResourceDefinition';

/**
 * Keeps the served resources in step with the stored CRDs: a stored CRD is served at once, and a
 * deleted one stops being served after its objects are removed.
 */
export class CrdController {
  constructor(
    private readonly registry: ResourceRegistry,
    private readonly objects: ObjectStore,
  ) {}

  /** Registers every CRD already in storage (at startup). */
  loadAll(): void {
    const crdType = this.registry.lookup('apiextensions.k8s.io', 'v1', 'customresourcedefinitions')!;
    for (const text of this.objects.list(crdType, undefined).items) {
      // One CRD the server cannot serve must not keep the server from starting.
      keepGoing('crd-controller', this.objects.onFault, () => {
        const crd = JSON.parse(text) as JsonObject;
        this.registry.setCustomTypes(String(metadataOf(crd).name), typesFromCrd(crd));
      });
    }
  }

  readonly onWrite = (t: ResourceType, e: StoreEvent, crd: JsonObject): void => {
    if (!isCrdType(t)) return;
    const name = String(metadataOf(crd).name);
    if (e.type !== 'delete') {
      this.registry.setCustomTypes(name, typesFromCrd(crd));
      return;
    }
    const served = typesFromCrd(crd);
    if (served[0]) this.objects.purge(served[0]);
    this.registry.setCustomTypes(name, []);
  };
}

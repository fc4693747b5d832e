import type { ObjectStore } from '../objects/object-store.js';
import type { ResourceRegistry } from '../registry/resource-registry.js';
import type { AdmissionAttributes } from './attributes.js';

/** Placeholder replaced below. */
export class PolicyValidator {
  constructor(
    private readonly objects: ObjectStore,
    private readonly registry: ResourceRegistry,
  ) {}
  any(): boolean {
    const t = this.registry.lookup('admissionregistration.k8s.io', 'v1', 'validatingadmissionpolicybindings');
    return t ? this.objects.list(t, undefined, { limit: 1 }).items.length > 0 : false;
  }
  validate(_a: AdmissionAttributes, _warnings: string[]): void {}
}

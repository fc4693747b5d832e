import { metadataOf } from '../../objects/meta.js';
import type { JsonObject } from '../../registry/types.js';
import { admissionForbidden } from './forbidden.js';
import { isMap, mapAt, type Lookup } from './lookup.js';
import { resourceList } from './pod-resources.js';
import type { BuiltinPlugin, PluginAttributes } from './types.js';

/**
 * PersistentVolumeClaimResize (plugin/pkg/admission/storage/persistentvolume/resize/admission.go):
 * a claim's storage request may grow only once it is Bound, and only when its StorageClass (the
 * same before and after) says allowVolumeExpansion: true.
 */
const BETA_CLASS = 'volume.beta.kubernetes.io/storage-class';

export class PersistentVolumeClaimResizePlugin implements BuiltinPlugin {
  readonly name = 'PersistentVolumeClaimResize';

  constructor(private readonly lookup: Lookup) {}

  validate(a: PluginAttributes): void {
    if (a.t.group || a.t.kind !== 'PersistentVolumeClaim' || a.subresource || !a.oldObject) return;
    if (a.operation !== 'UPDATE') return;
    const size = (o: JsonObject) => {
      const requests = mapAt(mapAt(o, 'spec'), 'resources').requests;
      return resourceList(isMap(requests) ? requests : undefined).get('storage')?.nanos ?? 0n;
    };
    if (size(a.object) <= size(a.oldObject)) return;
    if (mapAt(a.oldObject, 'status').phase !== 'Bound') {
      throw admissionForbidden(a, 'Only bound persistent volume claims can be expanded');
    }
    if (!this.allowResize(className(a.object), className(a.oldObject))) {
      throw admissionForbidden(
        a,
        'only dynamically provisioned pvc can be resized and ' +
          'the storageclass that provisions the pvc must support resize',
      );
    }
  }

  private allowResize(cls: string, oldCls: string): boolean {
    if (!cls || !oldCls || cls !== oldCls) return false;
    const sc = this.lookup.get(this.lookup.type('storage.k8s.io', 'v1', 'storageclasses'), undefined, cls);
    return sc?.allowVolumeExpansion === true;
  }
}

/** GetPersistentVolumeClaimClass: the beta annotation first, then spec.storageClassName. */
function className(pvc: JsonObject): string {
  const annotations = metadataOf(pvc).annotations;
  if (isMap(annotations) && typeof annotations[BETA_CLASS] === 'string') return annotations[BETA_CLASS];
  const cls = mapAt(pvc, 'spec').storageClassName;
  return typeof cls === 'string' ? cls : '';
}

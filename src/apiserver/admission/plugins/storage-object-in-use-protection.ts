import { metadataOf } from '../../objects/meta.js';
import type { BuiltinPlugin, PluginAttributes } from './types.js';

/**
 * StorageObjectInUseProtection (plugin/pkg/admission/storage/storageobjectinuseprotection/
 * admission.go): new PersistentVolumeClaims, PersistentVolumes and VolumeAttributesClasses get the
 * finalizer KCM's pvc-, pv- and vac-protection controllers remove once nothing uses them.
 */
const FINALIZERS: Readonly<Record<string, string>> = {
  '/PersistentVolumeClaim': 'kubernetes.io/pvc-protection',
  '/PersistentVolume': 'kubernetes.io/pv-protection',
  'storage.k8s.io/VolumeAttributesClass': 'kubernetes.io/vac-protection',
};

export class StorageObjectInUseProtectionPlugin implements BuiltinPlugin {
  readonly name = 'StorageObjectInUseProtection';

  mutate(a: PluginAttributes): void {
    if (a.subresource || a.operation !== 'CREATE') return;
    const key = `${a.t.group}/${a.t.kind}`;
    const finalizer = Object.hasOwn(FINALIZERS, key) ? FINALIZERS[key] : undefined;
    if (!finalizer) return;
    const meta = metadataOf(a.object);
    const finalizers = Array.isArray(meta.finalizers) ? meta.finalizers : [];
    if (!finalizers.includes(finalizer)) meta.finalizers = [...finalizers, finalizer];
  }
}

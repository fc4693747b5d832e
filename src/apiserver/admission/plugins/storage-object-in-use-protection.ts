import { metadataOf } from '../../objects/meta.js';
import type { BuiltinPlugin, PluginAttributes } from './types.js';

/**
 * StorageObjectInUseProtection (plugin/pkg/admission/storage/storageobjectinuseprotection/
 * admission.go): new PersistentVolumeClaims and PersistentVolumes get the finalizer KCM's
 * pvc-protection and pv-protection controllers remove once nothing uses them.
 */
export class StorageObjectInUseProtectionPlugin implements BuiltinPlugin {
  readonly name = 'StorageObjectInUseProtection';

  mutate(a: PluginAttributes): void {
    if (a.t.group || a.subresource || a.operation !== 'CREATE') return;
    const finalizer =
      a.t.kind === 'PersistentVolumeClaim'
        ? 'kubernetes.io/pvc-protection'
        : a.t.kind === 'PersistentVolume'
          ? 'kubernetes.io/pv-protection'
          : undefined;
    if (!finalizer) return;
    const meta = metadataOf(a.object);
    const finalizers = Array.isArray(meta.finalizers) ? meta.finalizers : [];
    if (!finalizers.includes(finalizer)) meta.finalizers = [...finalizers, finalizer];
  }
}

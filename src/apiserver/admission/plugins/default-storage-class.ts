import { metadataOf } from '../../objects/meta.js';
import { newestDefault } from './default-class.js';
import { isMap, mapAt, type Lookup } from './lookup.js';
import type { BuiltinPlugin, PluginAttributes } from './types.js';

/**
 * DefaultStorageClass (plugin/pkg/admission/storage/storageclass/setdefault/admission.go): a new
 * PersistentVolumeClaim that names no class (no storageClassName, no beta annotation) gets the
 * default StorageClass's name, when one is annotated `storageclass.kubernetes.io/is-default-class`.
 */
const KEYS = ['storageclass.kubernetes.io/is-default-class', 'storageclass.beta.kubernetes.io/is-default-class'];
const BETA_CLASS = 'volume.beta.kubernetes.io/storage-class';

export class DefaultStorageClassPlugin implements BuiltinPlugin {
  readonly name = 'DefaultStorageClass';

  constructor(private readonly lookup: Lookup) {}

  mutate(a: PluginAttributes): void {
    if (a.t.group || a.t.kind !== 'PersistentVolumeClaim' || a.subresource || a.operation !== 'CREATE') return;
    const spec = mapAt(a.object, 'spec');
    const annotations = metadataOf(a.object).annotations;
    if (spec.storageClassName != null || (isMap(annotations) && annotations[BETA_CLASS] !== undefined)) return;
    const classes = this.lookup.list(this.lookup.type('storage.k8s.io', 'v1', 'storageclasses'), undefined);
    const def = newestDefault(classes, KEYS);
    if (def) {
      spec.storageClassName = String(metadataOf(def).name);
      a.object.spec = spec;
    }
  }
}

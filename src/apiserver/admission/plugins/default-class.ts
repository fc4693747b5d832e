import { metadataOf } from '../../objects/meta.js';
import type { JsonObject } from '../../registry/types.js';
import { isMap } from './lookup.js';

/**
 * util.GetDefaultClass (pkg/volume/util/storageclass.go) and defaultingressclass's getDefaultClass:
 * of the classes annotated `<key>: "true"`, the newest, then the first by name.
 */
export function newestDefault(classes: JsonObject[], keys: string[]): JsonObject | undefined {
  const defaults = classes.filter((c) => {
    const annotations = metadataOf(c).annotations;
    return isMap(annotations) && keys.some((k) => annotations[k] === 'true');
  });
  const created = (c: JsonObject) => String(metadataOf(c).creationTimestamp ?? '');
  const name = (c: JsonObject) => String(metadataOf(c).name ?? '');
  defaults.sort((a, b) =>
    created(a) === created(b) ? (name(a) < name(b) ? -1 : 1) : created(a) > created(b) ? -1 : 1,
  );
  return defaults[0];
}

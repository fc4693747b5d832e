// What kube-apiserver's Go types always encode even when nobody set them, told by the vendored
// generated.proto messages and Go struct facts (descriptors.ts): struct fields (which omitempty does
// not drop), scalars without omitempty, and null for nil pointers, slices and maps without omitempty,
// as json.Marshal of a decoded object writes them. A stored built-in object is read back through its
// Go type on a real server, so every answer carries them; and a create's "before" for field ownership
// is the kind's typed zero value, in which a struct already exists and so is not itself "added".
import type { JsonObject } from '../schema/types.js';
import { kindMessage, metaMessage } from './descriptors.js';
import type { MessageType } from './schema.js';

/** ObjectMeta (the object's and a template's) follows the metadata rules of objects/meta.ts, not its Go zero. */
const notObjectMeta = (t: MessageType): boolean => t !== metaMessage('ObjectMeta');

const zeros = new Map<string, JsonObject | undefined>();

/** The JSON of the Go zero value of `kind` in `apiVersion`, without metadata; undefined for a kind without a message. */
export function goZeroValue(apiVersion: string, kind: string): JsonObject | undefined {
  const key = `${apiVersion} ${kind}`;
  if (!zeros.has(key)) {
    const m = kindMessage(apiVersion, kind);
    let zero: JsonObject | undefined;
    if (m) {
      zero = {};
      m.fillAbsent(zero, notObjectMeta);
      delete zero.metadata;
    }
    zeros.set(key, zero);
  }
  const zero = zeros.get(key);
  return zero && structuredClone(zero);
}

/** Fills into `obj`, in place and at every depth, what its Go type always encodes and `obj` lacks (metadata aside). */
export function fillGoZeroValues(apiVersion: string, kind: string, obj: JsonObject): void {
  const m = kindMessage(apiVersion, kind);
  if (!m) return;
  const metadata = obj.metadata;
  m.fillAbsent(obj, notObjectMeta);
  if (metadata === undefined) delete obj.metadata;
}

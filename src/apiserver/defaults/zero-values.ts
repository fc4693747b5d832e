import { dropEmptyMetadataFields } from '../objects/meta.js';
import { fillGoZeroValues, goZeroValue } from '../protobuf/index.js';
import type { JsonObject, JsonValue, ResourceType } from '../registry/types.js';

/**
 * What kube-apiserver's Go types always encode even when nobody set them (protobuf/go-zero-values.ts,
 * from the vendored Go struct facts of k8s.io/api v0.34). Two uses:
 *  - a stored object has them filled in where missing (so `status: {}` shows, as on a real server);
 *  - they are the "before" of a create for field ownership: the real field manager compares the new
 *    object with the typed zero value, so a struct that exists there is not itself "added" and
 *    gets no `".": {}` in managedFields, only its children do.
 */
type Kind = Pick<ResourceType, 'group' | 'version' | 'kind' | 'custom'>;

const apiVersionOf = (t: Kind): string => (t.group ? `${t.group}/${t.version}` : t.version);

export function zeroValueOf(t: Kind): JsonObject | undefined {
  return t.custom ? undefined : goZeroValue(apiVersionOf(t), t.kind);
}

/** Fills in, in place, what the kind's Go type always encodes and `obj` lacks, and drops what it never encodes empty. */
export function fillZeroValues(t: Kind, obj: JsonObject): void {
  if (t.custom) return;
  fillGoZeroValues(apiVersionOf(t), t.kind, obj);
  const spec = obj.spec;
  if (!isObject(spec)) return;
  // The ObjectMeta of pod and job templates is as `omitempty` as the object's own.
  const templates = [spec.template, isObject(spec.jobTemplate) ? spec.jobTemplate : undefined];
  const jobSpec = isObject(spec.jobTemplate) ? spec.jobTemplate.spec : undefined;
  if (isObject(jobSpec)) templates.push(jobSpec.template);
  for (const template of templates) if (isObject(template)) dropEmptyMetadataFields(template.metadata);
}

function isObject(v: JsonValue | undefined): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

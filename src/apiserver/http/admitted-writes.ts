import type { WriteOptions } from '../objects/object-store.js';
import type { JsonObject, ResourceType } from '../registry/types.js';
import { admittedWrite } from '../admission/index.js';
import { admissionOptions } from '../admission/options.js';
import { applyPatchBody } from './patch-handler.js';
import type { ResourceContext } from './resource-handlers.js';

/**
 * The three write verbs with dynamic admission around them (src/apiserver/admission/): each
 * names its own write and how what admission leaves is stored.
 */
export function createAdmitted(
  ctx: ResourceContext,
  t: ResourceType,
  ns: string | undefined,
  obj: JsonObject,
  q: URLSearchParams,
  opts: WriteOptions,
): Promise<{ code: number; object: JsonObject }> {
  return admittedWrite(ctx.admission, {
    t,
    operation: 'CREATE',
    namespace: ns,
    name: undefined,
    options: admissionOptions('CreateOptions', q),
    opts,
    // The admission pass's dry run gets a copy: a create stamps the object it is given.
    attempt: (o) => ({ code: 201, object: ctx.objects.create(t, ns, o === opts ? obj : structuredClone(obj), o) }),
    commit: (o, wo) => ctx.objects.create(t, ns, o, wo),
  });
}

export function updateAdmitted(
  ctx: ResourceContext,
  t: ResourceType,
  ns: string | undefined,
  name: string,
  obj: JsonObject,
  q: URLSearchParams,
  opts: WriteOptions,
): Promise<{ code: number; object: JsonObject }> {
  return admittedWrite(ctx.admission, {
    t,
    operation: 'UPDATE',
    namespace: ns,
    name,
    options: admissionOptions('UpdateOptions', q),
    opts,
    attempt: (o) => ({
      code: 200,
      object: ctx.objects.update(t, ns, name, o === opts ? obj : structuredClone(obj), o),
    }),
    commit: (o, wo) => ctx.objects.update(t, ns, name, o, wo),
  });
}

export function patchAdmitted(
  ctx: ResourceContext,
  t: ResourceType,
  ns: string | undefined,
  name: string,
  patch: { type: string; raw: Buffer },
  q: URLSearchParams,
  opts: WriteOptions,
): Promise<{ code: number; object: JsonObject }> {
  // An apply computed managedFields itself; storing its result must not track it again as an Update.
  const applied = (wo: WriteOptions): WriteOptions =>
    patch.type === 'application/apply-patch+yaml' ? { ...wo, managedFieldsSet: true } : wo;
  return admittedWrite(ctx.admission, {
    t,
    operation: 'UPDATE',
    namespace: ns,
    name,
    options: admissionOptions('PatchOptions', q),
    opts,
    attempt: (o) => applyPatchBody(ctx, t, ns, name, patch.type, patch.raw, q, o),
    commit: (o, wo, created) =>
      created ? ctx.objects.create(t, ns, o, applied(wo)) : ctx.objects.update(t, ns, name, o, applied(wo)),
  });
}

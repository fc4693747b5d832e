import type { ObjectStore, WriteOptions } from '../objects/object-store.js';
import type { ResourceRegistry } from '../registry/resource-registry.js';
import type { JsonObject, ResourceType } from '../registry/types.js';
import { ApiError } from '../http/status.js';
import type { UserInfo } from '../auth/user-info.js';
import type { AdmissionAttributes, AdmissionOperation } from './attributes.js';
import { PolicyValidator } from './policies.js';
import { WebhookDispatcher } from './webhooks.js';

/**
 * Dynamic admission on the embedded server: mutating webhooks, then validating webhooks and
 * ValidatingAdmissionPolicies, in kube-apiserver's order (MutatingAdmissionWebhook before the
 * object is validated and stored, ValidatingAdmissionPolicy and ValidatingAdmissionWebhook after).
 *
 * The object store is synchronous (no read-modify-write interleaves) and webhooks are not, so a
 * write runs twice: first as a dry run that yields the defaulted, validated object admission sees,
 * then, after admission, for real with what the webhooks left, guarded by the resourceVersion the
 * dry run read; a write that raced in between is retried from the start. Not admitted here yet:
 * deletecollection, the scale subresource and CONNECT.
 */
export class AdmissionChain {
  readonly webhooks: WebhookDispatcher;
  readonly policies: PolicyValidator;

  constructor(
    private readonly objects: ObjectStore,
    registry: ResourceRegistry,
  ) {
    this.webhooks = new WebhookDispatcher(objects, registry);
    this.policies = new PolicyValidator(objects, registry);
  }

  /** Whether any webhook configuration or policy binding is stored (the common case: none, no extra pass). */
  active(): boolean {
    return this.webhooks.any() || this.policies.any();
  }

  async mutate(a: AdmissionAttributes, warnings: string[]): Promise<JsonObject | undefined> {
    return this.webhooks.mutate(a, warnings);
  }

  async validate(a: AdmissionAttributes, warnings: string[]): Promise<void> {
    this.policies.validate(a, warnings);
    await this.webhooks.validate(a, warnings);
  }

  get store(): ObjectStore {
    return this.objects;
  }
}

export interface AdmittedWrite {
  t: ResourceType;
  operation: Exclude<AdmissionOperation, 'DELETE'>;
  namespace: string | undefined;
  name: string | undefined;
  options: JsonObject;
  opts: WriteOptions;
  /** The request's own write, with these options (a dry run first). */
  attempt: (opts: WriteOptions) => { code: number; object: JsonObject };
  /** Stores `object` as the request's result: a create, or a guarded update. */
  commit: (object: JsonObject, opts: WriteOptions, created: boolean) => JsonObject;
}

const MAX_ATTEMPTS = 3;

/** A create or update (PUT, PATCH, apply) with admission around it. */
export async function admittedWrite(
  chain: AdmissionChain | undefined,
  w: AdmittedWrite,
): Promise<{ code: number; object: JsonObject }> {
  if (!chain?.active()) return w.attempt(w.opts);
  for (let attempt = 1; ; attempt++) {
    const dry: WriteOptions = { ...w.opts, dryRun: true, warnings: [] };
    const old = w.operation === 'UPDATE' && w.name ? current(chain.store, w.t, w.namespace, w.name) : undefined;
    const first = w.attempt(dry);
    const created = first.code === 201;
    const a: AdmissionAttributes = {
      t: w.t,
      operation: created ? 'CREATE' : w.operation,
      namespace: w.t.namespaced ? (w.namespace ?? stringMeta(first.object, 'namespace') ?? '') : '',
      name: stringMeta(first.object, 'name') ?? w.name ?? '',
      subresource: w.opts.subresource ?? '',
      object: created ? beforeCreate(first.object) : first.object,
      oldObject: created ? undefined : old?.object,
      dryRun: w.opts.dryRun ?? false,
      user: w.opts.requester,
      options: w.options,
    };
    const warnings: string[] = [];
    // The dry run's uid is the object's: the commit keeps it (see WriteOptions.uid). So are its
    // managedFields: kube-apiserver's field manager sees the request before admission, so what the
    // built-in plugins and the webhooks add (a protection finalizer) is owned by no one.
    const uid = created ? stringMeta(first.object, 'uid') : undefined;
    const stamped = (wo: WriteOptions): WriteOptions => ({ ...wo, ...(uid ? { uid } : {}), managedFieldsSet: true });
    const mutated = (await chain.mutate(a, warnings)) ?? first.object;
    const guarded = (o: JsonObject): JsonObject => {
      const copy = structuredClone(o);
      const meta = (copy.metadata ?? {}) as JsonObject;
      if (!created && old) {
        meta.resourceVersion = old.resourceVersion;
      }
      copy.metadata = meta;
      return copy;
    };
    // What the webhooks changed is defaulted and validated again before the validating ones see it.
    const final =
      mutated === first.object ? first.object : w.commit(guarded(mutated), stamped({ ...dry, warnings: [] }), created);
    await chain.validate({ ...a, object: final }, warnings);
    try {
      const object = w.commit(guarded(mutated), stamped(w.opts), created);
      w.opts.warnings?.push(...warnings);
      return { code: first.code, object };
    } catch (e) {
      const raced = e instanceof ApiError && (e.reason === 'Conflict' || e.reason === 'AlreadyExists');
      if (!raced || attempt >= MAX_ATTEMPTS || w.operation === 'CREATE') throw e;
    }
  }
}

/** A create's object before the registry stamps it: webhooks see no uid or creationTimestamp. */
function beforeCreate(obj: JsonObject): JsonObject {
  const copy = structuredClone(obj);
  const meta = copy.metadata;
  if (meta && typeof meta === 'object' && !Array.isArray(meta)) {
    delete meta.uid;
    delete meta.creationTimestamp;
  }
  return copy;
}

function current(
  objects: ObjectStore,
  t: ResourceType,
  namespace: string | undefined,
  name: string,
): { object: JsonObject; resourceVersion: string } | undefined {
  const s = objects.getStored(t, namespace, name);
  return s ? { object: objects.get(t, namespace, name), resourceVersion: String(s.modRevision) } : undefined;
}

function stringMeta(obj: JsonObject, field: string): string | undefined {
  const meta = obj.metadata;
  if (!meta || typeof meta !== 'object' || Array.isArray(meta)) return undefined;
  const v = meta[field];
  return typeof v === 'string' ? v : undefined;
}

/** DELETE: the validating admission of the object about to go (mutating webhooks get it too). */
export async function admitDelete(
  chain: AdmissionChain | undefined,
  t: ResourceType,
  namespace: string | undefined,
  name: string,
  opts: { dryRun: boolean; user: UserInfo | undefined; options: JsonObject },
): Promise<string[]> {
  if (!chain?.active()) return [];
  const s = chain.store.getStored(t, namespace, name);
  if (!s) return [];
  const a: AdmissionAttributes = {
    t,
    operation: 'DELETE',
    namespace: namespace ?? '',
    name,
    subresource: '',
    object: undefined,
    oldObject: chain.store.get(t, namespace, name),
    dryRun: opts.dryRun,
    user: opts.user,
    options: opts.options,
  };
  const warnings: string[] = [];
  await chain.mutate(a, warnings);
  await chain.validate(a, warnings);
  return warnings;
}

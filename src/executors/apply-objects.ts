// Server-side apply of rendered objects, shared by `kubectl apply` and the helm/kustomize
// template step: namespace defaulting, the flow label, the ownerReference to the watched
// resource, field manager `flowops` with force (FlowOps owns the fields it writes).

import { type ApiResource, describeRef, refOf, type KubeObject } from '../kube/index.js';
import { mergeOwnerReference, ownerReferenceFor } from './owner-reference.js';
import { invalid, isPlainObject, kubeError, abortError } from './step-errors.js';
import { REVISION_ANNOTATION, SOURCE_ANNOTATION } from '../sync/provenance.js';
import { FLOW_ANNOTATION, FLOW_LABEL, OWNER_ANNOTATION, type Outputs, type StepContext } from './types.js';

export interface ApplyOptions {
  /** Names the source in errors, e.g. "create-db.manifests". */
  field: string;
  ownerReference: boolean;
  /** Where namespaced objects without a namespace go. */
  namespace: string;
  /** The step's name and readyWhen, for the child recorder. */
  step?: { name: string; readyWhen?: string | undefined };
}

/** `Kind/namespace/name` (or `Kind/name`) of the watched object, as the owner annotation names it. */
export function ownerAnnotationOf(owner: {
  kind: string;
  metadata: { namespace?: string | undefined; name?: string | undefined };
}): string {
  return [owner.kind, ...(owner.metadata.namespace ? [owner.metadata.namespace] : []), owner.metadata.name ?? ''].join(
    '/',
  );
}

/** What leads from a child back to its cause: the Flow, the watched object, the Flow's commit. */
function provenanceAnnotations(ctx: StepContext): Record<string, string> {
  const { flow } = ctx;
  return {
    [FLOW_ANNOTATION]: `${flow.namespace ?? 'default'}/${flow.name}`,
    [OWNER_ANNOTATION]: ownerAnnotationOf(ctx.resource),
    ...(flow.source ? { [SOURCE_ANNOTATION]: flow.source } : {}),
    ...(flow.revision ? { [REVISION_ANNOTATION]: flow.revision } : {}),
  };
}

/** `kind: List` (and `*List`) documents stand for their items, as kubectl treats them. */
function flatten(docs: unknown[]): unknown[] {
  return docs.flatMap((d) =>
    isPlainObject(d) && typeof d.kind === 'string' && d.kind.endsWith('List') && Array.isArray(d.items)
      ? flatten(d.items)
      : [d],
  );
}

/** Checks a document is a Kubernetes object a PATCH can address; index is 1-based for authors. */
export function asKubeObject(doc: unknown, field: string, index: number): KubeObject {
  const where = `${field}: document ${index}`;
  if (!isPlainObject(doc)) throw invalid(`${where} is not a YAML mapping`, 'InvalidManifest');
  if (typeof doc.apiVersion !== 'string' || !doc.apiVersion)
    throw invalid(`${where} has no apiVersion`, 'InvalidManifest');
  if (typeof doc.kind !== 'string' || !doc.kind) throw invalid(`${where} has no kind`, 'InvalidManifest');
  const meta = doc.metadata;
  if (!isPlainObject(meta) || typeof meta.name !== 'string' || !meta.name) {
    throw invalid(`${where} (${doc.kind}) has no metadata.name (generateName cannot be applied)`, 'InvalidManifest');
  }
  if (meta.namespace !== undefined && typeof meta.namespace !== 'string')
    throw invalid(`${where} has a non-string metadata.namespace`, 'InvalidManifest');
  return doc as KubeObject;
}

interface Prepared {
  obj: KubeObject;
  resource: ApiResource;
}

async function prepare(doc: unknown, index: number, ctx: StepContext, opts: ApplyOptions): Promise<Prepared> {
  const obj = structuredClone(asKubeObject(doc, opts.field, index));
  let resource: ApiResource;
  try {
    resource = await ctx.kube.resource(obj.apiVersion, obj.kind);
  } catch (err) {
    throw kubeError(err, `apply ${obj.kind}/${obj.metadata.name}`);
  }
  const meta = obj.metadata;
  // A namespace on a cluster-scoped kind means nothing; kubectl drops it as well.
  if (!resource.namespaced) delete meta.namespace;
  else if (!meta.namespace) meta.namespace = opts.namespace;
  if (ctx.ownNamespaceOnly) {
    const own = ctx.flow.namespace ?? 'default';
    const where = !resource.namespaced
      ? 'cluster-scoped'
      : meta.namespace !== own
        ? `in namespace ${meta.namespace}`
        : undefined;
    if (where)
      throw invalid(
        `${opts.field}: document ${index} (${obj.kind}/${meta.name}) is ${where}; with --no-cross-namespace-refs a Flow writes only in its own namespace (${own})`,
        'CrossNamespaceRef',
      );
  }
  meta.labels = {
    ...(isPlainObject(meta.labels) ? (meta.labels as Record<string, string>) : {}),
    [FLOW_LABEL]: ctx.flow.name,
  };
  // A rendered manifest's own annotations win, except the provenance ones: they must tell the truth.
  meta.annotations = {
    ...(isPlainObject(meta.annotations) ? (meta.annotations as Record<string, string>) : {}),
    ...provenanceAnnotations(ctx),
  };
  if (opts.ownerReference) {
    const decision = ownerReferenceFor(ctx.resource, { namespaced: resource.namespaced, namespace: meta.namespace });
    if ('ref' in decision)
      meta.ownerReferences = mergeOwnerReference(
        Array.isArray(meta.ownerReferences) ? meta.ownerReferences : undefined,
        decision.ref,
      );
    else
      ctx.log.info(
        { object: describeRef(refOf(obj)), owner: describeRef(refOf(ctx.resource)) },
        `not setting an ownerReference: ${decision.skip}`,
      );
  }
  return { obj, resource };
}

/**
 * Applies every object in order. All documents are checked and their kinds resolved first, so a
 * broken document late in the stream fails the step before anything is written.
 */
export async function applyObjects(docs: unknown[], ctx: StepContext, opts: ApplyOptions): Promise<KubeObject[]> {
  const prepared: Prepared[] = [];
  const all = flatten(docs);
  for (let i = 0; i < all.length; i++) prepared.push(await prepare(all[i], i + 1, ctx, opts));
  const applied: KubeObject[] = [];
  for (const { obj } of prepared) {
    const what = `apply ${describeRef(refOf(obj))}`;
    if (ctx.signal.aborted) throw abortError(ctx.signal, what);
    try {
      const skip = ctx.applied;
      const identity = skip ? `${ctx.fieldManager}\u001f${skip.identity}` : '';
      const cached = skip?.cache.unchanged(obj, identity, skip.live);
      if (skip && !cached) skip.cache.forget(obj, identity);
      let live = cached;
      if (!live) {
        skip?.cache.sending(obj);
        try {
          live = await ctx.kube.apply(obj, { fieldManager: ctx.fieldManager, force: true });
        } finally {
          skip?.cache.answered(obj, live);
        }
      }
      if (skip && !cached) {
        skip.cache.remember(obj, identity);
        skip.sent?.();
      }
      applied.push(live);
      if (opts.step)
        ctx.children?.record(live, {
          step: opts.step.name,
          keep: !opts.ownerReference,
          ...(opts.step.readyWhen ? { readyWhen: opts.step.readyWhen } : {}),
        });
    } catch (err) {
      throw kubeError(err, what);
    }
  }
  return applied;
}

/** `applied` always; name/namespace/uid/resourceVersion too when exactly one object was applied. */
export function appliedOutputs(objects: KubeObject[]): Outputs {
  const outputs: Outputs = { applied: objects.map((o) => describeRef(refOf(o))) };
  const only = objects.length === 1 ? objects[0] : undefined;
  if (only) Object.assign(outputs, objectOutputs(only));
  return outputs;
}

export function objectOutputs(o: KubeObject): Outputs {
  return {
    name: o.metadata.name ?? '',
    namespace: o.metadata.namespace ?? '',
    uid: o.metadata.uid ?? '',
    resourceVersion: o.metadata.resourceVersion ?? '',
  };
}

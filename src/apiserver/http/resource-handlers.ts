import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  asStored,
  presented,
  type ObjectStore,
  type WriteOptions,
  type DeleteOptions,
} from '../objects/object-store.js';
import { metadataOf, stringField } from '../objects/meta.js';
import type { ResourceRegistry } from '../registry/resource-registry.js';
import { type JsonObject, type ResourceType, apiVersionOf } from '../registry/types.js';
import { decodeObject, mediaType, readBody } from './body.js';
import { deleteAnswer } from './delete-answer.js';
import { readDeleteOptions } from './delete-options.js';
import { answerScale, hasScale } from './scale.js';
import { booleanParam, selectorFilter } from './query.js';
import { partialMetadata, partialMetadataList, wantsMetadataOnly } from './metadata-only.js';
import { answerFormat } from './negotiate.js';
import { JsonParts, sendJson, sendProtobuf } from './respond.js';
import type { ResourceRequest } from './request-info.js';
import { awaitResourceVersion, resourceVersionParam } from './resource-version.js';
import { decodeContinue } from '../objects/continue-token.js';
import { errors } from './status.js';
import { handleSpecial, servesSubresource } from './subresources.js';
import { serveWatch, type WatchSettings } from './watch.js';
import type { WatchBudget } from './watch-budget.js';
import { includeObjectParam, toTable, wantsTable } from '../table/table.js';
import { userOf } from '../auth/gate.js';
import { admitDelete, type AdmissionChain } from '../admission/index.js';
import { createAdmitted, patchAdmitted, updateAdmitted } from './admitted-writes.js';
import { checkNamespaceOpen } from './namespace-open.js';
import { admissionOptions } from '../admission/options.js';
import type { CsrSigner } from '../auth/csr-signing.js';

export interface ResourceContext {
  registry: ResourceRegistry;
  objects: ObjectStore;
  watch: WatchSettings;
  /** Bounds the memory watch responses to slow clients hold (shared by every watch of the server). */
  watchBudget: WatchBudget;
  /** Webhooks and ValidatingAdmissionPolicies called on writes (absent: none). */
  admission?: AdmissionChain;
  /** Signs approved CertificateSigningRequests of the built-in signers with the server's CA (auth on only). */
  csrSigner?: CsrSigner;
}

export async function handleResource(
  ctx: ResourceContext,
  req: IncomingMessage,
  res: ServerResponse,
  info: ResourceRequest,
  q: URLSearchParams,
): Promise<void> {
  const t = resolve(ctx, info);
  if (await handleSpecial(ctx, req, res, t, info)) return;
  const format = answerFormat(req.headers.accept, t);
  if (!format) throw errors.notAcceptable();
  if (req.method === 'GET' && !info.name && booleanParam(q, 'watch')) {
    // A watch starts from what is committed: its initial list must not show unacknowledged writes.
    await ctx.objects.store.sync();
    const table = wantsTable(req.headers.accept);
    const metadataOnly = !table && wantsMetadataOnly(req.headers.accept);
    return serveWatch(ctx, req, res, t, info.namespace, q, { table, metadataOnly, protobuf: format === 'protobuf' });
  }
  const reply = await answer(ctx, req, t, info, q);
  // Reads and writes alike are answered only once what they saw or did is durable.
  await ctx.objects.store.sync();
  if (format === 'protobuf') sendProtobuf(res, reply.code, reply.body, reply.warnings);
  else sendJson(res, reply.code, reply.body, reply.warnings);
}

interface Reply {
  code: number;
  body: unknown;
  warnings?: string[] | undefined;
}

async function answer(
  ctx: ResourceContext,
  req: IncomingMessage,
  t: ResourceType,
  info: ResourceRequest,
  q: URLSearchParams,
): Promise<Reply> {
  const { namespace, name, subresource } = info;
  const method = req.method ?? 'GET';
  const table = wantsTable(req.headers.accept);
  const metadataOnly = !table && wantsMetadataOnly(req.headers.accept);
  if (method === 'GET' && !name) {
    const rv = resourceVersionParam(q);
    const token = q.get('continue') ? decodeContinue(q.get('continue') ?? '') : undefined;
    if (token && rv !== undefined && rv !== 0) {
      throw errors.badRequest('specifying resource version is not allowed when using continue');
    }
    // A token is client input: its revision may be one the store has not reached (forged, or another server's).
    const wanted = token ? (token.rv > 0 ? token.rv : undefined) : rv;
    if (wanted !== undefined) await awaitResourceVersion(ctx.objects.store, wanted);
    return { code: 200, body: list(ctx, t, namespace, q, table, metadataOnly) };
  }
  if (method === 'GET' && subresource === 'scale')
    return { code: 200, body: await answerScale(ctx.objects, t, namespace, name!, req, {}) };
  if (method === 'GET') {
    if (!table) {
      // The stored text as it is: no parse and re-serialise per read.
      const stored = ctx.objects.getStored(t, namespace, name!);
      if (!stored) throw errors.notFound(t, name!);
      if (metadataOnly && !subresource) return { code: 200, body: partialMetadata(t, presented(t, stored.value)) };
      return { code: 200, body: presented(t, stored.value) };
    }
    const obj = ctx.objects.get(t, namespace, name!);
    if (t.custom) obj.apiVersion = apiVersionOf(t);
    return {
      code: 200,
      body: toTable(t, [obj], {
        includeObject: includeObjectParam(q),
        withColumns: true,
        resourceVersion: String(metadataOf(obj).resourceVersion),
      }),
    };
  }
  const opts = writeOptions(req, q, subresource);
  if (subresource === 'scale' && name)
    return { code: 200, body: await answerScale(ctx.objects, t, namespace, name, req, opts), warnings: opts.warnings };
  if (method === 'POST' && !name) {
    const obj = decodeObject(req, await readBody(req), t.kind, t);
    const ns = t.namespaced ? (namespace ?? stringField(metadataOf(obj), 'namespace') ?? 'default') : undefined;
    checkNamespaceOpen(ctx, t, ns, obj);
    const { object } = await createAdmitted(ctx, t, ns, obj, q, opts);
    return { code: 201, body: asStored(object), warnings: opts.warnings };
  }
  if (method === 'PUT' && name) {
    const obj = decodeObject(req, await readBody(req), t.kind, t);
    checkBodyName(obj, name);
    if (!subresource && CREATE_ON_UPDATE.has(`${t.group}/${t.kind}`) && !ctx.objects.getStored(t, namespace, name)) {
      // Create-on-update is admitted as a CREATE, as kube-apiserver does.
      checkNamespaceOpen(ctx, t, namespace, obj);
      const { object } = await createAdmitted(ctx, t, namespace, obj, q, opts);
      return { code: 201, body: asStored(object), warnings: opts.warnings };
    }
    const { object } = await updateAdmitted(ctx, t, namespace, name, obj, q, opts);
    return { code: 200, body: asStored(object), warnings: opts.warnings };
  }
  if (method === 'PATCH' && name) {
    const raw = await readBody(req);
    const { code, object } = await patchAdmitted(ctx, t, namespace, name, { type: mediaType(req), raw }, q, opts);
    return { code, body: asStored(object), warnings: opts.warnings };
  }
  if (method === 'DELETE' && name) {
    const d = await readDeleteOptions(req, q);
    const options = admissionOptions('DeleteOptions', q);
    const user = userOf(req);
    const warnings = await admitDelete(ctx.admission, t, namespace, name, { dryRun: d.dryRun ?? false, user, options });
    // The NamespaceLifecycle admission plugin keeps the namespaces the cluster itself needs.
    if (!t.group && t.kind === 'Namespace' && IMMORTAL_NAMESPACES.has(name))
      throw errors.forbidden(t, name, 'this namespace may not be deleted');
    return { code: 200, body: deleteAnswer(t, ctx.objects.delete(t, namespace, name, d)), warnings };
  }
  if (method === 'DELETE')
    return { code: 200, body: deleteCollection(ctx, t, namespace, q, await readDeleteOptions(req, q)) };
  throw errors.methodNotAllowed(`the server does not allow this method on the requested resource`);
}

function resolve(ctx: ResourceContext, info: ResourceRequest): ResourceType {
  const t = ctx.registry.lookup(info.group, info.version, info.resource);
  if (!t) throw errors.pathNotFound();
  if (info.namespace !== undefined && !t.namespaced) throw errors.pathNotFound();
  if (
    info.subresource !== undefined &&
    !(info.subresource === 'status' && t.statusSubresource) &&
    !(info.subresource === 'scale' && hasScale(t)) &&
    !servesSubresource(t, info.subresource)
  )
    throw errors.pathNotFound();
  return t;
}

function writeOptions(req: IncomingMessage, q: URLSearchParams, subresource: string | undefined): WriteOptions {
  const dryRun = q.getAll('dryRun');
  const optionsKind = req.method === 'POST' ? 'CreateOptions' : req.method === 'PUT' ? 'UpdateOptions' : 'PatchOptions';
  if (dryRun.some((d) => d !== 'All')) {
    const shown = `[${dryRun.map((d) => JSON.stringify(d)).join(' ')}]`;
    throw errors.invalidOptions(optionsKind, {
      reason: 'FieldValueNotSupported',
      message: `Unsupported value: ${shown}: supported values: "All"`,
      field: 'dryRun',
    });
  }
  const validation = q.get('fieldValidation') ?? 'Strict';
  if (!['', 'Strict', 'Warn', 'Ignore'].includes(validation)) {
    const message = `Unsupported value: ${JSON.stringify(validation)}: supported values: "", "Ignore", "Strict", "Warn"`;
    throw errors.invalidOptions(optionsKind, { reason: 'FieldValueNotSupported', message, field: 'fieldValidation' });
  }
  // Without a fieldValidation parameter kube-apiserver warns rather than rejects (the Warn default).
  const fieldValidation = (q.get('fieldValidation') ? validation : 'Warn') as WriteOptions['fieldValidation'];
  const opts: WriteOptions = { dryRun: dryRun.length > 0, fieldValidation, warnings: [] };
  opts.fieldManager = q.get('fieldManager') ?? defaultManager(req);
  const requester = userOf(req);
  if (requester) opts.requester = requester;
  if (subresource) opts.subresource = subresource;
  return opts;
}

/** kube-apiserver derives a missing field manager from the User-Agent's product token. */
function defaultManager(req: IncomingMessage): string {
  const ua = req.headers['user-agent'] ?? 'unknown';
  return ua.split('/')[0]!.slice(0, 128) || 'unknown';
}

function list(
  ctx: ResourceContext,
  t: ResourceType,
  namespace: string | undefined,
  q: URLSearchParams,
  table: boolean,
  metadataOnly: boolean,
): unknown {
  const filter = selectorFilter(t, q);
  const limitText = q.get('limit') ?? '0';
  if (!/^-?\d+$/.test(limitText))
    throw errors.badRequest(`strconv.ParseInt: parsing ${JSON.stringify(limitText)}: invalid syntax`);
  if (q.get('resourceVersionMatch') && !q.get('resourceVersion')) {
    throw errors.invalidListOptions(
      'resourceVersionMatch',
      'resourceVersionMatch is forbidden unless resourceVersion is provided',
    );
  }
  // resourceVersion=0 (any version) is served whole from kube-apiserver's watch cache, limit or not.
  const fromCache = q.get('resourceVersion') === '0' && q.get('resourceVersionMatch') !== 'Exact';
  const limit = fromCache ? 0 : Number(limitText);
  const page = ctx.objects.list(t, namespace, {
    ...(filter ? { filter } : {}),
    ...(limit > 0 ? { limit } : {}),
    ...(q.get('continue') ? { continueToken: q.get('continue')! } : {}),
    ...(q.get('resourceVersion') ? { resourceVersion: q.get('resourceVersion')! } : {}),
    ...(q.get('resourceVersionMatch') ? { resourceVersionMatch: q.get('resourceVersionMatch')! } : {}),
  });
  if (table) {
    const objects = page.items.map((i) => JSON.parse(presented(t, i)) as JsonObject);
    return toTable(t, objects, {
      includeObject: includeObjectParam(q),
      withColumns: true,
      resourceVersion: page.resourceVersion,
      ...(page.continueToken ? { continueToken: page.continueToken } : {}),
      ...(page.remainingItemCount !== undefined ? { remainingItemCount: page.remainingItemCount } : {}),
    });
  }
  // A PartialObjectMetadataList is typed even for custom resources: no empty `continue`.
  const meta: Record<string, unknown> = listMeta(t, page.resourceVersion, page.continueToken, !metadataOnly);
  if (page.remainingItemCount !== undefined) meta.remainingItemCount = page.remainingItemCount;
  if (metadataOnly)
    return partialMetadataList(
      t,
      meta,
      page.items.map((i) => presented(t, i)),
    );
  const items = t.custom
    ? page.items.map((i) => presented(t, i))
    : page.items.map((i) => withoutTypeMeta(t.storage ? presented(t, i) : i, t));
  return listBody(t, meta, items);
}

/** A list's metadata; a custom resource list (unstructured on kube-apiserver) always has `continue`, empty at the end. */
function listMeta(
  t: ResourceType,
  resourceVersion: string,
  continueToken: string | undefined,
  unstructured: boolean,
): Record<string, unknown> {
  const meta: Record<string, unknown> = { resourceVersion };
  if (continueToken) meta.continue = continueToken;
  else if (t.custom && unstructured) meta.continue = '';
  return meta;
}

const LIST_CHUNK = 512;

/** Items are already JSON text: spliced into the list in chunks rather than parsed and re-serialised, or joined into one huge string. */
function listBody(t: ResourceType, meta: Record<string, unknown>, items: string[]): JsonParts {
  const parts = [
    `{"kind":${JSON.stringify(t.listKind)},"apiVersion":${JSON.stringify(apiVersionOf(t))},"metadata":${JSON.stringify(meta)},"items":[`,
  ];
  for (let i = 0; i < items.length; i += LIST_CHUNK)
    parts.push((i ? ',' : '') + items.slice(i, i + LIST_CHUNK).join(','));
  parts.push(']}');
  return new JsonParts(parts, { apiVersion: apiVersionOf(t), kind: t.listKind, metadata: meta, items });
}

function deleteCollection(
  ctx: ResourceContext,
  t: ResourceType,
  namespace: string | undefined,
  q: URLSearchParams,
  opts: DeleteOptions,
): JsonParts {
  const filter = selectorFilter(t, q);
  const page = ctx.objects.list(t, namespace, filter ? { filter } : {});
  const listed = String(ctx.objects.store.currentRevision());
  // The registry's DeleteCollection answers with the list it read, not with what each delete left
  // (an object a finalizer keeps shows no deletionTimestamp there), each in the version asked for.
  const read: string[] = [];
  for (const text of page.items) {
    const meta = metadataOf(JSON.parse(text) as JsonObject);
    const ns = stringField(meta, 'namespace');
    read.push(JSON.stringify(ctx.objects.get(t, ns, String(meta.name))));
    ctx.objects.delete(t, ns, String(meta.name), opts);
  }
  return listBody(t, listMeta(t, listed, undefined, true), t.custom ? read : read.map((i) => withoutTypeMeta(i, t)));
}

/**
 * The items of a built-in kind's list carry no apiVersion and kind on kube-apiserver (they are
 * typed Go structs whose TypeMeta the list encoder leaves empty); custom resources keep theirs.
 */
function withoutTypeMeta(text: string, t: ResourceType): string {
  const prefix = `{"apiVersion":${JSON.stringify(apiVersionOf(t))},"kind":${JSON.stringify(t.kind)},`;
  if (text.startsWith(prefix)) return `{${text.slice(prefix.length)}`;
  const obj = JSON.parse(text) as JsonObject;
  delete obj.apiVersion;
  delete obj.kind;
  return JSON.stringify(obj);
}

const IMMORTAL_NAMESPACES = new Set(['default', 'kube-system', 'kube-public']);

/**
 * The kinds whose REST strategy answers AllowCreateOnUpdate true (kubernetes/kubernetes
 * pkg/registry/…/strategy.go): a PUT of a missing object creates it (201), as kubectl replace relies on.
 */
const CREATE_ON_UPDATE = new Set([
  '/Service',
  '/Endpoints',
  '/Event',
  '/LimitRange',
  'events.k8s.io/Event',
  'coordination.k8s.io/Lease',
  'node.k8s.io/RuntimeClass',
  'rbac.authorization.k8s.io/Role',
  'rbac.authorization.k8s.io/RoleBinding',
  'rbac.authorization.k8s.io/ClusterRole',
  'rbac.authorization.k8s.io/ClusterRoleBinding',
]);

/**
 * The update handler's checkName (k8s.io/apiserver pkg/endpoints/handlers/rest.go), before the store
 * is asked: a body naming another object is a 400 even when the URL's object does not exist.
 */
function checkBodyName(obj: JsonObject, name: string): void {
  const bodyName = stringField(metadataOf(obj), 'name');
  if (bodyName !== undefined && bodyName !== name) {
    throw errors.badRequest(`the name of the object (${bodyName}) does not match the name on the URL (${name})`);
  }
}

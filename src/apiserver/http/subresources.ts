import type { IncomingMessage, ServerResponse } from 'node:http';
import { signCsr, wantsSigning, type CsrSigner } from '../auth/csr-signing.js';
import { metadataOf, nowTimestamp } from '../objects/meta.js';
import type { JsonObject, ResourceType } from '../registry/types.js';
import { decodeObject, readBody } from './body.js';
import { answerOpenModeReview } from './open-reviews.js';
import { deleteOptionsFrom } from './delete-options.js';
import type { ResourceRequest } from './request-info.js';
import type { ResourceContext } from './resource-handlers.js';
import { answerFormat } from './negotiate.js';
import { sendJson, sendProtobuf, sendText } from './respond.js';
import { ApiError, errors } from './status.js';

/**
 * The resources and subresources that are no plain storage: create-only reviews, bindings and pod
 * binding, eviction, pods/log, the streaming pod subresources (nothing runs a container here),
 * componentstatuses, CSR approval and namespaces/finalize. Answers and returns true, or leaves the
 * request to the storage handlers.
 */
export async function handleSpecial(
  ctx: ResourceContext,
  req: IncomingMessage,
  res: ServerResponse,
  t: ResourceType,
  info: ResourceRequest,
): Promise<boolean> {
  const method = req.method ?? 'GET';
  // Answered in protobuf when the client asks for it, as every built-in kind's answer is.
  const send = (code: number, body: JsonObject): void => {
    if (answerFormat(req.headers.accept, t) === 'protobuf') sendProtobuf(res, code, body);
    else sendJson(res, code, body);
  };
  const verb = verbOf(method, info);
  if (!info.subresource && t.verbs && !t.verbs.includes(verb)) {
    throw errors.methodNotAllowed('the server does not allow this method on the requested resource');
  }
  const sub = info.subresource;
  const declared = sub ? t.subresources?.find((s) => s.name === sub) : undefined;
  if (declared && !declared.verbs.includes(verb)) {
    throw errors.methodNotAllowed('the server does not allow this method on the requested resource');
  }
  if (isReview(t)) {
    const body = decodeObject(req, await readBody(req), t.kind, t);
    send(201, answerOpenModeReview(t, body));
    return true;
  }
  const key = `${t.group}/${t.plural}${sub ? `/${sub}` : ''}`;
  switch (key) {
    case '/componentstatuses':
      send(200, componentStatuses(ctx, info.name));
      return true;
    case '/bindings':
    case '/pods/binding':
      send(201, await bind(ctx, req, info));
      return true;
    case '/pods/eviction':
      send(201, await evict(ctx, req, t, info));
      return true;
    case '/pods/log':
      ctx.objects.get(t, info.namespace, info.name ?? '');
      // A simulated pod's containers never ran: their log is empty, as a fresh container's is.
      sendText(res, 200, '');
      return true;
    case '/pods/exec':
    case '/pods/attach':
    case '/pods/portforward':
      ctx.objects.get(t, info.namespace, info.name ?? '');
      throw errors.badRequest(
        `no container runs here: pod ${JSON.stringify(info.name)} is simulated by the FlowOps embedded API server ` +
          `(no kubelet), so ${sub} cannot reach a container`,
      );
    case 'certificates.k8s.io/certificatesigningrequests/approval':
      send(200, await approve(ctx, req, t, info));
      return true;
    case '/serviceaccounts/token':
      throw errors.badRequest(
        "ServiceAccount tokens are signed with the server's key, which only a server with auth on has " +
          '(flowops up; flowops apiserver runs without auth)',
      );
    case '/namespaces/finalize':
      send(200, await finalizeNamespace(ctx, req, t, info));
      return true;
    default:
      return false;
  }
}

export function servesSubresource(t: ResourceType, sub: string): boolean {
  return t.subresources?.some((s) => s.name === sub) ?? false;
}

function verbOf(method: string, info: ResourceRequest): string {
  if (method === 'GET' || method === 'HEAD') return info.name ? 'get' : 'list';
  if (method === 'POST') return 'create';
  if (method === 'PUT') return 'update';
  if (method === 'PATCH') return 'patch';
  if (method === 'DELETE') return info.name ? 'delete' : 'deletecollection';
  return method.toLowerCase();
}

const isReview = (t: ResourceType): boolean =>
  (t.group === 'authorization.k8s.io' || t.group === 'authentication.k8s.io') && t.verbs?.length === 1;

function componentStatuses(ctx: ResourceContext, name: string | undefined): JsonObject {
  const failure = ctx.objects.store.liveness();
  // The embedded server's storage plays etcd; no scheduler or controller-manager of its own is probed.
  const item = (n: string): JsonObject => ({
    kind: 'ComponentStatus',
    apiVersion: 'v1',
    metadata: { name: n },
    conditions: [{ type: 'Healthy', status: failure ? 'False' : 'True', message: failure ? failure.message : 'ok' }],
  });
  const csType = { group: '', plural: 'componentstatuses' } as const;
  if (name !== undefined) {
    if (name !== 'etcd-0')
      throw new ApiError(404, 'NotFound', `componentstatuses "${name}" not found`, { name, kind: csType.plural });
    return item(name);
  }
  return { kind: 'ComponentStatusList', apiVersion: 'v1', metadata: {}, items: [item('etcd-0')] };
}

function podType(ctx: ResourceContext): ResourceType {
  return ctx.registry.builtin('', 'v1', 'pods');
}

const success = (): JsonObject => ({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 });

/** pkg/registry/core/pod/storage BindingREST.Create: sets spec.nodeName and the PodScheduled condition. */
async function bind(ctx: ResourceContext, req: IncomingMessage, info: ResourceRequest): Promise<JsonObject> {
  const body = decodeObject(req, await readBody(req), 'Binding');
  const meta = metadataOf(body);
  const podName = info.subresource ? (info.name ?? '') : String(meta.name ?? '');
  const target =
    typeof body.target === 'object' && body.target !== null && !Array.isArray(body.target) ? body.target : {};
  const node = typeof target.name === 'string' ? target.name : '';
  const pods = podType(ctx);
  const bindingType = { group: '', kind: 'Binding' };
  if (info.subresource && meta.name !== undefined && meta.name !== podName) {
    throw errors.badRequest('name in URL does not match name in Binding object');
  }
  if (!node)
    throw errors.invalid(bindingType, podName, [
      { reason: 'FieldValueRequired', message: 'Required value', field: 'target.name' },
    ]);
  const pod = ctx.objects.get(pods, info.namespace, podName);
  const spec = (pod.spec ?? {}) as JsonObject;
  if (typeof spec.nodeName === 'string' && spec.nodeName) {
    throw errors.conflictWith(
      { ...pods, plural: 'pods/binding' },
      podName,
      `pod ${podName} is already assigned to node ${JSON.stringify(spec.nodeName)}`,
    );
  }
  const next: JsonObject = { ...pod, spec: { ...spec, nodeName: node } };
  // The binding subresource sets nodeName itself: ValidatePodUpdate (spec immutable) is not its rule.
  ctx.objects.update(pods, info.namespace, podName, next, { fieldManager: 'kube-scheduler', subresource: 'binding' });
  const bound = ctx.objects.get(pods, info.namespace, podName);
  const status = (bound.status ?? {}) as JsonObject;
  const conditions = Array.isArray(status.conditions)
    ? status.conditions.filter(
        (c) => !(typeof c === 'object' && c !== null && !Array.isArray(c) && c.type === 'PodScheduled'),
      )
    : [];
  conditions.push({
    type: 'PodScheduled',
    status: 'True',
    lastProbeTime: null,
    lastTransitionTime: nowTimestamp(),
  });
  ctx.objects.update(
    pods,
    info.namespace,
    podName,
    { ...bound, status: { ...status, conditions } },
    { subresource: 'status', fieldManager: 'kube-scheduler' },
  );
  return success();
}

/**
 * pods/eviction: deletes the pod with the Eviction's DeleteOptions. PodDisruptionBudgets are not
 * consulted here (partial: kube-apiserver refuses with 429 when a budget allows no disruption).
 */
async function evict(
  ctx: ResourceContext,
  req: IncomingMessage,
  t: ResourceType,
  info: ResourceRequest,
): Promise<JsonObject> {
  const body = decodeObject(req, await readBody(req), 'Eviction');
  const name = info.name ?? '';
  if (metadataOf(body).name !== undefined && metadataOf(body).name !== name) {
    throw errors.badRequest('name in URL does not match name in Eviction object');
  }
  const options =
    body.deleteOptions && typeof body.deleteOptions === 'object' && !Array.isArray(body.deleteOptions)
      ? body.deleteOptions
      : {};
  ctx.objects.get(t, info.namespace, name);
  ctx.objects.delete(t, info.namespace, name, deleteOptionsFrom(options));
  return success();
}

/**
 * certificatesigningrequests/approval (csrApprovalStrategy): only status.conditions change; the
 * certificate and the rest of the object stay as stored. A built-in signer then signs (csr-signing.ts).
 */
async function approve(
  ctx: ResourceContext,
  req: IncomingMessage,
  t: ResourceType,
  info: ResourceRequest,
): Promise<JsonObject> {
  const name = info.name ?? '';
  const body = decodeObject(req, await readBody(req), t.kind, t);
  const old = ctx.objects.get(t, undefined, name);
  const oldStatus = (old.status ?? {}) as JsonObject;
  const newStatus = (body.status ?? {}) as JsonObject;
  const status: JsonObject = { ...oldStatus };
  if (newStatus.conditions !== undefined) status.conditions = newStatus.conditions;
  else delete status.conditions;
  const next: JsonObject = {
    ...old,
    metadata: { ...metadataOf(old), resourceVersion: metadataOf(body).resourceVersion ?? '' },
    status,
  };
  if (!metadataOf(body).resourceVersion) delete metadataOf(next).resourceVersion;
  const approved = ctx.objects.update(t, undefined, name, next, {
    subresource: 'status',
    fieldManager: managerOf(req),
  });
  return ctx.csrSigner && wantsSigning(approved) ? await issue(ctx, t, approved, ctx.csrSigner) : approved;
}

/** The built-in signer's work, right after approval: status.certificate, or a Failed condition saying why. */
async function issue(ctx: ResourceContext, t: ResourceType, csr: JsonObject, signer: CsrSigner): Promise<JsonObject> {
  const name = String(metadataOf(csr).name);
  const status = (csr.status ?? {}) as JsonObject;
  let next: JsonObject;
  try {
    next = { ...status, certificate: Buffer.from(await signCsr(signer, csr)).toString('base64') };
  } catch (e) {
    const message = `the embedded CA could not sign the request: ${(e as { stderr?: string }).stderr ?? String(e)}`;
    const failed = {
      type: 'Failed',
      status: 'True',
      reason: 'SignerValidationFailure',
      message,
      lastUpdateTime: nowTimestamp(),
    };
    const conditions = Array.isArray(status.conditions) ? status.conditions : [];
    next = { ...status, conditions: [...conditions, failed] };
  }
  const current = ctx.objects.get(t, undefined, name);
  return ctx.objects.update(
    t,
    undefined,
    name,
    { ...current, status: next },
    { subresource: 'status', fieldManager: 'certificatesigningrequest-signing-controller' },
  );
}

/** namespaces/finalize (FinalizeREST): only spec.finalizers change. */
async function finalizeNamespace(
  ctx: ResourceContext,
  req: IncomingMessage,
  t: ResourceType,
  info: ResourceRequest,
): Promise<JsonObject> {
  const name = info.name ?? '';
  const body = decodeObject(req, await readBody(req), t.kind, t);
  const old = ctx.objects.get(t, undefined, name);
  const finalizers = ((body.spec ?? {}) as JsonObject).finalizers;
  const spec: JsonObject = { ...((old.spec ?? {}) as JsonObject) };
  if (finalizers !== undefined) spec.finalizers = finalizers;
  else delete spec.finalizers;
  return ctx.objects.update(
    t,
    undefined,
    name,
    { ...old, spec },
    { fieldManager: managerOf(req), subresource: 'finalize' },
  );
}

function managerOf(req: IncomingMessage): string {
  return (req.headers['user-agent'] ?? 'unknown').split('/')[0]?.slice(0, 128) || 'unknown';
}

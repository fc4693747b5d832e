import type { ObjectStore } from '../objects/object-store.js';
import type { ResourceRegistry } from '../registry/resource-registry.js';
import type { JsonObject, ResourceType } from '../registry/types.js';
import { ApiError } from '../http/status.js';
import { jsonPatch } from '../patch/json-patch.js';
import type { AdmissionAttributes } from './attributes.js';
import { evaluate, toCel, typedToCel } from './cel.js';
import { matchedType, namespaceSelectorMatches, objectSelectorMatches } from './matching.js';
import { reviewRequest, verifyResponse, InvalidResponse, type ReviewResult } from './review.js';
import { postReview, WebhookCallError } from './webhook-client.js';
import { storedWebhooks, type Webhook } from './webhook-config.js';
import { deniedByWebhook, dryRunUnsupported, failedCalling, internal } from './webhook-errors.js';
import { webhookTarget } from './webhook-target.js';

/**
 * Calls the stored admission webhooks on a write, as kube-apiserver's dispatchers do:
 * staging/src/k8s.io/apiserver/pkg/admission/plugin/webhook/mutating/dispatcher.go (one after
 * another, JSONPatch applied, reinvocationPolicy IfNeeded re-called once when a later webhook
 * changed the object) and .../validating/dispatcher.go (all at once, the first refusal in webhook
 * order answered). A call that fails is ignored under failurePolicy Ignore, and under Fail answered
 * as `failed calling webhook`; a refusal is always answered.
 */
export class WebhookDispatcher {
  constructor(
    private readonly objects: ObjectStore,
    private readonly registry: ResourceRegistry,
  ) {}

  any(): boolean {
    return this.count('mutatingwebhookconfigurations') + this.count('validatingwebhookconfigurations') > 0;
  }

  private count(plural: string): number {
    const t = this.registry.lookup('admissionregistration.k8s.io', 'v1', plural);
    return t ? this.objects.list(t, undefined, { limit: 1 }).items.length : 0;
  }

  /** Runs the mutating webhooks; returns the object they leave. */
  async mutate(a: AdmissionAttributes, warnings: string[]): Promise<JsonObject | undefined> {
    let object = a.object;
    const hooks = storedWebhooks(this.objects, this.registry, 'mutatingwebhookconfigurations');
    const lastSeen = new Map<Webhook, string>();
    const run = async (hook: Webhook): Promise<void> => {
      const attrs = { ...a, object };
      const t = this.shouldCall(hook, attrs);
      if (!t) return;
      const result = await this.call(hook, attrs, t, true);
      if (!result) return;
      warnings.push(...result.warnings);
      if (!result.allowed) throw deniedByWebhook(hook.name, result.status);
      if (result.patch && object) object = applyPatch(object, result.patch);
      lastSeen.set(hook, JSON.stringify(object));
    };
    for (const hook of hooks) await run(hook);
    const final = JSON.stringify(object);
    for (const hook of hooks) {
      if (hook.reinvocationPolicy !== 'IfNeeded') continue;
      const seen = lastSeen.get(hook);
      if (seen !== undefined && seen !== final) await run(hook);
    }
    return object;
  }

  /** Runs the validating webhooks on the final object. */
  async validate(a: AdmissionAttributes, warnings: string[]): Promise<void> {
    const hooks = storedWebhooks(this.objects, this.registry, 'validatingwebhookconfigurations');
    const calls = hooks.map(async (hook): Promise<ApiError | undefined> => {
      const t = this.shouldCall(hook, a);
      if (!t) return undefined;
      try {
        const result = await this.call(hook, a, t, false);
        if (!result) return undefined;
        warnings.push(...result.warnings);
        return result.allowed ? undefined : deniedByWebhook(hook.name, result.status);
      } catch (e) {
        if (e instanceof ApiError) return e;
        throw e;
      }
    });
    const refusal = (await Promise.all(calls)).find((e) => e !== undefined);
    if (refusal) throw refusal;
  }

  /** The resource version to call the webhook with, or undefined when it does not apply. */
  private shouldCall(hook: Webhook, a: AdmissionAttributes): ResourceType | undefined {
    const t = matchedType(hook.rules, hook.matchPolicy, a, this.registry);
    if (!t) return undefined;
    if (!namespaceSelectorMatches(hook.namespaceSelector, a, (ns) => this.namespaceLabels(ns))) return undefined;
    if (!objectSelectorMatches(hook.objectSelector, a)) return undefined;
    for (const c of hook.matchConditions) {
      const bind = a.t.custom ? toCel : typedToCel;
      const r = evaluate(c.expression, {
        object: bind(a.object ?? null),
        oldObject: bind(a.oldObject ?? null),
        request: toCel({ operation: a.operation, namespace: a.namespace, name: a.name, dryRun: a.dryRun }),
      });
      if (!r.ok) {
        if (hook.failurePolicy === 'Ignore') return undefined;
        throw failedCalling(hook.name, `failed to evaluate match condition "${c.name}": ${r.message}`);
      }
      if (r.value !== true) return undefined;
    }
    return t;
  }

  private namespaceLabels(name: string): Record<string, string> {
    const t = this.registry.lookup('', 'v1', 'namespaces');
    const s = t ? this.objects.getStored(t, undefined, name) : undefined;
    const meta = s ? (JSON.parse(s.value) as { metadata?: { labels?: Record<string, string> } }).metadata : undefined;
    return meta?.labels ?? {};
  }

  /** One call; undefined when it failed and failurePolicy says to ignore that. */
  private async call(
    hook: Webhook,
    a: AdmissionAttributes,
    t: ResourceType,
    mutating: boolean,
  ): Promise<ReviewResult | undefined> {
    if (a.dryRun) {
      if (hook.sideEffects === undefined) return this.failed(hook, 'Webhook SideEffects is nil');
      if (hook.sideEffects !== 'None' && hook.sideEffects !== 'NoneOnDryRun') throw dryRunUnsupported(hook.name);
    }
    const { uid, body } = reviewRequest(a, t, a.object);
    try {
      const target = webhookTarget(hook.clientConfig, hook.timeoutSeconds, this.objects, this.registry);
      return verifyResponse(uid, mutating, await postReview(target, body));
    } catch (e) {
      if (e instanceof WebhookCallError) return this.failed(hook, e.message);
      if (e instanceof InvalidResponse) return this.failed(hook, `received invalid webhook response: ${e.message}`);
      throw e;
    }
  }

  private failed(hook: Webhook, reason: string): undefined {
    if (hook.failurePolicy === 'Ignore') return undefined;
    throw failedCalling(hook.name, reason);
  }
}

/** A webhook's JSONPatch: a patch that does not apply is an internal error, in evanphx/json-patch's words. */
function applyPatch(object: JsonObject, patch: string): JsonObject {
  let ops: unknown;
  try {
    ops = JSON.parse(Buffer.from(patch, 'base64').toString('utf8'));
  } catch (e) {
    throw internal((e as Error).message);
  }
  try {
    return jsonPatch(structuredClone(object), ops);
  } catch (e) {
    if (e instanceof ApiError) throw internal(e.message.replace(/path: "([^"]*)": missing/, 'path: $1: missing'));
    throw e;
  }
}

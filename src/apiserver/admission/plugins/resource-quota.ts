import type { WriteOptions } from '../../objects/object-store.js';
import { metadataOf } from '../../objects/meta.js';
import type { JsonObject } from '../../registry/types.js';
import { admissionForbidden } from './forbidden.js';
import { isMap, maps, mapAt, type Lookup } from './lookup.js';
import { resourceList, type Resources } from './pod-resources.js';
import { quantityString, type Quantity } from '../../defaults/quantity-string.js';
import {
  containerUsageNames,
  handles,
  ignored,
  matchesScope,
  matchingResources,
  scopeSelectors,
  usage,
  VALIDATION_SET,
} from './quota-usage.js';
import type { BuiltinPlugin, PluginAttributes } from './types.js';

/**
 * ResourceQuota (k8s.io/apiserver/pkg/admission/plugin/resourcequota/controller.go, CheckRequest):
 * each quota of the namespace whose status.hard names a resource the write uses (and whose scopes
 * match) must have that resource's usage in status.used, else `status unknown for quota`; the new
 * usage must stay within status.hard, else `exceeded quota: NAME, requested: …, used: …, limited:
 * …`; cpu and memory quotas need every container to state them (`failed quota: NAME: must specify
 * …`). An admitted write that is no dry run charges the quotas' status.used at once, as
 * kube-apiserver does; KCM's resourcequota controller recomputes status.hard and status.used from
 * what is stored (the embedded server has no such controller: a new quota's status is empty until a
 * client writes it, as on a cluster whose controller has not run). Updates are charged by their
 * delta over the old object. Not done: the limitedResources admission configuration.
 */
const MANAGER = { fieldManager: 'kube-apiserver', subresource: 'status' };

export class ResourceQuotaPlugin implements BuiltinPlugin {
  readonly name = 'ResourceQuota';

  constructor(private readonly lookup: Lookup) {}

  validate(a: PluginAttributes, opts: WriteOptions): void {
    if (!a.namespace || !a.t.namespaced || ignored(a.t) || !handles(a)) return;
    const quotaType = this.lookup.type('', 'v1', 'resourcequotas');
    const quotas = this.lookup.list(quotaType, a.namespace);
    if (!quotas.length) return;
    const interesting: Array<{ quota: JsonObject; hard: Resources; used: Resources }> = [];
    for (const quota of quotas) {
      const status = mapAt(quota, 'status');
      const hard = resourceList(isMap(status.hard) ? status.hard : undefined);
      const name = String(metadataOf(quota).name);
      const restricted = matchingResources(a.t, [...hard.keys()]);
      if (!restricted.length || !scopeSelectors(quota).every((s) => matchesScope(a.t, s, a.object))) continue;
      const missing = this.constraints(a.object, restricted, a.t.kind === 'Pod' && !a.t.group);
      if (missing) throw admissionForbidden(a, `failed quota: ${name}: ${missing}`);
      const used = resourceList(isMap(status.used) ? status.used : undefined);
      if (restricted.some((r) => !used.has(r))) {
        const names = [...restricted].sort().join(',');
        throw admissionForbidden(a, `status unknown for quota: ${name}, resources: ${names}`);
      }
      interesting.push({ quota, hard, used });
    }
    if (!interesting.length) return;
    let delta = usage(a.t, a.object);
    if (a.operation === 'UPDATE' && a.oldObject) delta = subtract(delta, usage(a.t, a.oldObject));
    const charged: Array<{ quota: JsonObject; used: Resources }> = [];
    for (const { quota, hard, used } of interesting) {
      const requested = new Map([...delta].filter(([k, q]) => hard.has(k) && q.nanos !== 0n));
      if (!requested.size) continue;
      const exceeded: string[] = [];
      const next = new Map(used);
      for (const [k, q] of requested) {
        const had = used.get(k);
        const sum = { nanos: (had?.nanos ?? 0n) + q.nanos, format: sumFormat(had, q) };
        next.set(k, sum);
        const limit = hard.get(k);
        if (limit && sum.nanos > limit.nanos) exceeded.push(k);
      }
      if (exceeded.length) {
        exceeded.sort();
        const shown = (m: Resources) =>
          exceeded
            .filter((k) => m.has(k))
            .map((k) => `${k}=${text(m, k)}`)
            .join(',');
        throw admissionForbidden(
          a,
          `exceeded quota: ${String(metadataOf(quota).name)}, requested: ${shown(requested)}, ` +
            `used: ${shown(used)}, limited: ${shown(hard)}`,
        );
      }
      charged.push({ quota, used: next });
    }
    if (a.dryRun || opts.dryRun) return;
    for (const { quota, used } of charged) {
      const status = mapAt(quota, 'status');
      status.used = Object.fromEntries([...used].map(([k, q]) => [k, quantityString(q)]));
      quota.status = status;
      this.lookup.store.update(quotaType, a.namespace, String(metadataOf(quota).name), quota, MANAGER);
    }
  }

  /** podEvaluator.Constraints: a cpu or memory quota needs each container to state that resource. */
  private constraints(obj: JsonObject, restricted: string[], isPod: boolean): string | undefined {
    if (!isPod) return undefined;
    const required = restricted.filter((r) => VALIDATION_SET.includes(r));
    if (!required.length) return undefined;
    const spec = mapAt(obj, 'spec');
    if (isMap(spec.resources) && Object.keys(spec.resources).length) return undefined;
    const missing = new Map<string, Set<string>>();
    for (const c of [...maps(spec.containers), ...maps(spec.initContainers)]) {
      const names = containerUsageNames(c);
      for (const r of required) {
        if (names.has(r)) continue;
        const set = missing.get(r) ?? new Set<string>();
        set.add(String(c.name ?? ''));
        missing.set(r, set);
      }
    }
    if (!missing.size) return undefined;
    const parts = [...missing.keys()].sort().map((r) => `${r} for: ${[...(missing.get(r) ?? [])].sort().join(',')}`);
    return `must specify ${parts.join('; ')}`;
  }
}

/** Quantity.Add keeps the receiver's format, unless the receiver is zero: then the addend's. */
function sumFormat(had: Quantity | undefined, add: Quantity): Quantity['format'] {
  return had && had.nanos !== 0n ? had.format : add.format;
}

function text(m: Resources, k: string): string {
  const q = m.get(k);
  return q ? quantityString(q) : '0';
}

/** quota.SubtractWithNonNegativeResult. */
function subtract(a: Resources, b: Resources): Resources {
  const out: Resources = new Map();
  for (const [k, q] of a) {
    const d = q.nanos - (b.get(k)?.nanos ?? 0n);
    out.set(k, { nanos: d > 0n ? d : 0n, format: q.format });
  }
  return out;
}

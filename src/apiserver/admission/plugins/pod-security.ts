import type { WriteOptions } from '../../objects/object-store.js';
import { errors, type StatusCause } from '../../http/status.js';
import { metadataOf } from '../../objects/meta.js';
import type { JsonObject } from '../../registry/types.js';
import { admissionForbidden } from './forbidden.js';
import { isMap, mapAt, type Lookup } from './lookup.js';
import { evaluate, forbiddenDetail, type Level } from './pod-security-checks.js';
import type { BuiltinPlugin, PluginAttributes } from './types.js';

/**
 * PodSecurity (k8s.io/pod-security-admission/admission/admission.go, with kube-apiserver's default
 * configuration: privileged:latest everywhere, no exemptions): a namespace's
 * `pod-security.kubernetes.io/enforce|warn|audit[-version]` labels choose the level; a Pod that
 * violates the enforce level is refused (`violates PodSecurity "restricted:latest": …`), one that
 * violates the warn level is admitted with a `would violate PodSecurity …` warning, as are the pod
 * templates of workload kinds (warn only); a namespace with invalid labels is refused on create, and
 * tightening a namespace's enforce level warns about the Pods already in it. Audit annotations are
 * not recorded (the embedded server keeps no audit log).
 */
const PREFIX = 'pod-security.kubernetes.io/';
const IGNORED_POD_SUBRESOURCES = new Set([
  'exec',
  'attach',
  'binding',
  'eviction',
  'log',
  'portforward',
  'proxy',
  'status',
]);
const LEVELS: Level[] = ['privileged', 'baseline', 'restricted'];
const TEMPLATE_KINDS = new Set([
  '/PodTemplate',
  '/ReplicationController',
  'apps/ReplicaSet',
  'apps/Deployment',
  'apps/DaemonSet',
  'apps/StatefulSet',
  'batch/Job',
  'batch/CronJob',
]);

interface LevelVersion {
  level: Level;
  minor: number | undefined;
}
interface Policy {
  enforce: LevelVersion;
  warn: LevelVersion;
  audit: LevelVersion;
}

const show = (lv: LevelVersion) => `${lv.level}:${lv.minor === undefined ? 'latest' : `v1.${lv.minor}`}`;
const rank = (l: Level) => LEVELS.indexOf(l);
const same = (a: LevelVersion, b: LevelVersion) => a.level === b.level && a.minor === b.minor;

/** api.PolicyToEvaluate: the labels read over the privileged:latest defaults, with their errors. */
function policyOf(labels: Record<string, string>): { policy: Policy; causes: StatusCause[] } {
  const causes: StatusCause[] = [];
  const policy: Policy = {
    enforce: { level: 'privileged', minor: undefined },
    warn: { level: 'privileged', minor: undefined },
    audit: { level: 'privileged', minor: undefined },
  };
  const bad = (label: string, value: string, why: string) =>
    causes.push({
      reason: 'FieldValueInvalid',
      message: `Invalid value: "${value}": ${why}`,
      field: `metadata.labels[${PREFIX}${label}]`,
    });
  const level = (mode: keyof Policy, failOpen: boolean): boolean => {
    const v = labels[PREFIX + mode];
    if (v === undefined) return false;
    if ((LEVELS as string[]).includes(v)) {
      policy[mode].level = v as Level;
      return true;
    }
    bad(mode, v, `must be one of ${LEVELS.join(', ')}`);
    policy[mode].level = failOpen ? 'privileged' : 'restricted';
    return false;
  };
  const version = (mode: keyof Policy): boolean => {
    const v = labels[`${PREFIX}${mode}-version`];
    if (v === undefined) return false;
    const m = /^v1\.(0|[1-9][0-9]*)$/.exec(v);
    if (v !== 'latest' && !m) bad(`${mode}-version`, v, 'must be "latest" or "v1.x"');
    policy[mode].minor = m ? Number(m[1]) : undefined;
    return true;
  };
  const hasEnforce = level('enforce', false);
  version('enforce');
  level('audit', true);
  version('audit');
  const hasWarnLevel = labels[`${PREFIX}warn`] !== undefined;
  level('warn', true);
  const hasWarnVersion = version('warn');
  if (!hasWarnLevel && hasEnforce && rank(policy.enforce.level) > rank(policy.warn.level)) {
    policy.warn.level = policy.enforce.level;
    if (!hasWarnVersion) policy.warn.minor = policy.enforce.minor;
  }
  return { policy, causes };
}

export class PodSecurityPlugin implements BuiltinPlugin {
  readonly name = 'PodSecurity';

  constructor(private readonly lookup: Lookup) {}

  validate(a: PluginAttributes, opts: WriteOptions): void {
    if (!a.t.group && a.t.kind === 'Namespace') return this.validateNamespace(a, opts);
    if (!a.t.group && a.t.kind === 'Pod') return this.validatePod(a, opts);
    if (TEMPLATE_KINDS.has(`${a.t.group}/${a.t.kind}`)) return this.validateTemplate(a, opts);
  }

  private validatePod(a: PluginAttributes, opts: WriteOptions): void {
    if (IGNORED_POD_SUBRESOURCES.has(a.subresource) || (a.operation !== 'CREATE' && a.operation !== 'UPDATE')) return;
    const policy = this.namespacePolicy(a.namespace);
    if (!policy || (policy.enforce.level === 'privileged' && policy.warn.level === 'privileged')) return;
    const old = a.oldObject;
    if (a.operation === 'UPDATE' && old && !significantUpdate(mapAt(a.object, 'spec'), mapAt(old, 'spec'))) return;
    const spec = mapAt(a.object, 'spec');
    const meta = mapAt(a.object, 'metadata');
    const enforced = evaluate(policy.enforce.level, policy.enforce.minor, spec, meta);
    if (enforced.length) {
      throw admissionForbidden(a, `violates PodSecurity "${show(policy.enforce)}": ${forbiddenDetail(enforced)}`);
    }
    this.warn(policy.warn, spec, meta, opts);
  }

  private validateTemplate(a: PluginAttributes, opts: WriteOptions): void {
    if (a.subresource || (a.operation !== 'CREATE' && a.operation !== 'UPDATE')) return;
    const policy = this.namespacePolicy(a.namespace);
    if (!policy || policy.warn.level === 'privileged') return;
    const template =
      a.t.kind === 'PodTemplate'
        ? a.object.template
        : a.t.kind === 'CronJob'
          ? mapAt(mapAt(mapAt(a.object, 'spec'), 'jobTemplate'), 'spec').template
          : mapAt(a.object, 'spec').template;
    if (!isMap(template)) return;
    this.warn(policy.warn, mapAt(template, 'spec'), mapAt(template, 'metadata'), opts);
  }

  private warn(lv: LevelVersion, spec: JsonObject, meta: JsonObject, opts: WriteOptions): void {
    const vs = evaluate(lv.level, lv.minor, spec, meta);
    if (vs.length) opts.warnings?.push(`would violate PodSecurity "${show(lv)}": ${forbiddenDetail(vs)}`);
  }

  private validateNamespace(a: PluginAttributes, opts: WriteOptions): void {
    if (a.subresource) return;
    const next = policyOf(labels(a.object));
    if (a.operation === 'CREATE') {
      if (next.causes.length) throw errors.invalid(a.t, a.name, next.causes);
      return;
    }
    if (a.operation !== 'UPDATE' || !a.oldObject) return;
    const old = policyOf(labels(a.oldObject));
    if (next.causes.length && (!old.causes.length || JSON.stringify(next.causes) !== JSON.stringify(old.causes))) {
      throw errors.invalid(a.t, a.name, next.causes);
    }
    const [n, o] = [next.policy.enforce, old.policy.enforce];
    if (same(n, o) || n.level === 'privileged' || (n.minor === o.minor && rank(n.level) <= rank(o.level))) return;
    opts.warnings?.push(...this.existingPods(a.name, n));
  }

  /** EvaluatePodsInNamespace: one warning per distinct set of reasons, naming the first pod and how many more. */
  private existingPods(namespace: string, enforce: LevelVersion): string[] {
    const pods = this.lookup.list(this.lookup.type('', 'v1', 'pods'), namespace);
    const byWarning = new Map<string, { first: string; count: number }>();
    for (const pod of pods) {
      const vs = evaluate(enforce.level, enforce.minor, mapAt(pod, 'spec'), mapAt(pod, 'metadata'));
      if (!vs.length) continue;
      const warning = vs.map((v) => v.reason).join(', ');
      const podName = String(metadataOf(pod).name);
      const seen = byWarning.get(warning);
      if (!seen) byWarning.set(warning, { first: podName, count: 1 });
      else {
        seen.count++;
        if (podName < seen.first) seen.first = podName;
      }
    }
    if (!byWarning.size) return [];
    const decorated = [...byWarning].map(([w, c]) => {
      if (c.count === 1) return `${c.first}: ${w}`;
      if (c.count === 2) return `${c.first} (and 1 other pod): ${w}`;
      return `${c.first} (and ${c.count - 1} other pods): ${w}`;
    });
    const head = `existing pods in namespace "${namespace}" violate the new PodSecurity enforce level "${show(enforce)}"`;
    return [head, ...decorated.sort()];
  }

  private namespacePolicy(namespace: string): Policy | undefined {
    if (!namespace) return undefined;
    const ns = this.lookup.get(this.lookup.type('', 'v1', 'namespaces'), undefined, namespace);
    return ns ? policyOf(labels(ns)).policy : undefined;
  }
}

function labels(obj: JsonObject): Record<string, string> {
  const l = metadataOf(obj).labels;
  const out: Record<string, string> = {};
  if (isMap(l)) for (const [k, v] of Object.entries(l)) if (typeof v === 'string') out[k] = v;
  return out;
}

/** isSignificantPodUpdate: only a change of containers or their images is evaluated again. */
function significantUpdate(spec: JsonObject, old: JsonObject): boolean {
  const images = (s: JsonObject, k: string) => {
    const list = Array.isArray(s[k]) ? s[k] : [];
    return JSON.stringify(list.map((c) => (isMap(c) ? c.image : null)));
  };
  return ['containers', 'initContainers', 'ephemeralContainers'].some((k) => images(spec, k) !== images(old, k));
}

import { isObject } from '../objects/meta.js';
import type { JsonObject, JsonValue, ResourceType } from '../registry/types.js';
import { forbidden, invalid, required } from '../schema/field-errors.js';
import type { FieldCause } from '../schema/types.js';
import { matchesLabels } from '../selectors/index.js';
import { invalidSelector, isEmptySelector, labelSelectorCauses, selectorOf } from './label-selector.js';

/**
 * The label selectors kube-apiserver validates on the built-in kinds the embedded server serves,
 * in the order and words of pkg/apis/{apps,batch,policy,networking,core,rbac}/validation: a
 * selector that does not parse never reaches storage, where a controller would trip on it.
 */
export function selectorKindCauses(t: ResourceType, obj: JsonObject): FieldCause[] {
  const spec = objectAt(obj, 'spec');
  switch (`${t.group}/${t.kind}`) {
    case 'apps/Deployment':
    case 'apps/ReplicaSet':
      return replicatedCauses(spec, 'deployment', 'invalid label selector');
    case 'apps/StatefulSet':
      return replicatedCauses(spec, 'statefulset', '');
    case 'apps/DaemonSet':
      return daemonSetCauses(spec);
    case 'batch/Job':
      // The Job's own selector is validation/batch.ts's, against the one its create will generate.
      return templateSelectorCauses(spec, 'spec.template');
    case 'batch/CronJob': {
      const jobSpec = objectAt(objectAt(spec, 'jobTemplate'), 'spec');
      const template = templateSelectorCauses(jobSpec, 'spec.jobTemplate.spec.template');
      if (jobSpec.selector == null) return template;
      return [
        ...template,
        invalidSelector('spec.jobTemplate.spec.selector', jobSpec.selector, '`selector` will be auto-generated'),
      ];
    }
    case '/Pod':
      return podSpecSelectorCauses(spec, 'spec');
    case '/PodTemplate':
      return templateSelectorCauses(obj, 'template');
    case '/ReplicationController':
      return templateSelectorCauses(spec, 'spec.template');
    case 'policy/PodDisruptionBudget':
      return labelSelectorCauses(spec.selector, 'spec.selector');
    case 'networking.k8s.io/NetworkPolicy':
      return networkPolicyCauses(spec);
    case 'rbac.authorization.k8s.io/ClusterRole':
      return aggregationRuleCauses(obj.aggregationRule);
    default:
      return [];
  }
}

/** ValidateDeploymentSpec and ValidateReplicaSetSpec (both say "deployment"), ValidateStatefulSetSpec. */
function replicatedCauses(spec: JsonObject, kindWord: string, unparsable: string): FieldCause[] {
  const sel = spec.selector;
  const causes: FieldCause[] = [];
  if (!isObject(sel)) causes.push(required('spec.selector'));
  else {
    causes.push(...labelSelectorCauses(sel, 'spec.selector'));
    if (isEmptySelector(sel))
      causes.push(invalidSelector('spec.selector', sel, `empty selector is invalid for ${kindWord}`));
  }
  const selector = selectorOf(sel);
  // The template is checked only against a selector that parses.
  if (!selector) return [...causes, invalidSelector('spec.selector', sel, unparsable)];
  return [...causes, ...templateCauses(spec, (labels) => isEmptySelector(sel) || matchesLabels(selector, labels))];
}

/** ValidateDaemonSetSpec: the selector, the match (only for one that parses), then emptiness, then the template. */
function daemonSetCauses(spec: JsonObject): FieldCause[] {
  const sel = spec.selector;
  // No Required: LabelSelectorAsSelector(nil) is labels.Nothing(), which matches no template's labels.
  const causes: FieldCause[] = isObject(sel) ? labelSelectorCauses(sel, 'spec.selector') : [];
  const selector = selectorOf(sel);
  const labels = templateLabels(spec);
  if (!isObject(sel) || (selector && !matchesLabels(selector, labels ?? {}))) causes.push(mismatch(labels));
  if (isEmptySelector(sel))
    causes.push(invalidSelector('spec.selector', sel, 'empty selector is invalid for daemonset'));
  return causes;
}

function templateCauses(spec: JsonObject, selects: (labels: Record<string, string>) => boolean): FieldCause[] {
  const labels = templateLabels(spec);
  const selectorCauses = templateSelectorCauses(spec, 'spec.template');
  return [...(selects(labels ?? {}) ? [] : [mismatch(labels)]), ...selectorCauses];
}

/** The label selectors of the pod spec in `owner.template` (a workload's, a PodTemplate's). */
function templateSelectorCauses(owner: JsonObject, path: string): FieldCause[] {
  return podSpecSelectorCauses(objectAt(objectAt(owner, 'template'), 'spec'), `${path}.spec`);
}

/**
 * ValidatePodAffinityTermSelector for every pod (anti-)affinity term, required then preferred (each
 * term's labelSelector and namespaceSelector), then each topology spread constraint's labelSelector.
 * The other fields of terms and constraints are not checked here.
 */
function podSpecSelectorCauses(podSpec: JsonObject, path: string): FieldCause[] {
  const causes: FieldCause[] = [];
  const affinity = objectAt(podSpec, 'affinity');
  for (const kind of ['podAffinity', 'podAntiAffinity']) {
    const rules = objectAt(affinity, kind);
    const at = `${path}.affinity.${kind}`;
    const required = rules.requiredDuringSchedulingIgnoredDuringExecution;
    const preferred = rules.preferredDuringSchedulingIgnoredDuringExecution;
    (Array.isArray(required) ? required : []).forEach((term, i) => {
      causes.push(...affinityTermCauses(term, `${at}.requiredDuringSchedulingIgnoredDuringExecution[${i}]`));
    });
    (Array.isArray(preferred) ? preferred : []).forEach((w, i) => {
      const term = isObject(w) ? w.podAffinityTerm : undefined;
      causes.push(
        ...affinityTermCauses(term, `${at}.preferredDuringSchedulingIgnoredDuringExecution[${i}].podAffinityTerm`),
      );
    });
  }
  const spread = Array.isArray(podSpec.topologySpreadConstraints) ? podSpec.topologySpreadConstraints : [];
  spread.forEach((c, i) => {
    if (isObject(c))
      causes.push(...labelSelectorCauses(c.labelSelector, `${path}.topologySpreadConstraints[${i}].labelSelector`));
  });
  return causes;
}

function affinityTermCauses(term: JsonValue | undefined, path: string): FieldCause[] {
  if (!isObject(term)) return [];
  return [
    ...labelSelectorCauses(term.labelSelector, `${path}.labelSelector`),
    ...labelSelectorCauses(term.namespaceSelector, `${path}.namespaceSelector`),
  ];
}

const mismatch = (labels: Record<string, string> | undefined): FieldCause =>
  invalid('spec.template.metadata.labels', labels ?? null, '`selector` does not match template `labels`');

function templateLabels(spec: JsonObject): Record<string, string> | undefined {
  const labels = objectAt(objectAt(spec, 'template'), 'metadata').labels;
  return isObject(labels) ? (labels as Record<string, string>) : undefined;
}

/** ValidateNetworkPolicySpec's selectors: the pod selector, then each ingress `from` and egress `to` peer. */
function networkPolicyCauses(spec: JsonObject): FieldCause[] {
  const causes = labelSelectorCauses(spec.podSelector ?? {}, 'spec.podSelector');
  for (const [rules, peers] of [
    ['ingress', 'from'],
    ['egress', 'to'],
  ] as const) {
    const list = Array.isArray(spec[rules]) ? spec[rules] : [];
    list.forEach((rule, i) => {
      const ps = isObject(rule) && Array.isArray(rule[peers]) ? rule[peers] : [];
      for (const [j, peer] of ps.entries()) {
        causes.push(...peerCauses(isObject(peer) ? peer : {}, `spec.${rules}[${i}].${peers}[${j}]`));
      }
    });
  }
  return causes;
}

/** ValidateNetworkPolicyPeer (the ipBlock's CIDRs are not checked here). */
function peerCauses(peer: JsonObject, path: string): FieldCause[] {
  const causes: FieldCause[] = [];
  let peers = 0;
  for (const f of ['podSelector', 'namespaceSelector']) {
    if (peer[f] == null) continue;
    peers++;
    causes.push(...labelSelectorCauses(peer[f], `${path}.${f}`));
  }
  if (peer.ipBlock != null) peers++;
  if (peers === 0) causes.push(required(path, 'must specify a peer'));
  else if (peers > 1 && peer.ipBlock != null)
    causes.push(forbidden(path, 'may not specify both ipBlock and another peer'));
  return causes;
}

/** ValidateClusterRole's aggregationRule; the unparsable selector is rendered as Go's nil labels.Selector. */
function aggregationRuleCauses(rule: JsonValue | undefined): FieldCause[] {
  if (!isObject(rule)) return [];
  const path = 'aggregationRule.clusterRoleSelectors';
  const selectors = Array.isArray(rule.clusterRoleSelectors) ? rule.clusterRoleSelectors : [];
  if (!selectors.length)
    return [required(path, 'at least one clusterRoleSelector required if aggregationRule is non-nil')];
  return selectors.flatMap((sel, i) => {
    const causes = labelSelectorCauses(sel, `${path}[${i}]`);
    if (!selectorOf(sel)) causes.push(invalid(`${path}[${i}]`, null, 'invalid label selector.'));
    return causes;
  });
}

function objectAt(obj: JsonObject, key: string): JsonObject {
  const v = obj[key];
  return isObject(v) ? v : {};
}

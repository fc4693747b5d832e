import { int, string } from '../scalars.js';
import { list, message, nullList, ptr, req } from '../schema.js';
import { labelSelector } from './meta-v1.js';

/** core/v1 scheduling constraints of a PodSpec: affinity, tolerations, topology spread. */

const nodeSelectorRequirement = message('NodeSelectorRequirement', () => [
  [1, 'key', req(string)],
  [2, 'operator', req(string)],
  [3, 'values', list(string)],
]);

const nodeSelectorTerm = message('NodeSelectorTerm', () => [
  [1, 'matchExpressions', list(nodeSelectorRequirement)],
  [2, 'matchFields', list(nodeSelectorRequirement)],
]);

const nodeAffinity = message('NodeAffinity', () => [
  [1, 'requiredDuringSchedulingIgnoredDuringExecution', ptr(message('NodeSelector', () => [[1, 'nodeSelectorTerms', nullList(nodeSelectorTerm)]]))],
  [
    2,
    'preferredDuringSchedulingIgnoredDuringExecution',
    list(
      message('PreferredSchedulingTerm', () => [
        [1, 'weight', req(int)],
        [2, 'preference', nodeSelectorTerm],
      ]),
    ),
  ],
]);

const podAffinityTerm = message('PodAffinityTerm', () => [
  [1, 'labelSelector', ptr(labelSelector)],
  [2, 'namespaces', list(string)],
  [3, 'topologyKey', req(string)],
  [4, 'namespaceSelector', ptr(labelSelector)],
  [5, 'matchLabelKeys', list(string)],
  [6, 'mismatchLabelKeys', list(string)],
]);

const weightedPodAffinityTerm = message('WeightedPodAffinityTerm', () => [
  [1, 'weight', req(int)],
  [2, 'podAffinityTerm', podAffinityTerm],
]);

const podAffinityRows = () =>
  [
    [1, 'requiredDuringSchedulingIgnoredDuringExecution', list(podAffinityTerm)],
    [2, 'preferredDuringSchedulingIgnoredDuringExecution', list(weightedPodAffinityTerm)],
  ] as const;

export const affinity = message('Affinity', () => [
  [1, 'nodeAffinity', ptr(nodeAffinity)],
  [2, 'podAffinity', ptr(message('PodAffinity', podAffinityRows))],
  [3, 'podAntiAffinity', ptr(message('PodAntiAffinity', podAffinityRows))],
]);

export const toleration = message('Toleration', () => [
  [1, 'key', string],
  [2, 'operator', string],
  [3, 'value', string],
  [4, 'effect', string],
  [5, 'tolerationSeconds', ptr(int)],
]);

export const topologySpreadConstraint = message('TopologySpreadConstraint', () => [
  [1, 'maxSkew', req(int)],
  [2, 'topologyKey', req(string)],
  [3, 'whenUnsatisfiable', req(string)],
  [4, 'labelSelector', ptr(labelSelector)],
  [5, 'minDomains', ptr(int)],
  [6, 'nodeAffinityPolicy', ptr(string)],
  [7, 'nodeTaintsPolicy', ptr(string)],
  [8, 'matchLabelKeys', list(string)],
]);

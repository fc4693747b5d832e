import { int, intOrString, objectMeta, string, time } from '../scalars.js';
import { list, map, message, ptr, req } from '../schema.js';
import { condition, labelSelector } from './meta-v1.js';

/** policy/v1 PodDisruptionBudget, which `kubectl create poddisruptionbudget` sends. */

const podDisruptionBudget = message('PodDisruptionBudget', () => [
  [1, 'metadata', objectMeta],
  [
    2,
    'spec',
    message('PodDisruptionBudgetSpec', () => [
      [1, 'minAvailable', ptr(intOrString)],
      [2, 'selector', ptr(labelSelector)],
      [3, 'maxUnavailable', ptr(intOrString)],
      [4, 'unhealthyPodEvictionPolicy', ptr(string)],
    ]),
  ],
  [
    3,
    'status',
    message('PodDisruptionBudgetStatus', () => [
      [1, 'observedGeneration', int],
      [2, 'disruptedPods', map(time)],
      [3, 'disruptionsAllowed', req(int)],
      [4, 'currentHealthy', req(int)],
      [5, 'desiredHealthy', req(int)],
      [6, 'expectedPods', req(int)],
      [7, 'conditions', list(condition)],
    ]),
  ],
]);

export const POLICY_V1 = { 'policy/v1/PodDisruptionBudget': podDisruptionBudget };

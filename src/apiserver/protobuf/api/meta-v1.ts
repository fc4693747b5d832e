import { int, string, time } from '../scalars.js';
import { list, map, message, req } from '../schema.js';

/** k8s.io/apimachinery/pkg/apis/meta/v1 messages that API objects embed. */

export const labelSelectorRequirement = message('LabelSelectorRequirement', () => [
  [1, 'key', req(string)],
  [2, 'operator', req(string)],
  [3, 'values', list(string)],
]);

export const labelSelector = message('LabelSelector', () => [
  [1, 'matchLabels', map(string)],
  [2, 'matchExpressions', list(labelSelectorRequirement)],
]);

/** metav1.Condition, as in the status of Services, PodDisruptionBudgets and others. */
export const condition = message('Condition', () => [
  [1, 'type', req(string)],
  [2, 'status', req(string)],
  [3, 'observedGeneration', int],
  [4, 'lastTransitionTime', req(time)],
  [5, 'reason', req(string)],
  [6, 'message', req(string)],
]);

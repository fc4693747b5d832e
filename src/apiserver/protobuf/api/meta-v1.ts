import { bool, int, string, time } from '../scalars.js';
import { list, map, message, ptr, req } from '../schema.js';

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

/**
 * metav1.DeleteOptions, the body of DELETE and DELETE-collection (helm 4 sends it as protobuf).
 * Field numbers from k8s.io/apimachinery/pkg/apis/meta/v1/generated.proto; every field is a Go
 * pointer (or a slice), so it is written when it is on the wire, zero or not.
 */
export const preconditions = message('Preconditions', () => [
  [1, 'uid', ptr(string)],
  [2, 'resourceVersion', ptr(string)],
]);

export const deleteOptions = message('DeleteOptions', () => [
  [1, 'gracePeriodSeconds', ptr(int)],
  [2, 'preconditions', ptr(preconditions)],
  [3, 'orphanDependents', ptr(bool)],
  [4, 'propagationPolicy', ptr(string)],
  [5, 'dryRun', list(string)],
  [6, 'ignoreStoreReadErrorWithClusterBreakingPotential', ptr(bool)],
]);

import { bool, int, objectMeta, string } from '../scalars.js';
import { message, ptr, req } from '../schema.js';

/** scheduling.k8s.io/v1 PriorityClass, which `kubectl create priorityclass` sends. */

const priorityClass = message('PriorityClass', () => [
  [1, 'metadata', objectMeta],
  [2, 'value', req(int)],
  [3, 'globalDefault', bool],
  [4, 'description', string],
  [5, 'preemptionPolicy', ptr(string)],
]);

export const SCHEDULING_V1 = { 'scheduling.k8s.io/v1/PriorityClass': priorityClass };

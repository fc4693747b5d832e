import { int, quantity, string } from '../scalars.js';
import { message, ptr, req } from '../schema.js';

/** core/v1 reference and selector messages shared by pods, volumes and services. */

export const localObjectReference = message('LocalObjectReference', () => [[1, 'name', string]]);

export const objectReference = message('ObjectReference', () => [
  [1, 'kind', string],
  [2, 'namespace', string],
  [3, 'name', string],
  [4, 'uid', string],
  [5, 'apiVersion', string],
  [6, 'resourceVersion', string],
  [7, 'fieldPath', string],
]);

export const typedLocalObjectReference = message('TypedLocalObjectReference', () => [
  [1, 'apiGroup', ptr(string)],
  [2, 'kind', req(string)],
  [3, 'name', req(string)],
]);

export const typedObjectReference = message('TypedObjectReference', () => [
  [1, 'apiGroup', ptr(string)],
  [2, 'kind', req(string)],
  [3, 'name', req(string)],
  [4, 'namespace', ptr(string)],
]);

export const objectFieldSelector = message('ObjectFieldSelector', () => [
  [1, 'apiVersion', string],
  [2, 'fieldPath', req(string)],
]);

export const resourceFieldSelector = message('ResourceFieldSelector', () => [
  [1, 'containerName', string],
  [2, 'resource', req(string)],
  [3, 'divisor', quantity],
]);

export const keyToPath = message('KeyToPath', () => [
  [1, 'key', req(string)],
  [2, 'path', req(string)],
  [3, 'mode', ptr(int)],
]);

export const portStatus = message('PortStatus', () => [
  [1, 'port', req(int)],
  [2, 'protocol', req(string)],
  [3, 'error', ptr(string)],
]);

import type { JsonObject } from '../registry/types.js';
import { applyRows, objectsIn, type DefaultRow } from './fields.js';

/** pkg/apis/discovery/v1/defaults.go SetDefaults_EndpointPort: both fields are pointers. */
const ENDPOINT_PORT: DefaultRow[] = [
  ['name', '', 'nil'],
  ['protocol', 'TCP', 'nil'],
];

export function defaultEndpointSlice(obj: JsonObject): void {
  for (const port of objectsIn(obj, 'ports')) applyRows(port, ENDPOINT_PORT);
}

/** pkg/apis/storage/v1/defaults.go SetDefaults_StorageClass. */
const STORAGE_CLASS: DefaultRow[] = [
  ['reclaimPolicy', 'Delete', 'nil'],
  ['volumeBindingMode', 'Immediate', 'nil'],
];

export function defaultStorageClass(obj: JsonObject): void {
  applyRows(obj, STORAGE_CLASS);
}

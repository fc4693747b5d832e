import { isObject } from '../objects/meta.js';
import type { JsonObject } from '../registry/types.js';

/** pkg/apis/networking/v1/defaults.go SetDefaults_IngressClass: parameters without a scope are the cluster's. */
export function defaultIngressClass(obj: JsonObject): void {
  const spec = obj.spec;
  if (!isObject(spec) || !isObject(spec.parameters)) return;
  spec.parameters.scope ??= 'Cluster';
}

import type { JsonObject } from '../../registry/types.js';
import { admissionForbidden } from './forbidden.js';
import { isMap, type Lookup } from './lookup.js';
import type { BuiltinPlugin, PluginAttributes } from './types.js';

/**
 * RuntimeClass (plugin/pkg/admission/runtimeclass/admission.go): a new Pod naming a runtimeClassName
 * that does not exist is refused (`pod rejected: RuntimeClass "x" not found`); one that exists adds
 * its overhead (refused when the Pod states another) and its scheduling's nodeSelector and
 * tolerations. Not done: a nodeSelector conflict with the Pod's own is not refused.
 */
export class RuntimeClassPlugin implements BuiltinPlugin {
  readonly name = 'RuntimeClass';

  constructor(private readonly lookup: Lookup) {}

  admit(a: PluginAttributes): void {
    const rc = this.runtimeClass(a);
    if (!rc) return;
    const spec = a.object.spec as JsonObject;
    const overhead = isMap(rc.overhead) && isMap(rc.overhead.podFixed) ? rc.overhead.podFixed : undefined;
    if (spec.overhead != null && JSON.stringify(spec.overhead) !== JSON.stringify(overhead ?? null)) {
      throw admissionForbidden(a, "pod rejected: Pod's Overhead doesn't match RuntimeClass's defined Overhead");
    }
  }

  mutate(a: PluginAttributes): void {
    const rc = this.runtimeClass(a);
    if (!rc) return;
    const spec = a.object.spec as JsonObject;
    if (isMap(rc.overhead) && isMap(rc.overhead.podFixed)) spec.overhead = structuredClone(rc.overhead.podFixed);
    const scheduling = isMap(rc.scheduling) ? rc.scheduling : {};
    if (isMap(scheduling.nodeSelector)) {
      spec.nodeSelector = { ...(isMap(spec.nodeSelector) ? spec.nodeSelector : {}), ...scheduling.nodeSelector };
    }
    if (Array.isArray(scheduling.tolerations)) {
      const own = Array.isArray(spec.tolerations) ? spec.tolerations : [];
      const text = new Set(own.map((t) => JSON.stringify(t)));
      spec.tolerations = [...own, ...scheduling.tolerations.filter((t) => !text.has(JSON.stringify(t)))];
    }
  }

  private runtimeClass(a: PluginAttributes): JsonObject | undefined {
    if (a.subresource || a.t.group || a.t.kind !== 'Pod' || a.operation !== 'CREATE') return undefined;
    const spec = isMap(a.object.spec) ? a.object.spec : {};
    const name = typeof spec.runtimeClassName === 'string' ? spec.runtimeClassName : '';
    if (!name) return undefined;
    const rc = this.lookup.get(this.lookup.type('node.k8s.io', 'v1', 'runtimeclasses'), undefined, name);
    if (!rc) throw admissionForbidden(a, `pod rejected: RuntimeClass "${name}" not found`);
    return rc;
  }
}

import type { JsonObject } from '../../registry/types.js';
import { admissionForbidden } from './forbidden.js';
import { isMap, type Lookup } from './lookup.js';
import type { BuiltinPlugin, PluginAttributes } from './types.js';

/**
 * Priority (plugin/pkg/admission/priority/admission.go): a new Pod's priorityClassName resolves to
 * the class's value and preemptionPolicy (or the globalDefault class's, or 0 and
 * PreemptLowerPriority); a priority or policy the Pod states otherwise is refused; an update keeps
 * the priority the create set. A PriorityClass marked globalDefault is refused while another is.
 */
interface Resolved {
  className: string | undefined;
  priority: number;
  preemptionPolicy: string | undefined;
}

export class PriorityPlugin implements BuiltinPlugin {
  readonly name = 'Priority';

  constructor(private readonly lookup: Lookup) {}

  admit(a: PluginAttributes): void {
    if (a.subresource || a.t.group || a.t.kind !== 'Pod') return;
    const spec = specOf(a.object);
    if (a.operation === 'UPDATE') {
      const old = a.oldObject ? specOf(a.oldObject) : {};
      if (spec.priority == null && old.priority != null) spec.priority = old.priority;
      if (spec.preemptionPolicy == null && old.preemptionPolicy != null) spec.preemptionPolicy = old.preemptionPolicy;
      return;
    }
    if (a.operation !== 'CREATE') return;
    const r = this.resolve(a, spec);
    if (spec.priority != null && spec.priority !== r.priority) {
      throw admissionForbidden(
        a,
        `the integer value of priority (${String(spec.priority)}) must not be provided in pod spec; ` +
          `priority admission controller computed ${r.priority} from the given PriorityClass name`,
      );
    }
    const policy = spec.preemptionPolicy;
    if (r.preemptionPolicy !== undefined && policy != null && policy !== r.preemptionPolicy) {
      throw admissionForbidden(
        a,
        `the string value of PreemptionPolicy (${String(spec.preemptionPolicy)}) must not be provided in pod spec; ` +
          `priority admission controller computed ${r.preemptionPolicy} from the given PriorityClass name`,
      );
    }
  }

  mutate(a: PluginAttributes): void {
    if (a.subresource || a.t.group || a.t.kind !== 'Pod' || a.operation !== 'CREATE') return;
    const spec = specOf(a.object);
    const r = this.resolve(a, spec);
    if (r.className !== undefined) spec.priorityClassName = r.className;
    spec.priority = r.priority;
    if (r.preemptionPolicy !== undefined) spec.preemptionPolicy = r.preemptionPolicy;
  }

  validate(a: PluginAttributes): void {
    if (a.subresource || a.t.group !== 'scheduling.k8s.io' || a.t.kind !== 'PriorityClass') return;
    if (a.object.globalDefault !== true || (a.operation !== 'CREATE' && a.operation !== 'UPDATE')) return;
    const current = this.defaultClass();
    if (!current) return;
    const name = String(isMap(current.metadata) ? current.metadata.name : '');
    if (a.operation === 'CREATE' || name !== a.name) {
      throw admissionForbidden(a, `PriorityClass ${name} is already marked as default. Only one default can exist`);
    }
  }

  private resolve(a: PluginAttributes, spec: JsonObject): Resolved {
    const className = typeof spec.priorityClassName === 'string' ? spec.priorityClassName : '';
    if (!className) {
      const d = this.defaultClass();
      if (!d) return { className: undefined, priority: 0, preemptionPolicy: 'PreemptLowerPriority' };
      return { className: String(isMap(d.metadata) ? d.metadata.name : ''), ...priorityOf(d) };
    }
    const pc = this.lookup.get(this.classes(), undefined, className);
    if (!pc) throw admissionForbidden(a, `no PriorityClass with name ${className} was found`);
    return { className: undefined, ...priorityOf(pc) };
  }

  /** The globalDefault class; of several (a race), the one of the lowest value, as upstream picks. */
  private defaultClass(): JsonObject | undefined {
    let found: JsonObject | undefined;
    for (const pc of this.lookup.list(this.classes(), undefined)) {
      if (pc.globalDefault !== true) continue;
      if (!found || Number(found.value) > Number(pc.value)) found = pc;
    }
    return found;
  }

  private classes() {
    return this.lookup.type('scheduling.k8s.io', 'v1', 'priorityclasses');
  }
}

function priorityOf(pc: JsonObject): { priority: number; preemptionPolicy: string | undefined } {
  const policy = typeof pc.preemptionPolicy === 'string' ? pc.preemptionPolicy : undefined;
  return { priority: typeof pc.value === 'number' ? pc.value : 0, preemptionPolicy: policy };
}

function specOf(obj: JsonObject): JsonObject {
  if (!isMap(obj.spec)) obj.spec = {};
  return obj.spec as JsonObject;
}

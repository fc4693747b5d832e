import { maps, mapAt } from './lookup.js';
import type { BuiltinPlugin, PluginAttributes } from './types.js';

/**
 * TaintNodesByCondition (plugin/pkg/admission/nodetaint/admission.go): a new Node is not ready yet,
 * so it gets the `node.kubernetes.io/not-ready:NoSchedule` taint unless it has it.
 */
const NOT_READY = 'node.kubernetes.io/not-ready';

export class TaintNodesByConditionPlugin implements BuiltinPlugin {
  readonly name = 'TaintNodesByCondition';

  mutate(a: PluginAttributes): void {
    if (a.t.group || a.t.kind !== 'Node' || a.subresource || a.operation !== 'CREATE') return;
    const spec = mapAt(a.object, 'spec');
    const taints = maps(spec.taints);
    if (taints.some((t) => t.key === NOT_READY && t.effect === 'NoSchedule')) return;
    spec.taints = [...taints, { key: NOT_READY, effect: 'NoSchedule' }];
    a.object.spec = spec;
  }
}

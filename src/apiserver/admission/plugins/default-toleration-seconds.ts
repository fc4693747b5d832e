import type { JsonObject } from '../../registry/types.js';
import { maps, mapAt } from './lookup.js';
import type { BuiltinPlugin, PluginAttributes } from './types.js';

/**
 * DefaultTolerationSeconds (plugin/pkg/admission/defaulttolerationseconds/admission.go): a new Pod
 * (and a Pod written again) tolerates not-ready and unreachable nodes for 300 s (the flags'
 * defaults), unless a toleration of that key (or of every key) with NoExecute (or every effect) is there.
 */
const KEYS = ['node.kubernetes.io/not-ready', 'node.kubernetes.io/unreachable'];

export class DefaultTolerationSecondsPlugin implements BuiltinPlugin {
  readonly name = 'DefaultTolerationSeconds';

  mutate(a: PluginAttributes): void {
    if (a.t.group || a.t.kind !== 'Pod' || a.subresource) return;
    if (a.operation !== 'CREATE' && a.operation !== 'UPDATE') return;
    const spec = mapAt(a.object, 'spec');
    const tolerations = maps(spec.tolerations);
    const tolerates = (key: string) =>
      tolerations.some((t) => (t.key === key || !t.key) && (!t.effect || t.effect === 'NoExecute'));
    const added: JsonObject[] = KEYS.filter((key) => !tolerates(key)).map((key) => ({
      key,
      operator: 'Exists',
      effect: 'NoExecute',
      tolerationSeconds: 300,
    }));
    if (added.length) {
      spec.tolerations = [...tolerations, ...added];
      a.object.spec = spec;
    }
  }
}

import { metadataOf } from '../../objects/meta.js';
import { newestDefault } from './default-class.js';
import { isMap, mapAt, type Lookup } from './lookup.js';
import type { BuiltinPlugin, PluginAttributes } from './types.js';

/**
 * DefaultIngressClass (plugin/pkg/admission/network/defaultingressclass/admission.go): a new
 * Ingress with neither spec.ingressClassName nor the `kubernetes.io/ingress.class` annotation gets
 * the IngressClass annotated `ingressclass.kubernetes.io/is-default-class: "true"` (the newest).
 */
export class DefaultIngressClassPlugin implements BuiltinPlugin {
  readonly name = 'DefaultIngressClass';

  constructor(private readonly lookup: Lookup) {}

  mutate(a: PluginAttributes): void {
    if (a.t.group !== 'networking.k8s.io' || a.t.kind !== 'Ingress' || a.subresource) return;
    if (a.operation !== 'CREATE') return;
    const spec = mapAt(a.object, 'spec');
    const annotations = metadataOf(a.object).annotations;
    if (spec.ingressClassName != null) return;
    if (isMap(annotations) && annotations['kubernetes.io/ingress.class'] !== undefined) return;
    const classes = this.lookup.list(this.lookup.type('networking.k8s.io', 'v1', 'ingressclasses'), undefined);
    const def = newestDefault(classes, ['ingressclass.kubernetes.io/is-default-class']);
    if (def) {
      spec.ingressClassName = String(metadataOf(def).name);
      a.object.spec = spec;
    }
  }
}

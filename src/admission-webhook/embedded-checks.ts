// The webhook's checks inside the embedded API server (`flowops up`): a Flow, FlowSource or
// Operator written there is refused as kube-apiserver would refuse it after FlowOps' webhook,
// with the schemas of the CRDs stored there. Runs after the CRD's own schema admission.
import {
  type ApiServer,
  errors,
  type Admission,
  type Operation,
  type WriteOptions,
  type JsonObject,
  type ResourceType,
} from '../apiserver/index.js';
import { SchemaRegistry } from '../typecheck/index.js';
import { CHECKED_KINDS, checkObject, needsCheck } from './object-checks.js';

const CRD_GROUP = 'apiextensions.k8s.io';

export class EmbeddedChecks implements Admission {
  private registry: SchemaRegistry | undefined;

  constructor(private readonly server: Pick<ApiServer, 'registry' | 'objects'>) {
    // A CRD written changes the schemas: read them again on the next check.
    server.objects.onWrite((t) => {
      if (t.group === CRD_GROUP && t.kind === 'CustomResourceDefinition') this.registry = undefined;
    }, 'admission-checks');
  }

  private schemas(): SchemaRegistry {
    if (this.registry) return this.registry;
    const crdType = this.server.registry.lookup(CRD_GROUP, 'v1', 'customresourcedefinitions');
    const crds = crdType
      ? this.server.objects.list(crdType, undefined).items.map((text) => JSON.parse(text) as unknown)
      : [];
    this.registry = new SchemaRegistry(crds);
    return this.registry;
  }

  admit(t: ResourceType, op: Operation, obj: JsonObject, old: JsonObject | undefined, opts: WriteOptions): void {
    // A status write is not the spec's: kube-apiserver's webhook rules name flows, not flows/status.
    if (opts.subresource || !CHECKED_KINDS.some((k) => k.group === t.group && k.kind === t.kind)) return;
    if (!needsCheck(op, obj, old)) return;
    const findings = checkObject({ group: t.group, kind: t.kind }, obj, this.schemas());
    for (const w of findings.filter((f) => f.severity === 'warning'))
      opts.warnings?.push(w.field ? `${w.field}: ${w.message}` : w.message);
    const causes = findings
      .filter((f) => f.severity === 'error')
      .map((f) => ({ reason: 'FieldValueInvalid', field: f.field, message: f.message }));
    if (!causes.length) return;
    const meta = obj.metadata;
    const name = typeof meta === 'object' && meta !== null && !Array.isArray(meta) ? String(meta.name ?? '') : '';
    throw errors.invalid(t, name, causes);
  }
}

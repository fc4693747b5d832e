import { errors } from '../http/status.js';
import type { Admission, Operation, WriteOptions } from '../objects/object-store.js';
import type { JsonObject, ResourceType } from '../registry/types.js';
import { dropUnknownFields } from './builtin-fields.js';
import { vendoredOpenApi, type VendoredOpenApi } from './vendored.js';

/**
 * Unknown fields of built-in kinds, judged by kube-apiserver's own schemas (the vendored OpenAPI):
 * refused under `fieldValidation=Strict` with the strict decoder's message, warned under `Warn`,
 * and never stored, as decoding into the Go types drops them. CRs have CustomResourceAdmission.
 */
export class BuiltinFieldAdmission implements Admission {
  constructor(private readonly vendored: VendoredOpenApi = vendoredOpenApi) {}

  admit(t: ResourceType, op: Operation, obj: JsonObject, _old: JsonObject | undefined, opts: WriteOptions): void {
    // A write without fieldValidation is the server's own (namespaces at start, the GC): trusted, and
    // so a server that is never written to through HTTP never loads a schema.
    if (t.custom || op === 'DELETE' || opts.fieldValidation === undefined) return;
    const schema = this.vendored.kindSchema(t.group, t.version, t.kind);
    if (!schema) return;
    const unknown = dropUnknownFields(obj, schema.root, schema.schemas);
    if (unknown.length && opts.fieldValidation === 'Strict') {
      throw errors.badRequest(`strict decoding error: ${unknown.map((f) => `unknown field "${f}"`).join(', ')}`);
    }
    if (opts.fieldValidation === 'Warn') for (const f of unknown) opts.warnings?.push(`unknown field "${f}"`);
  }
}

import { errors, type StatusCause } from '../http/status.js';
import type { Admission, Operation, WriteOptions } from '../objects/object-store.js';
import { isObject, metadataOf, nowTimestamp } from '../objects/meta.js';
import type { JsonObject, JsonValue, ResourceType } from '../registry/types.js';
import type { ResourceRegistry } from '../registry/resource-registry.js';
import { validateCrdSchema } from '../schema/index.js';
import { crdNamesCauses } from './crd-names.js';

const CRD_GROUP = 'apiextensions.k8s.io';

/**
 * Validates CustomResourceDefinitions and writes the status the real apiextensions controllers
 * would: names accepted and the resource Established as soon as it is stored (it is served at once).
 */
export class CrdAdmission implements Admission {
  constructor(private readonly registry: ResourceRegistry) {}

  admit(t: ResourceType, op: Operation, obj: JsonObject, old: JsonObject | undefined, opts: WriteOptions): void {
    if (t.group !== CRD_GROUP || t.kind !== 'CustomResourceDefinition' || op === 'DELETE') return;
    const name = String(metadataOf(obj).name);
    undecodableSchema(obj);
    const causes = this.validate(obj, name, old);
    if (causes.length) throw errors.invalid(t, name, causes);
    if (opts.subresource === 'status') return;
    obj.status = crdStatus(obj, old);
  }

  private validate(crd: JsonObject, name: string, old: JsonObject | undefined): StatusCause[] {
    const causes: StatusCause[] = [];
    const spec = isObject(crd.spec) ? crd.spec : {};
    const names = isObject(spec.names) ? spec.names : {};
    const need = (v: JsonValue | undefined, field: string): void => {
      if (typeof v !== 'string' || !v) causes.push({ reason: 'FieldValueRequired', message: 'Required value', field });
    };
    need(spec.group, 'spec.group');
    need(names.plural, 'spec.names.plural');
    need(names.kind, 'spec.names.kind');
    // SetDefaults_CustomResourceDefinitionSpec fills singular and listKind from kind before validation,
    // so a missing kind leaves them empty too.
    const kind = typeof names.kind === 'string' ? names.kind : '';
    const singular = typeof names.singular === 'string' && names.singular ? names.singular : kind.toLowerCase();
    const listKind = typeof names.listKind === 'string' && names.listKind ? names.listKind : kind ? `${kind}List` : '';
    need(singular, 'spec.names.singular');
    need(listKind, 'spec.names.listKind');
    causes.push(...crdNamesCauses(names, { singular, listKind }));
    if (spec.scope === undefined || spec.scope === '') need(spec.scope, 'spec.scope');
    else if (spec.scope !== 'Namespaced' && spec.scope !== 'Cluster') {
      causes.push({
        reason: 'FieldValueNotSupported',
        message: `Unsupported value: ${JSON.stringify(spec.scope)}: supported values: "Cluster", "Namespaced"`,
        field: 'spec.scope',
      });
    }
    const plural = typeof names.plural === 'string' ? names.plural : '';
    const group = typeof spec.group === 'string' ? spec.group : '';
    // ValidateCustomResourceDefinitionUpdate leaves the name alone and holds group and plural instead.
    const oldSpec = old && isObject(old.spec) ? old.spec : undefined;
    const oldNames = oldSpec && isObject(oldSpec.names) ? oldSpec.names : {};
    const immutable = (now: JsonValue | undefined, was: JsonValue | undefined, field: string): void => {
      if (JSON.stringify(now) !== JSON.stringify(was))
        causes.push({
          reason: 'FieldValueInvalid',
          message: `Invalid value: ${JSON.stringify(now ?? '')}: field is immutable`,
          field,
        });
    };
    if (oldSpec) {
      immutable(spec.group, oldSpec.group, 'spec.group');
      immutable(names.plural, oldNames.plural, 'spec.names.plural');
    } else if (name !== `${plural}.${group}`) {
      causes.push({
        reason: 'FieldValueInvalid',
        message: `Invalid value: "${name}": must be spec.names.plural+"."+spec.group`,
        field: 'metadata.name',
      });
    }
    if (spec.preserveUnknownFields === true)
      causes.push({
        reason: 'FieldValueInvalid',
        message: 'Invalid value: true: must be false',
        field: 'spec.preserveUnknownFields',
      });
    if (isObject(spec.conversion) && (typeof spec.conversion.strategy !== 'string' || !spec.conversion.strategy))
      causes.push({ reason: 'FieldValueRequired', message: 'Required value', field: 'spec.conversion.strategy' });
    const versions = Array.isArray(spec.versions) ? spec.versions.filter(isObject) : [];
    if (versions.filter((v) => v.storage === true).length !== 1) {
      causes.push({
        reason: 'FieldValueInvalid',
        message: 'Invalid value: must have exactly one version marked as storage version',
        field: 'spec.versions',
      });
      // The strategy's PrepareForCreate finds no storage version to record, and the stored versions
      // are validated with the rest (ValidateCustomResourceDefinitionStoredVersions); an update keeps the old ones.
      if (!oldSpec)
        causes.push({
          reason: 'FieldValueInvalid',
          message: 'Invalid value: []string{}: must have at least one stored version',
          field: 'status.storedVersions',
        });
    }
    // The stored versions an update keeps must still be listed (ValidateCustomResourceDefinitionStoredVersions).
    const oldStored =
      old && isObject(old.status) && Array.isArray(old.status.storedVersions) ? old.status.storedVersions : [];
    const listed = new Set(versions.map((v) => v.name));
    oldStored.forEach((v, i) => {
      if (!listed.has(v))
        causes.push({
          reason: 'FieldValueInvalid',
          message: `Invalid value: ${JSON.stringify(v)}: must appear in spec.versions`,
          field: `status.storedVersions[${i}]`,
        });
    });
    // apiextensions/v1 → internal conversion hoists a schema every version shares into
    // spec.validation, and the errors are reported at that path (v1 conversion.go).
    const schemas = versions.map((v) => JSON.stringify((isObject(v.schema) ? v.schema.openAPIV3Schema : null) ?? null));
    const shared = schemas.length > 0 && schemas[0] !== 'null' && schemas.every((x) => x === schemas[0]);
    versions.forEach((v, i) => {
      // An empty name fails the DNS-1035 label check (Invalid), not a Required one.
      if (typeof v.name !== 'string' || !v.name)
        causes.push({
          reason: 'FieldValueInvalid',
          message: `Invalid value: "": a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')`,
          field: `spec.versions[${i}].name`,
        });
      if (v.deprecationWarning !== undefined && v.deprecated !== true)
        causes.push({
          reason: 'FieldValueInvalid',
          message: `Invalid value: ${JSON.stringify(v.deprecationWarning)}: can only be set for deprecated versions`,
          field: `spec.versions[${i}].deprecationWarning`,
        });
      const schema = isObject(v.schema) ? v.schema.openAPIV3Schema : undefined;
      const at = shared ? 'spec.validation.openAPIV3Schema' : `spec.versions[${i}].schema.openAPIV3Schema`;
      if (shared && i > 0) return;
      if (schema === undefined) {
        causes.push({ reason: 'FieldValueRequired', message: 'Required value: schemas are required', field: at });
      } else {
        for (const c of validateCrdSchema(schema)) causes.push({ ...c, field: `${at}${c.field ? `.${c.field}` : ''}` });
      }
    });
    if (typeof spec.group === 'string' && typeof names.plural === 'string') {
      for (const other of this.registry.all()) {
        if (!other.custom && other.group === spec.group && other.plural === names.plural) {
          causes.push({
            reason: 'FieldValueInvalid',
            message: `Invalid value: "${spec.group}": is a built-in group`,
            field: 'spec.group',
          });
          break;
        }
      }
    }
    return causes;
  }
}

/**
 * additionalProperties / additionalItems decode into JSONSchemaPropsOrBool: anything but a boolean
 * or an object fails the decode, a 400 before validation (apiextensions/v1 marshal.go).
 */
function undecodableSchema(crd: JsonObject): void {
  const spec = isObject(crd.spec) ? crd.spec : {};
  const versions = Array.isArray(spec.versions) ? spec.versions.filter(isObject) : [];
  const walk = (node: JsonValue | undefined): void => {
    if (Array.isArray(node)) {
      for (const n of node) walk(n);
      return;
    }
    if (!isObject(node)) return;
    for (const key of ['additionalProperties', 'additionalItems']) {
      const v = node[key];
      if (v !== undefined && typeof v !== 'boolean' && !isObject(v))
        throw errors.badRequest(`json: cannot unmarshal ${typeof v} into Go struct field JSONSchemaProps.${key}`);
    }
    for (const [k, v] of Object.entries(node)) if (k !== 'enum' && k !== 'default' && k !== 'example') walk(v);
  };
  for (const v of versions) walk(isObject(v.schema) ? v.schema.openAPIV3Schema : undefined);
}

function crdStatus(crd: JsonObject, old: JsonObject | undefined): JsonObject {
  const spec = crd.spec as JsonObject;
  const versions = (spec.versions as JsonObject[]).filter(isObject);
  const storage = String(versions.find((v) => v.storage === true)?.name ?? '');
  const previous =
    old && isObject(old.status) && Array.isArray(old.status.storedVersions) ? old.status.storedVersions : [];
  const stored = [...new Set([...previous.map(String), storage])];
  const now = nowTimestamp();
  const prevConditions =
    old && isObject(old.status) && Array.isArray(old.status.conditions) ? old.status.conditions.filter(isObject) : [];
  const since = (type: string): string =>
    String(prevConditions.find((c) => c.type === type)?.lastTransitionTime ?? now);
  return {
    conditions: [
      {
        type: 'NamesAccepted',
        status: 'True',
        lastTransitionTime: since('NamesAccepted'),
        reason: 'NoConflicts',
        message: 'no conflicts found',
      },
      {
        type: 'Established',
        status: 'True',
        lastTransitionTime: since('Established'),
        reason: 'InitialNamesAccepted',
        message: 'the initial names have been accepted',
      },
    ],
    acceptedNames: spec.names as JsonObject,
    storedVersions: stored,
  };
}

// The checks of a CRD's spec.names, after k8s.io/apiextensions-apiserver
// pkg/apis/apiextensions/validation/validation.go, ValidateCustomResourceDefinitionNames: each name
// given must be a DNS-1035 label (kinds compared lower-cased), and kind and listKind must differ.
// Missing names are reported as Required by the caller.
import type { StatusCause } from '../http/status.js';
import type { JsonObject, JsonValue } from '../registry/types.js';
import { dns1035LabelErrors } from '../validation/dns.js';

const text = (v: JsonValue | undefined): string => (typeof v === 'string' ? v : '');

export function crdNamesCauses(names: JsonObject, defaulted: { singular: string; listKind: string }): StatusCause[] {
  const causes: StatusCause[] = [];
  const label = (value: string, checked: string, field: string, prefix = ''): void => {
    const errs = dns1035LabelErrors(checked);
    if (value && errs.length)
      causes.push({
        reason: 'FieldValueInvalid',
        message: `Invalid value: ${JSON.stringify(value)}: ${prefix}${errs.join(', ')}`,
        field,
      });
  };
  const kind = text(names.kind);
  label(text(names.plural), text(names.plural), 'spec.names.plural');
  label(defaulted.singular, defaulted.singular, 'spec.names.singular');
  label(kind, kind.toLowerCase(), 'spec.names.kind', 'may have mixed case, but should otherwise match: ');
  if (kind && kind === defaulted.listKind)
    causes.push({
      reason: 'FieldValueInvalid',
      message: `Invalid value: ${JSON.stringify(kind)}: kind and listKind may not be the same or parsing will be ambiguous`,
      field: 'spec.names.listKind',
    });
  label(
    defaulted.listKind,
    defaulted.listKind.toLowerCase(),
    'spec.names.listKind',
    'may have mixed case, but should otherwise match: ',
  );
  const each = (list: JsonValue | undefined, field: string): void => {
    if (Array.isArray(list))
      list.forEach((v, i) => {
        label(text(v), text(v), `${field}[${i}]`);
      });
  };
  each(names.shortNames, 'spec.names.shortNames');
  each(names.categories, 'spec.names.categories');
  return causes;
}

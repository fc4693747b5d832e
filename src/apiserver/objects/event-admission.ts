import { errors, type StatusCause } from '../http/status.js';
import type { JsonObject, ResourceType } from '../registry/types.js';
import type { Admission, Operation } from './object-store.js';
import { metadataOf } from './meta.js';

/** metav1.MicroTime's wire form (RFC3339Micro): Go's decoder takes exactly six fraction digits. */
const MICRO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}(Z|[+-]\d{2}:\d{2})$/;

/**
 * `eventTime` of either Event API as kube-apiserver's decoder reads it: anything but RFC3339Micro is
 * refused (a client sending milliseconds gets a 400 there too), so no reader later fails to parse it.
 *
 * What kube-apiserver requires of an Event created through events.k8s.io/v1 (pkg/apis/core/validation/
 * events.go ValidateEventCreate and legacyValidateEvent): the fields a new-style Event must carry, and
 * none of the deprecated ones. The field names in the errors are the internal (core) ones where
 * upstream's are, so the messages read as a real server's.
 */
export class EventAdmission implements Admission {
  admit(t: ResourceType, op: Operation, obj: JsonObject): void {
    if (t.kind !== 'Event' || (t.group !== '' && t.group !== 'events.k8s.io') || op === 'DELETE') return;
    const eventTime = obj.eventTime;
    if (eventTime !== undefined && eventTime !== null && !(typeof eventTime === 'string' && MICRO_TIME.test(eventTime))) {
      throw errors.badRequest(`Event in version "${t.version}" cannot be handled as a Event: parsing time ${JSON.stringify(eventTime)} as "2006-01-02T15:04:05.000000Z07:00": eventTime must be RFC3339 with six fraction digits`);
    }
    if (op !== 'CREATE' || t.group !== 'events.k8s.io') return;
    const causes: StatusCause[] = [];
    const required = (field: string): void => void causes.push({ reason: 'FieldValueRequired', message: 'Required value', field });
    const invalid = (field: string, detail: string): void => void causes.push({ reason: 'FieldValueInvalid', message: `Invalid value: "": ${detail}`, field });
    const str = (k: string): string => (typeof obj[k] === 'string' ? (obj[k] as string) : '');
    const namespace = String(metadataOf(obj).namespace ?? '');
    const regardingNs = ((obj.regarding as JsonObject | undefined)?.namespace as string | undefined) ?? '';
    if (!obj.eventTime) required('eventTime');
    else {
      const mismatch = regardingNs ? regardingNs !== namespace : namespace !== 'default' && namespace !== 'kube-system';
      if (mismatch) causes.push({ reason: 'FieldValueInvalid', message: `Invalid value: ${JSON.stringify(regardingNs)}: does not match event.namespace`, field: 'involvedObject.namespace' });
      if (!str('reportingController')) required('reportingController');
      if (!str('reportingInstance')) required('reportingInstance');
      if (!str('action')) required('action');
      if (!str('reason')) required('reason');
    }
    if (str('type') !== 'Normal' && str('type') !== 'Warning') invalid('type', `has invalid value: ${str('type')}`);
    if (obj.deprecatedFirstTimestamp) invalid('firstTimestamp', 'needs to be unset');
    if (obj.deprecatedLastTimestamp) invalid('lastTimestamp', 'needs to be unset');
    if (obj.deprecatedCount) invalid('count', 'needs to be unset');
    const source = obj.deprecatedSource as JsonObject | undefined;
    if (source?.component || source?.host) invalid('source', 'needs to be unset');
    if (causes.length) throw errors.invalid(t, String(metadataOf(obj).name ?? ''), causes);
  }
}

import { errors } from '../http/status.js';
import type { JsonObject, ResourceType } from '../registry/types.js';
import type { Admission, Operation } from './object-store.js';

/** metav1.MicroTime's wire form (RFC3339Micro): Go's decoder takes exactly six fraction digits. */
const MICRO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}(Z|[+-]\d{2}:\d{2})$/;

/**
 * `eventTime` of either Event API as kube-apiserver's decoder reads it: anything but RFC3339Micro is
 * refused (a client sending milliseconds gets a 400 there too), so no reader later fails to parse it.
 * What either API's validation requires of an Event is in validation/events.ts.
 */
export class EventAdmission implements Admission {
  admit(t: ResourceType, op: Operation, obj: JsonObject): void {
    if (t.kind !== 'Event' || (t.group !== '' && t.group !== 'events.k8s.io') || op === 'DELETE') return;
    const eventTime = obj.eventTime;
    if (
      eventTime !== undefined &&
      eventTime !== null &&
      !(typeof eventTime === 'string' && MICRO_TIME.test(eventTime))
    ) {
      throw errors.badRequest(
        `Event in version "${t.version}" cannot be handled as a Event: parsing time ${JSON.stringify(eventTime)} as "2006-01-02T15:04:05.000000Z07:00": eventTime must be RFC3339 with six fraction digits`,
      );
    }
  }
}

// kube-apiserver's Event validation (kubernetes/kubernetes pkg/apis/core/validation/events.go):
// ValidateEventCreate and ValidateEventUpdate with legacyValidateEvent and validateV1EventSeries. Both APIs
// store the internal core Event, so an events.k8s.io/v1 object is read in core's terms here (regarding is
// involvedObject, note is message, deprecatedCount is count…) and errors carry core's field names, as
// upstream's do; a core v1 request gets only the legacy checks, and names reportingComponent.
import type { JsonObject, JsonValue } from '../registry/types.js';
import { qualifiedNameErrors } from '../selectors/label-validation.js';
import { invalid, required } from '../schema/field-errors.js';
import type { FieldCause } from '../schema/types.js';
import { str } from './checks.js';
import { objectAt } from './pod-spec.js';
import { semanticEqual } from './semantic-equal.js';

const LIMIT_128 = 128;
const NOTE_LIMIT = 1024;

/** The internal Event's fields, from either API's JSON. */
interface CoreEvent {
  namespace: string;
  involvedObject: JsonValue | undefined;
  reason: string;
  message: string;
  source: JsonValue | undefined;
  firstTimestamp: JsonValue | undefined;
  lastTimestamp: JsonValue | undefined;
  count: JsonValue | undefined;
  type: string;
  eventTime: JsonValue | undefined;
  series: JsonValue | undefined;
  action: string;
  related: JsonValue | undefined;
  reportingController: string;
  reportingInstance: string;
}

function coreEvent(obj: JsonObject, eventsApi: boolean): CoreEvent {
  const pick = (events: string, core: string): JsonValue | undefined => (eventsApi ? obj[events] : obj[core]);
  return {
    namespace: str(objectAt(obj, 'metadata').namespace),
    involvedObject: pick('regarding', 'involvedObject'),
    reason: str(obj.reason),
    message: str(pick('note', 'message')),
    source: pick('deprecatedSource', 'source'),
    firstTimestamp: pick('deprecatedFirstTimestamp', 'firstTimestamp'),
    lastTimestamp: pick('deprecatedLastTimestamp', 'lastTimestamp'),
    count: pick('deprecatedCount', 'count'),
    type: str(obj.type),
    eventTime: obj.eventTime,
    series: obj.series,
    action: str(obj.action),
    related: obj.related,
    reportingController: str(pick('reportingController', 'reportingComponent')),
    reportingInstance: str(obj.reportingInstance),
  };
}

const isSet = (v: JsonValue | undefined): boolean => v !== undefined && v !== null && v !== '' && v !== 0;
const asObject = (v: JsonValue | undefined): JsonObject =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? v : {};

function legacyCauses(e: CoreEvent, eventsApi: boolean): FieldCause[] {
  const causes: FieldCause[] = [];
  const controllerPath = eventsApi ? 'reportingController' : 'reportingComponent';
  const involvedNs = str(asObject(e.involvedObject).namespace);
  const mismatch = (): FieldCause => invalid('involvedObject.namespace', involvedNs, 'does not match event.namespace');
  if (!isSet(e.eventTime)) {
    if (!involvedNs) {
      if (e.namespace !== '' && e.namespace !== 'default') causes.push(mismatch());
    } else if (e.namespace !== involvedNs) causes.push(mismatch());
    return causes;
  }
  if (!involvedNs && e.namespace !== 'default' && e.namespace !== 'kube-system') causes.push(mismatch());
  if (!e.reportingController) causes.push(required(controllerPath));
  for (const m of qualifiedNameErrors(e.reportingController)) {
    causes.push(invalid(controllerPath, e.reportingController, m));
  }
  const limited = (path: string, v: string, limit: number): void => {
    if (v.length > limit) causes.push(invalid(path, '', `can have at most ${limit} characters`));
  };
  if (!e.reportingInstance) causes.push(required('reportingInstance'));
  limited('reportingInstance', e.reportingInstance, LIMIT_128);
  if (!e.action) causes.push(required('action'));
  limited('action', e.action, LIMIT_128);
  if (!e.reason) causes.push(required('reason'));
  limited('reason', e.reason, LIMIT_128);
  limited('message', e.message, NOTE_LIMIT);
  return causes;
}

function seriesCauses(e: CoreEvent): FieldCause[] {
  if (e.series === undefined || e.series === null) return [];
  const s = asObject(e.series);
  const causes: FieldCause[] = [];
  if (typeof s.count !== 'number' || s.count < 2) causes.push(invalid('series.count', '', 'should be at least 2'));
  if (!isSet(s.lastObservedTime)) causes.push(required('series.lastObservedTime'));
  return causes;
}

function createCauses(e: CoreEvent): FieldCause[] {
  const causes = seriesCauses(e);
  if (!isSet(e.eventTime)) causes.push(required('eventTime'));
  if (e.type !== 'Normal' && e.type !== 'Warning') causes.push(invalid('type', '', `has invalid value: ${e.type}`));
  if (isSet(e.firstTimestamp)) causes.push(invalid('firstTimestamp', '', 'needs to be unset'));
  if (isSet(e.lastTimestamp)) causes.push(invalid('lastTimestamp', '', 'needs to be unset'));
  if (isSet(e.count)) causes.push(invalid('count', '', 'needs to be unset'));
  const source = asObject(e.source);
  if (str(source.component) || str(source.host)) causes.push(invalid('source', '', 'needs to be unset'));
  return causes;
}

/** eventTime compared at microseconds (a client's truncation is no change). */
function microsEqual(a: JsonValue | undefined, b: JsonValue | undefined): boolean {
  const micros = (v: JsonValue | undefined): string => {
    const m = /^(.*?\.\d{0,6})\d*(Z|[+-].*)$/.exec(str(v));
    return m ? `${m[1] ?? ''}${m[2] ?? ''}` : str(v);
  };
  return semanticEqual(a, b) || micros(a) === micros(b);
}

/** A Go pointer field: nil differs from a pointer to the zero struct. */
function pointerEqual(a: JsonValue | undefined, b: JsonValue | undefined): boolean {
  const nil = (v: JsonValue | undefined): boolean => v === undefined || v === null;
  if (nil(a) || nil(b)) return nil(a) && nil(b);
  return semanticEqual(a, b);
}

function updateCauses(e: CoreEvent, old: CoreEvent): FieldCause[] {
  const causes = pointerEqual(e.series, old.series) ? [] : seriesCauses(e);
  const fixed = (path: string, now: JsonValue | undefined, before: JsonValue | undefined): void => {
    if (!semanticEqual(now, before)) causes.push(invalid(path, now ?? null, 'field is immutable'));
  };
  fixed('involvedObject', e.involvedObject, old.involvedObject);
  fixed('reason', e.reason, old.reason);
  fixed('message', e.message, old.message);
  fixed('source', e.source, old.source);
  fixed('firstTimestamp', e.firstTimestamp, old.firstTimestamp);
  fixed('lastTimestamp', e.lastTimestamp, old.lastTimestamp);
  fixed('count', e.count, old.count);
  fixed('reason', e.reason, old.reason);
  fixed('type', e.type, old.type);
  if (!microsEqual(e.eventTime, old.eventTime)) fixed('eventTime', e.eventTime, old.eventTime);
  fixed('action', e.action, old.action);
  if (!pointerEqual(e.related, old.related)) causes.push(invalid('related', e.related ?? null, 'field is immutable'));
  fixed('reportingController', e.reportingController, old.reportingController);
  fixed('reportingInstance', e.reportingInstance, old.reportingInstance);
  return causes;
}

/** ValidateEventCreate / ValidateEventUpdate for a request to `eventsApi` (events.k8s.io/v1) or core v1. */
export function eventCauses(obj: JsonObject, old: JsonObject | undefined, eventsApi: boolean): FieldCause[] {
  const e = coreEvent(obj, eventsApi);
  const causes = legacyCauses(e, eventsApi);
  if (!eventsApi) return causes;
  return [...causes, ...(old ? updateCauses(e, coreEvent(old, true)) : createCauses(e))];
}

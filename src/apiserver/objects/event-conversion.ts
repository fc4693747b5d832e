import type { JsonObject, StorageConversion } from '../registry/types.js';

/**
 * events.k8s.io/v1 Event ↔ core/v1 Event, the conversion kube-apiserver runs between the two
 * (k8s.io/kubernetes pkg/apis/events/v1/conversion.go: Convert_v1_Event_To_core_Event and back, the
 * rest being autoConvert's same-named fields). Both are served from the core Events' storage, so an
 * Event written through either API is read through both.
 */
const RENAMED: ReadonlyArray<[core: string, events: string]> = [
  ['message', 'note'],
  ['involvedObject', 'regarding'],
  ['source', 'deprecatedSource'],
  ['firstTimestamp', 'deprecatedFirstTimestamp'],
  ['lastTimestamp', 'deprecatedLastTimestamp'],
  ['count', 'deprecatedCount'],
  ['reportingComponent', 'reportingController'],
];
// Same name in both: eventTime, series, related, action, reason, type, reportingInstance.

/**
 * Fields Go's encoder writes even when unset (structs and non-omitempty times), so each API shows
 * them as kube-apiserver does: `eventTime: null` on a core Event, `deprecatedSource: {}` on the other.
 */
const CORE_ALWAYS: JsonObject = {
  involvedObject: {},
  source: {},
  firstTimestamp: null,
  lastTimestamp: null,
  eventTime: null,
};
const EVENTS_ALWAYS: JsonObject = {
  eventTime: null,
  deprecatedSource: {},
  deprecatedFirstTimestamp: null,
  deprecatedLastTimestamp: null,
};

function rename(
  obj: JsonObject,
  apiVersion: string,
  pairs: ReadonlyArray<[from: string, to: string]>,
  always: JsonObject,
): JsonObject {
  const out: JsonObject = { ...obj, apiVersion };
  for (const [from, to] of pairs) {
    delete out[from];
    const v = obj[from];
    if (v !== undefined) out[to] = v;
  }
  for (const [k, v] of Object.entries(always)) if (out[k] === undefined) out[k] = v;
  return out;
}

export const eventsV1FromCore = (core: JsonObject): JsonObject =>
  rename(core, 'events.k8s.io/v1', RENAMED, EVENTS_ALWAYS);

export const coreEventFromEventsV1 = (ev: JsonObject): JsonObject =>
  rename(
    ev,
    'v1',
    RENAMED.map(([c, e]) => [e, c]),
    CORE_ALWAYS,
  );

export const EVENTS_V1_STORAGE: StorageConversion = {
  group: '',
  toStorage: coreEventFromEventsV1,
  fromStorage: eventsV1FromCore,
};

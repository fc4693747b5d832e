import type { JsonObject } from '../registry/types.js';
import type { StoreEvent } from '../storage/index.js';

/**
 * What every watch a store event reaches would otherwise compute again: the event's frame in each
 * encoding (the same bytes go to each watcher of that encoding), and its objects parsed once for
 * the selectors of all of them. Held per event object, so it goes when the event does.
 */
interface Shared {
  frames: Map<string, Buffer>;
  parsed: Map<string, JsonObject>;
}

const perEvent = new WeakMap<StoreEvent, Shared>();

function sharedOf(e: StoreEvent): Shared {
  let s = perEvent.get(e);
  if (!s) {
    s = { frames: new Map(), parsed: new Map() };
    perEvent.set(e, s);
  }
  return s;
}

/** The frame of `e` under `encoding` (a key naming the encoding, the event type and the served version). */
export function sharedFrame(e: StoreEvent, encoding: string, encode: () => Buffer): Buffer {
  const { frames } = sharedOf(e);
  let frame = frames.get(encoding);
  if (!frame) {
    frame = encode();
    frames.set(encoding, frame);
  }
  return frame;
}

/** `text` (the event's value or previous value) parsed once; selectors only read it. */
export function sharedParse(e: StoreEvent, text: string): JsonObject {
  const { parsed } = sharedOf(e);
  const which = text === e.value ? 'value' : 'prev';
  let obj = parsed.get(which);
  if (!obj) {
    obj = JSON.parse(text) as JsonObject;
    parsed.set(which, obj);
  }
  return obj;
}

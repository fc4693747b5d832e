// The event vocabulary shared by the engine and the public API.

export type InputEventType = 'Added' | 'Updated' | 'Replaced' | 'Upserted' | 'Deleted';
export type OutputEventType = 'Upserted' | 'Deleted';

export interface InputEvent {
  readonly type: InputEventType;
  readonly object: object;
}

export interface OutputEvent {
  readonly type: OutputEventType;
  readonly object: Record<string, unknown>;
}

export const inputEventTypes: ReadonlySet<string> = new Set(['Added', 'Updated', 'Replaced', 'Upserted', 'Deleted']);

/** Per-source filters; an object that stops matching leaves the pipeline as if deleted. */
export interface SourceFilter {
  readonly namespace?: string;
  /** A Kubernetes LabelSelector ({matchLabels, matchExpressions}) or a plain label map. */
  readonly labelSelector?: Record<string, unknown>;
}

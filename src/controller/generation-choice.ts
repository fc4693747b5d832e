// What the queue's handler asks before each reconcile when a Flow rolls out progressively: which
// generation of the Flow reconciles this object. The controller only asks; src/rollout answers
// (rollout/resolver.ts), so the controller does not depend on how a rollout assigns generations.

import type { FlowDefinition } from '../engine/index.js';
import type { ObjectRef } from '../kube/index.js';
import type { FlowEntry } from './flow-registry.js';

/** The definition to run, or a stall naming why the assigned generation cannot be read. */
export type GenerationChoice =
  | { def: FlowDefinition }
  | { stalled: { reason: string; message: string }; def: FlowDefinition };

export interface GenerationChooser {
  /** `seen`: the resourceVersion the caller last saw of the object, so a cache read is fresh enough. */
  definitionFor(entry: FlowEntry, newest: FlowDefinition, ref: ObjectRef, seen?: string): Promise<GenerationChoice>;
}

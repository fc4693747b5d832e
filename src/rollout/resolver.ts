// Picks the Flow definition a reconcile of one object runs: the spec of the object's assigned
// generation, read from its ControllerRevision (assignment.ts), or a stall naming the revision
// when that spec can no longer be read (never a silent move to another generation).

import type { FlowEntry, GenerationChoice, GenerationChooser } from '../controller/index.js';
import type { FlowDefinition } from '../engine/index.js';
import type { KubeObject, ObjectRef } from '../kube/index.js';
import { assignedGeneration, rolloutStatusOf } from './assignment.js';
import type { RevisionStore } from './revisions.js';

export type Resolved = GenerationChoice;

export interface GenerationResolverDeps {
  revisions: RevisionStore;
  /** Reads the watched object (a cache first, as the reconciler does). */
  read: (ref: ObjectRef, seen?: string) => Promise<KubeObject | undefined>;
}

export class GenerationResolver implements GenerationChooser {
  constructor(private readonly deps: GenerationResolverDeps) {}

  async definitionFor(entry: FlowEntry, newest: FlowDefinition, ref: ObjectRef, seen?: string): Promise<Resolved> {
    const id = { namespace: newest.namespace, name: newest.name, uid: newest.uid };
    // Every generation that reconciles an object has its revision, whoever reconciled first.
    const commit = newest.revision ? { revision: newest.revision } : {};
    await this.deps.revisions.ensure(id, { generation: newest.generation, spec: newest.spec, ...commit });
    if (!newest.spec.rollout) return { def: newest };
    const obj = await this.deps.read(ref, seen);
    if (!obj) return { def: newest };
    const facts = { generation: newest.generation, spec: newest.spec, rollout: rolloutStatusOf(entry.flow) };
    const generation = assignedGeneration(facts, obj);
    if (generation === newest.generation) return { def: newest };
    const read = await this.deps.revisions.read(id, generation);
    if (!read.ok) return { def: newest, stalled: { reason: 'GenerationUnreadable', message: read.reason } };
    const { revision: _newestCommit, ...rest } = newest;
    const stored = read.stored;
    return {
      def: { ...rest, generation, spec: stored.spec, ...(stored.revision ? { revision: stored.revision } : {}) },
    };
  }
}

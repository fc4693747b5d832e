// onFailure: rollback of a Flow that came from a FlowSource: pin the source to the commit the
// previous generation came from, as `flowops rollback --to` does (spec.ref.commit; the branch is
// kept, so `flowops rollback --unpin` returns to it), and say why on the source.

import { FLOWSOURCE_API_VERSION, FLOWSOURCE_KIND, PIN_REASON_ANNOTATION, PINNED_BY_ANNOTATION } from '../api/index.js';
import type { FlowEntry } from '../controller/index.js';
import type { KubeClient, EventRecorder } from '../kube/index.js';
import type { Logger } from '../log/index.js';
import { shaOfRevision } from '../source/revision.js';
import { SOURCE_ANNOTATION } from '../sync/provenance.js';
import type { RevisionStore } from './revisions.js';

export interface PinDeps {
  kube: KubeClient;
  revisions: RevisionStore;
  events: EventRecorder;
  log: Logger;
  fieldManager: string;
}

export async function pinSourceForRollback(
  deps: PinDeps,
  entry: FlowEntry,
  toGeneration: number,
  reason: string,
): Promise<void> {
  const source = entry.flow.metadata.annotations?.[SOURCE_ANNOTATION];
  const def = entry.def;
  if (!source || !def) return;
  const [namespace, name] = source.includes('/')
    ? [source.slice(0, source.indexOf('/')), source.slice(source.indexOf('/') + 1)]
    : [def.namespace, source];
  const read = await deps.revisions.read({ namespace: def.namespace, name: def.name, uid: def.uid }, toGeneration);
  const sha = read.ok ? shaOfRevision(read.stored.revision) : undefined;
  const log = deps.log.child({ flow: entry.key, source });
  if (!sha) {
    log.warn(
      { generation: toGeneration },
      'rollback: the previous generation names no commit; the source is not pinned',
    );
    return;
  }
  const ref = { apiVersion: FLOWSOURCE_API_VERSION, kind: FLOWSOURCE_KIND, namespace, name };
  const patch = {
    metadata: {
      annotations: {
        [PINNED_BY_ANNOTATION]: `rollout of Flow ${entry.key}`,
        [PIN_REASON_ANNOTATION]: reason.slice(0, 1000),
      },
    },
    spec: { ref: { commit: sha } },
  };
  const pinned = await deps.kube.patch(ref, patch, 'merge', { fieldManager: deps.fieldManager });
  await deps.events
    .record(pinned, 'Warning', 'RolloutRolledBack', `pinned to ${sha}: ${reason}`)
    .catch(() => undefined);
  log.warn({ commit: sha }, 'rollback: source pinned to the commit before the change');
}

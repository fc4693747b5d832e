import type { FlowSourceStatus, HistoryEntry } from '../../api/index.js';
import { nowRfc3339, setCondition, type KubeClient, type Condition, type KubeObject, refOf } from '../../kube/index.js';
import type { SyncOutcome } from '../../sync/index.js';

/** An Event a reconcile records after its one status write. */
export interface SourceEvent {
  type: 'Normal' | 'Warning';
  reason: string;
  message: string;
}

export const HISTORY_LIMIT = 10;

export const statusOf = (src: KubeObject): FlowSourceStatus => (src.status ?? {}) as FlowSourceStatus;

/** Ready with a reason, in kstatus form; Stalled says the user must change something. */
export function withReady(
  status: FlowSourceStatus,
  generation: number,
  ready: boolean,
  reason: string,
  message: string,
  stalled = false,
): FlowSourceStatus {
  let conditions = setCondition(status.conditions as Condition[] | undefined, {
    type: 'Ready',
    status: ready ? 'True' : 'False',
    reason,
    message,
    observedGeneration: generation,
  });
  conditions = setCondition(conditions, {
    type: 'Stalled',
    status: stalled ? 'True' : 'False',
    reason: stalled ? reason : 'Progressing',
    message: stalled ? message : '',
    observedGeneration: generation,
  });
  return { ...status, observedGeneration: generation, conditions };
}

/** Newest first; a retry of the same revision with the same outcome replaces its entry instead of filling the list. */
export function withHistory(
  history: readonly HistoryEntry[] | undefined,
  entry: Omit<HistoryEntry, 'time'>,
): HistoryEntry[] {
  const next: HistoryEntry = { ...entry, time: nowRfc3339() };
  const rest = (history ?? []).filter(
    (h, i) => !(i === 0 && h.revision === entry.revision && h.outcome === entry.outcome),
  );
  return [next, ...rest].slice(0, HISTORY_LIMIT);
}

/**
 * The status a sync leaves, for a Git commit and an OCI artifact alike: its history entry first,
 * then Ready from the outcome (Rejected keeps the last applied state, Failed keeps the inventory).
 */
export function statusAfterSync(
  status: FlowSourceStatus,
  generation: number,
  entry: Omit<HistoryEntry, 'time'>,
  outcome: SyncOutcome,
  appliedMessage: string,
): FlowSourceStatus {
  const revision = entry.revision;
  const history = withHistory(status.history, entry);
  const why = `${revision}: ${outcome.message}`.slice(0, 4000);
  if (outcome.outcome === 'Rejected') {
    const rejected = { ...status, lastAttemptedRevision: revision, history };
    return withReady(rejected, generation, false, 'ValidationFailed', why, true);
  }
  const next: FlowSourceStatus = {
    ...status,
    lastAttemptedRevision: revision,
    history,
    inventory: outcome.inventory,
    skipped: outcome.skipped,
  };
  if (outcome.outcome === 'Failed') return withReady(next, generation, false, 'ApplyFailed', why);
  return withReady(
    { ...next, lastAppliedRevision: revision },
    generation,
    true,
    'Applied',
    appliedMessage.slice(0, 4000),
  );
}

/** One status write per reconcile, through the status subresource; a merge patch replaces the lists whole. */
export async function writeStatus(kube: KubeClient, src: KubeObject, status: FlowSourceStatus): Promise<void> {
  if (JSON.stringify(status) === JSON.stringify(src.status ?? {})) return;
  // status.commits is the notifier's (src/notify): a merge patch that leaves it out leaves it as the
  // notifier last wrote it, where the copy this reconcile read could be older.
  const ours: FlowSourceStatus = { ...status };
  delete ours.commits;
  await kube.patch(refOf(src), { status: ours }, 'merge', { subresource: 'status' });
}

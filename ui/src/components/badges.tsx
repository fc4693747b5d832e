// Health and readiness as a coloured word: the colour is never the only signal (the text says it).
import type { HealthStatus, Readiness, SourceState } from '../../../src/ui-server/types.ts';

const HEALTH_CLASS: Record<HealthStatus, string> = {
  Current: 'ok',
  InProgress: 'progress',
  Failed: 'bad',
  Missing: 'bad',
};

export function HealthBadge({ status }: { status: HealthStatus }) {
  return (
    <span class={`badge ${HEALTH_CLASS[status]}`} data-health={status}>
      {status === 'Current' ? 'Healthy' : status === 'InProgress' ? 'In progress' : status}
    </span>
  );
}

export function ReadyBadge({ ready }: { ready: Readiness }) {
  const cls = ready.status === 'True' ? 'ok' : ready.status === 'False' ? 'bad' : 'unknown';
  const label = ready.status === 'True' ? 'Ready' : ready.status === 'False' ? 'Not ready' : 'Unknown';
  return (
    <span class={`badge ${cls}`} data-ready={ready.status} title={ready.message || undefined}>
      {label}
      {ready.status !== 'True' && ready.reason ? <span class="reason"> · {ready.reason}</span> : null}
    </span>
  );
}

export function OutcomeBadge({ outcome }: { outcome: 'Applied' | 'Rejected' | 'Failed' | 'Refused' }) {
  return <span class={`badge ${outcome === 'Applied' ? 'ok' : 'bad'}`}>{outcome}</span>;
}

/** spec.verify's state: Verified, Refused (with the refusal code) or Not checked yet. */
export function VerifiedBadge({ state }: { state: Readiness }) {
  const cls = state.status === 'True' ? 'ok' : state.status === 'False' ? 'bad' : 'unknown';
  const label = state.status === 'True' ? 'Verified' : state.status === 'False' ? 'Refused' : 'Not checked yet';
  return (
    <span class={`badge ${cls}`} data-verified={state.status} title={state.message || undefined}>
      {label}
      {state.status === 'False' && state.reason ? <span class="reason"> · {state.reason}</span> : null}
    </span>
  );
}

/** A source that does not follow its branch says so wherever it is shown: pinned (a rollback) or suspended. */
export function SourceStateBadge({ state }: { state: SourceState }) {
  return (
    <>
      {state.pinned ? (
        <span class="badge progress" data-pinned title="New commits are not applied until it is unpinned">
          {state.ref}
        </span>
      ) : null}
      {state.suspended ? (
        <span class="badge unknown" data-suspended>
          {' '}
          suspended
        </span>
      ) : null}
    </>
  );
}

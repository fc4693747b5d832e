// The Source page's buttons: sync now, suspend/resume, unpin, and pin on each applied commit;
// each asks for confirmation first and reports the server's answer.
import { createContext } from 'preact';
import type { ComponentChildren } from 'preact';
import { useContext, useState } from 'preact/hooks';
import type { SourceAction, SourceSummary } from '../../../src/ui-server/types.ts';
import { runAction, type ActionOutcome } from '../actions.ts';
import { CommitPreviewView } from '../components/commit-preview.tsx';
import { ConfirmDialog, type ConfirmRequest } from '../components/confirm.tsx';
import { shortSha } from '../components/time.tsx';

type Ask = (request: ConfirmRequest, action: SourceAction) => void;
interface ActionState {
  ask: Ask;
  busy: boolean;
  outcome: ActionOutcome | undefined;
}
const ActionContext = createContext<ActionState>({ ask: () => undefined, busy: false, outcome: undefined });

/** Holds the confirmation and the outcome for every action button below it (ActionBar, PinButton). */
export function SourceActions({ source, children }: { source: SourceSummary; children: ComponentChildren }) {
  const [pending, setPending] = useState<{ request: ConfirmRequest; action: SourceAction } | undefined>();
  const [outcome, setOutcome] = useState<ActionOutcome | undefined>();
  const [busy, setBusy] = useState(false);
  const ask: Ask = (request, action) => setPending({ request, action });
  const confirm = async (): Promise<void> => {
    if (!pending) return;
    const { action } = pending;
    setPending(undefined);
    setBusy(true);
    setOutcome(await runAction(source.namespace, source.name, action));
    setBusy(false);
  };
  return (
    <ActionContext.Provider value={{ ask, busy, outcome }}>
      {children}
      <ConfirmDialog
        request={pending?.request}
        onConfirm={() => void confirm()}
        onCancel={() => setPending(undefined)}
      />
    </ActionContext.Provider>
  );
}

/** Sync now, suspend or resume, unpin; and what the last action answered. */
export function ActionBar({ source, preview }: { source: SourceSummary; preview: boolean }) {
  const { ask, busy, outcome } = useContext(ActionContext);
  // The branch's newest commit as the last fetch saw it: what unpin and sync move to.
  const tip = preview ? (
    <CommitPreviewView namespace={source.namespace} name={source.name} commit="branch" />
  ) : (
    <p class="muted">
      (not previewed here: <code>flowops diff</code> in a checkout shows it)
    </p>
  );
  return (
    <div class="toolbar" role="toolbar" aria-label="Source actions">
      <button
        type="button"
        disabled={busy}
        onClick={() =>
          ask(
            {
              title: 'Sync now?',
              body: `Fetch ${source.url} and apply its newest commit now. As of the last fetch, that would change:`,
              confirmLabel: 'Sync now',
              detail: tip,
            },
            { action: 'sync' },
          )
        }
      >
        Sync now
      </button>
      {source.suspended ? (
        <button
          type="button"
          disabled={busy}
          onClick={() =>
            ask(
              { title: 'Resume?', body: 'Polling and applying start again.', confirmLabel: 'Resume' },
              { action: 'resume' },
            )
          }
        >
          Resume
        </button>
      ) : (
        <button
          type="button"
          disabled={busy}
          onClick={() =>
            ask(
              {
                title: 'Suspend?',
                body: 'No polling and no applying until resumed; what is applied stays.',
                confirmLabel: 'Suspend',
              },
              { action: 'suspend' },
            )
          }
        >
          Suspend
        </button>
      )}
      {source.pinned ? (
        <button
          type="button"
          disabled={busy}
          onClick={() =>
            ask(
              {
                title: 'Unpin?',
                body: 'Follow the branch again: its newest commit is applied. As of the last fetch, that would change:',
                confirmLabel: 'Unpin',
                detail: tip,
              },
              { action: 'unpin' },
            )
          }
        >
          Unpin
        </button>
      ) : null}
      {outcome ? (
        <span
          class={`outcome ${outcome.ok ? 'ok-text' : 'bad-text'}`}
          role={outcome.ok ? 'status' : 'alert'}
          data-action-outcome={outcome.ok ? 'ok' : 'error'}
        >
          {outcome.message}
        </span>
      ) : null}
    </div>
  );
}

/** "Pin to this commit" on a history row: a rollback that the poller never moves forward. */
export function PinButton({
  commit,
  source,
  preview,
}: {
  commit: string;
  source: { namespace: string; name: string };
  preview: boolean;
}) {
  const { ask } = useContext(ActionContext);
  const short = shortSha(commit);
  // Without the source's clone here (`flowops run`), no dry run: `flowops diff --commit` shows it.
  const detail = preview ? (
    <CommitPreviewView namespace={source.namespace} name={source.name} commit={commit} />
  ) : (
    <p class="muted">
      See what it would change first with <code>flowops diff --commit {short}</code>.
    </p>
  );
  return (
    <button
      type="button"
      class="small"
      aria-label={`Pin to commit ${short}`}
      onClick={() =>
        ask(
          {
            title: `Pin to ${short}?`,
            body: `Apply commit ${short} and stay on it: new commits are not applied until you unpin.`,
            confirmLabel: `Pin to ${short}`,
            detail,
          },
          { action: 'pin', commit },
        )
      }
    >
      Pin
    </button>
  );
}

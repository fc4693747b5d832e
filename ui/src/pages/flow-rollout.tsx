// The Flow page's rollout: its state, the stages with their counts, the generations in use with
// how many objects each has, the objects that failed and why, and the controls of
// `flowops rollout` (Promote, Pause, Resume, Abort), each behind a confirmation. The page's live
// stream refetches the Flow when its status changes, so all of it follows the engine.
import { useState } from 'preact/hooks';
import type { FlowRolloutView, RolloutControlName } from '../../../src/ui-server/types.ts';
import { runRolloutControl, type ActionOutcome } from '../actions.ts';
import { ConfirmDialog, type ConfirmRequest } from '../components/confirm.tsx';

const STATE_CLASS: Record<string, string> = {
  Complete: 'ok',
  Passed: 'ok',
  Progressing: 'progress',
  Paused: 'progress',
  Pending: 'unknown',
  Halted: 'bad',
  RolledBack: 'bad',
  Aborted: 'bad',
  Failed: 'bad',
};

function StateBadge({ state }: { state: string | undefined }) {
  const s = state ?? 'Pending';
  return (
    <span class={`badge ${STATE_CLASS[s] ?? 'unknown'}`} data-state={s}>
      {s}
    </span>
  );
}

const CONFIRM: Record<RolloutControlName, { label: string; title: string; body: string }> = {
  promote: {
    label: 'Promote',
    title: 'Promote?',
    body: 'The paused stage passes: the next stage moves its objects to the new generation.',
  },
  pause: {
    label: 'Pause',
    title: 'Pause the rollout?',
    body: 'No object moves to another generation until it is resumed.',
  },
  resume: { label: 'Resume', title: 'Resume the rollout?', body: 'The rollout goes on from the stage it is at.' },
  abort: {
    label: 'Abort',
    title: 'Abort the rollout?',
    body: 'The objects it reached go back to the previous generation; the rollout ends as Aborted.',
  },
};

const n = (v: number | undefined): string => (v === undefined ? '–' : String(v));

export function RolloutSection({ namespace, name, view }: { namespace: string; name: string; view: FlowRolloutView }) {
  const [pending, setPending] = useState<{ request: ConfirmRequest; control: RolloutControlName } | undefined>();
  const [outcome, setOutcome] = useState<ActionOutcome | undefined>();
  const [busy, setBusy] = useState(false);
  const r = view.rollout;
  const confirm = async (): Promise<void> => {
    if (!pending) return;
    const { control } = pending;
    setPending(undefined);
    setBusy(true);
    setOutcome(await runRolloutControl(namespace, name, control));
    setBusy(false);
  };
  const ask = (control: RolloutControlName): void => {
    const c = CONFIRM[control];
    const of = r?.generation !== undefined ? ` of generation ${r.generation}` : '';
    setPending({
      request: { title: c.title, body: `Flow ${namespace}/${name}, rollout${of}: ${c.body}`, confirmLabel: c.label },
      control,
    });
  };
  return (
    <section data-rollout={r?.state ?? 'none'}>
      <h2 id="rollout-h">Rollout</h2>
      {r ? (
        <p>
          Generation <strong>{n(r.generation)}</strong>
          {r.fromGeneration !== undefined ? <> from {r.fromGeneration}</> : null}: <StateBadge state={r.state} />
          {view.paused ? (
            <span class="badge progress" data-paused>
              {' '}
              paused
            </span>
          ) : null}
          {r.message ? (
            <span class="muted" data-rollout-message>
              {' '}
              {r.message}
            </span>
          ) : null}
        </p>
      ) : (
        <p class="muted">No rollout has started: the next change of this Flow goes out stage by stage.</p>
      )}
      <div class="toolbar" role="toolbar" aria-label="Rollout controls">
        {(['promote', 'pause', 'resume', 'abort'] as const).map((c) =>
          view.controls.includes(c) ? (
            <button type="button" key={c} disabled={busy} onClick={() => ask(c)}>
              {CONFIRM[c].label}
            </button>
          ) : null,
        )}
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
      {r?.stages.length ? (
        <table aria-labelledby="rollout-h" class="cards" data-stages>
          <thead>
            <tr>
              <th scope="col">Stage</th>
              <th scope="col">Target</th>
              <th scope="col">Updated</th>
              <th scope="col">Ready</th>
              <th scope="col">State</th>
            </tr>
          </thead>
          <tbody>
            {r.stages.map((s) => (
              <tr key={s.index} data-stage={s.index} aria-current={s.index === r.currentStage ? 'step' : undefined}>
                <td>{s.index + 1}</td>
                <td>{n(s.target)}</td>
                <td>{n(s.updated)}</td>
                <td>{n(s.ready)}</td>
                <td>
                  <StateBadge state={s.state} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      {view.generations.length ? (
        <table aria-label="Generations in use" class="cards" data-generations>
          <thead>
            <tr>
              <th scope="col">Generation</th>
              <th scope="col">Revision</th>
              <th scope="col">Objects</th>
              <th scope="col">Ready</th>
            </tr>
          </thead>
          <tbody>
            {view.generations.map((g) => (
              <tr key={g.generation} data-generation={g.generation}>
                <td>{g.generation}</td>
                <td>
                  <code>{g.revision ?? '–'}</code>
                </td>
                <td>{n(g.objects)}</td>
                <td>{n(g.ready)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      {r?.failed.length ? (
        <div class="notice bad" role="alert" data-failed>
          <strong>Failed objects</strong>
          <ul>
            {r.failed.map((f) => (
              <li key={f.object} data-failed-object={f.object}>
                <code>{f.object}</code>: {f.reason ?? 'no reason given'}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      <ConfirmDialog
        request={pending?.request}
        onConfirm={() => void confirm()}
        onCancel={() => setPending(undefined)}
      />
    </section>
  );
}

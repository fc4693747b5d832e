// Inside the pin dialog: what the pin would change, from the server's dry run (the same one
// `flowops diff --commit` makes): created, changed with the fields, pruned.
import { useEffect, useState } from 'preact/hooks';
import type { CommitPreview } from '../../../src/ui-server/types.ts';
import { BASE } from '../router.ts';

type State = { state: 'loading' } | { state: 'ok'; preview: CommitPreview } | { state: 'error'; message: string };

export function DiffText({ diff }: { diff: string }) {
  return (
    <pre class="diff">
      {diff.split('\n').map((l, i) => (
        <span
          key={i}
          class={
            l.startsWith('+') && !l.startsWith('+++')
              ? 'add'
              : l.startsWith('-') && !l.startsWith('---')
                ? 'del'
                : undefined
          }
        >
          {l}
          {'\n'}
        </span>
      ))}
    </pre>
  );
}

export function CommitPreviewView({ namespace, name, commit }: { namespace: string; name: string; commit: string }) {
  const [s, setS] = useState<State>({ state: 'loading' });
  useEffect(() => {
    const url = `${BASE}api/sources/${encodeURIComponent(namespace)}/${encodeURIComponent(name)}/preview?commit=${encodeURIComponent(commit)}`;
    void fetch(url, { headers: { Accept: 'application/json' } })
      .then(async (r) => {
        const body = (await r.json().catch(() => ({}))) as CommitPreview & { error?: string };
        setS(
          r.ok
            ? { state: 'ok', preview: body }
            : { state: 'error', message: `${r.status}: ${body.error ?? r.statusText}` },
        );
      })
      .catch((err: unknown) => setS({ state: 'error', message: String(err) }));
  }, [namespace, name, commit]);
  if (s.state === 'loading')
    return (
      <p class="muted" aria-busy="true">
        Working out what would change…
      </p>
    );
  if (s.state === 'error')
    return (
      <p class="bad-text" role="alert">
        Could not preview the change: {s.message}
      </p>
    );
  return <PreviewBody p={s.preview} />;
}

/** A dry run's answer: the rejection, or the counts and each object's diff. */
export function PreviewBody({ p }: { p: CommitPreview }) {
  if (p.errors.length)
    return (
      <div class="bad-text" role="alert" data-preview-errors>
        This commit would be rejected:{' '}
        <ul>
          {p.errors.slice(0, 20).map((e, i) => (
            <li key={i}>{e}</li>
          ))}
        </ul>
      </div>
    );
  const count = (k: string): number => p.changes.filter((c) => c.change === k).length;
  return (
    <div class="preview" data-preview>
      <p data-preview-summary>
        {p.changes.length === 0 && p.cut === 0
          ? 'Nothing would change.'
          : `${count('created')} created, ${count('changed')} changed, ${count('pruned')} pruned${p.cut ? ` (and ${p.cut} more not listed)` : ''}.`}
      </p>
      {p.changes.map((c) => (
        <details key={c.object} data-preview-change={c.change} open={c.change !== 'changed' ? undefined : true}>
          <summary>
            <span class={`badge ${c.change === 'pruned' ? 'bad' : c.change === 'created' ? 'ok' : 'progress'}`}>
              {c.change}
            </span>{' '}
            {c.object}
          </summary>
          <DiffText diff={c.diff} />
        </details>
      ))}
    </div>
  );
}

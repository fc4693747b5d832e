// A commit of a source: what Git says of it, its syncs, what applying it would change live (the
// dry run a pin shows), and its diff against its parent, file by file.
import type { CommitDetail } from '../../../src/ui-server/types.ts';
import { OutcomeBadge } from '../components/badges.tsx';
import { DiffText, PreviewBody } from '../components/commit-preview.tsx';
import { WhenLoaded } from '../components/loaded.tsx';
import { Ago, shortSha } from '../components/time.tsx';
import { useLive } from '../live.ts';
import { paths } from '../router.ts';

export function CommitPage({ namespace, name, commit }: { namespace: string; name: string; commit: string }) {
  const url = `/ui/api/sources/${encodeURIComponent(namespace)}/${encodeURIComponent(name)}/commits/${encodeURIComponent(commit)}`;
  const loaded = useLive<CommitDetail>(
    url,
    (c) => c.kind === 'FlowSource' && c.name === name && c.namespace === namespace,
  );
  return (
    <WhenLoaded loaded={loaded} what={`commit ${shortSha(commit)}`}>
      {(d) => (
        <>
          <p class="crumbs">
            <a href={paths.overview()}>Overview</a> /{' '}
            <a href={paths.source(namespace, name)}>
              FlowSource {namespace}/{name}
            </a>{' '}
            / Commit
          </p>
          <h1>
            Commit <code title={d.commit}>{shortSha(d.commit)}</code>
          </h1>
          <dl class="facts">
            <dt>Subject</dt>
            <dd class="subject" data-subject>
              {d.subject ?? <span class="muted">(not known)</span>}
            </dd>
            <dt>Author</dt>
            <dd>
              {d.author ?? '—'}
              {d.authoredAt ? (
                <>
                  , <Ago iso={d.authoredAt} />
                </>
              ) : null}
            </dd>
            <dt>Commit</dt>
            <dd>
              <code class="path">{d.commit}</code>
            </dd>
            <dt>Parent</dt>
            <dd>
              {d.parent ? (
                <a href={paths.commit(namespace, name, d.parent)}>
                  <code>{shortSha(d.parent)}</code>
                </a>
              ) : (
                'none (the first commit)'
              )}
            </dd>
            <dt>Syncs</dt>
            <dd>
              {d.entry ? (
                d.entry.applies.map((a, i) => (
                  <span key={i} class="sync">
                    <OutcomeBadge outcome={a.outcome} /> <Ago iso={a.time} />
                    {a.live ? ' (live)' : ''}{' '}
                  </span>
                ))
              ) : (
                <span class="muted">never synced by this source</span>
              )}
            </dd>
          </dl>
          <section data-against-live>
            <h2 id="live-h">Against live: what applying it now would change</h2>
            <PreviewBody p={d.live} />
          </section>
          <section data-against-parent>
            <h2 id="parent-h">
              Against its parent: {d.files.length + d.cut} file{d.files.length + d.cut === 1 ? '' : 's'} changed
            </h2>
            {d.cut ? (
              <p class="notice" role="status">
                The first {d.files.length} files are shown; {d.cut} more are not.
              </p>
            ) : null}
            {d.files.map((f) => (
              <details key={f.path} open data-file-diff={f.path}>
                <summary>
                  <span class={`badge ${f.status === 'deleted' ? 'bad' : f.status === 'added' ? 'ok' : 'progress'}`}>
                    {f.status}
                  </span>{' '}
                  <code class="path">{f.path}</code>
                </summary>
                {f.tooLarge ? <p class="muted">Too large or binary to show here.</p> : <DiffText diff={f.diff} />}
              </details>
            ))}
          </section>
        </>
      )}
    </WhenLoaded>
  );
}

// Source: a FlowSource's commits, each once with its subject and author and its syncs under it
// (applied or rejected, with the file:line message linked to the Flow), and the objects its
// applied commit holds.
import { useEffect } from 'preact/hooks';
import type { CommitEntry, FlowFileLink, SourceDetail } from '../../../src/ui-server/types.ts';
import { OutcomeBadge, ReadyBadge, VerifiedBadge } from '../components/badges.tsx';
import { LinkedMessage, type LineHref } from '../components/linked.tsx';
import { WhenLoaded } from '../components/loaded.tsx';
import { Ago, shortSha } from '../components/time.tsx';
import { useLive } from '../live.ts';
import { paths } from '../router.ts';
import { ActionBar, PinButton, SourceActions } from './source-actions.tsx';

/** `file:line` in a message of `commit` links to the Flow defined in that file, at that commit's version of it. */
function flowLines(files: FlowFileLink[], commit: string | undefined, liveCommit: string | undefined): LineHref {
  return (path, line) => {
    const f = files.find((x) => x.path === path);
    if (!f) return undefined;
    return paths.flow(f.namespace, f.name, { ...(commit && commit !== liveCommit ? { commit } : {}), line });
  };
}

const shaIn = (message: string): string | undefined => /sha1:([0-9a-f]{40})/.exec(message)?.[1];

function CommitRow({
  c,
  files,
  liveCommit,
  highlighted,
  source,
  commitPages,
}: {
  c: CommitEntry;
  files: FlowFileLink[];
  liveCommit: string | undefined;
  highlighted: string;
  source: { namespace: string; name: string };
  commitPages: boolean;
}) {
  const hrefOf = flowLines(files, c.commit, liveCommit);
  return (
    <tr
      id={c.commit}
      class={c.commit && c.commit === highlighted ? 'highlight' : undefined}
      data-commit={c.commit}
      data-outcome={c.outcome}
    >
      <td class="nowrap" data-label="Commit">
        {c.commit ? (
          <a
            href={
              commitPages
                ? paths.commit(source.namespace, source.name, c.commit)
                : paths.source(source.namespace, source.name, c.commit)
            }
            data-commit-hash={c.commit}
          >
            <code title={c.revision}>{shortSha(c.commit)}</code>
          </a>
        ) : (
          <code>{c.revision}</code>
        )}
        {c.live ? <span class="badge ok live"> live</span> : null}
      </td>
      <td data-label="Subject">
        <span class="subject" data-subject>
          {c.subject ?? <span class="muted">(subject not known)</span>}
        </span>
        <span class="muted byline">
          {c.author ? ` ${c.author}` : ''}
          {c.authoredAt ? (
            <>
              , <Ago iso={c.authoredAt} />
            </>
          ) : null}
        </span>
        {c.signer ? (
          <p class="signer">
            Signer: <code>{c.signer}</code>
          </p>
        ) : null}
      </td>
      <td data-label="Syncs">
        <ul class="applies">
          {c.applies.map((a, i) => (
            <li key={i} data-apply={a.outcome}>
              <OutcomeBadge outcome={a.outcome} /> <Ago iso={a.time} />
              {a.live ? <span class="muted"> (live)</span> : null}
              {a.message ? (
                <pre class="message">
                  <LinkedMessage text={a.message} hrefOf={hrefOf} />
                </pre>
              ) : null}
            </li>
          ))}
        </ul>
      </td>
      <td data-label="Pin">
        {c.commit && c.outcome === 'Applied' && !c.live ? (
          <PinButton commit={c.commit} source={source} preview={commitPages} />
        ) : null}
      </td>
    </tr>
  );
}

export function SourcePage({ namespace, name }: { namespace: string; name: string }) {
  const loaded = useLive<SourceDetail>(
    `/ui/api/sources/${encodeURIComponent(namespace)}/${encodeURIComponent(name)}`,
    (c) => c.kind === 'FlowSource' && c.name === name && c.namespace === namespace,
  );
  const highlighted = location.hash.slice(1);
  const ready = loaded.state === 'ok';
  // A link to one commit (#<sha>) shows that row once the history is there.
  useEffect(() => {
    if (ready && highlighted) document.getElementById(highlighted)?.scrollIntoView({ block: 'center' });
  }, [ready, highlighted]);
  return (
    <WhenLoaded loaded={loaded} what={`FlowSource ${namespace}/${name}`}>
      {(d) => {
        const liveCommit = d.history.find((h) => h.live)?.commit;
        const readyLinks = flowLines(d.flowFiles, shaIn(d.source.ready.message), liveCommit);
        return (
          <SourceActions source={d.source}>
            <p class="crumbs">
              <a href={paths.overview()}>Overview</a> / Source
            </p>
            <h1>
              FlowSource {d.source.namespace}/{d.source.name}
            </h1>
            <p>
              <a href={paths.previews(d.source.namespace, d.source.name)} data-previews-link>
                Pull-request previews
              </a>
            </p>
            {d.source.pinned ? (
              <p class="notice pinned" role="status" data-pinned-notice>
                <strong>Pinned</strong> to {d.source.ref.replace(/^pinned /, '')}: new commits on the branch are not
                applied until it is unpinned.
              </p>
            ) : null}
            <ActionBar source={d.source} preview={d.commitPages === true} />
            <dl class="facts">
              <dt>URL</dt>
              <dd>
                <code class="path">{d.source.url}</code>
              </dd>
              <dt>Ref</dt>
              <dd>
                {d.source.ref}
                {d.source.suspended ? ' (suspended)' : ''}
              </dd>
              {d.path ? (
                <>
                  <dt>Path</dt>
                  <dd>
                    <code class="path">{d.path}</code>
                  </dd>
                </>
              ) : null}
              <dt>Interval</dt>
              <dd>{d.interval ?? '1m'}</dd>
              <dt>Applied</dt>
              <dd>
                <code class="path">{d.source.appliedRevision ?? 'none yet'}</code>
              </dd>
              <dt>Ready</dt>
              <dd>
                <ReadyBadge ready={d.source.ready} />{' '}
                <LinkedMessage text={d.source.ready.message} hrefOf={readyLinks} />
              </dd>
              {d.verification ? (
                <>
                  <dt>Signatures</dt>
                  <dd>
                    required (mode {d.verification.mode}): <VerifiedBadge state={d.verification.state} />{' '}
                    <span class="message">{d.verification.state.message}</span>
                  </dd>
                </>
              ) : null}
            </dl>
            <section>
              <h2 id="history-h">Commits</h2>
              {d.history.length === 0 ? (
                <p class="muted">No commit synced yet.</p>
              ) : (
                <table aria-labelledby="history-h" class="cards commits">
                  <thead>
                    <tr>
                      <th scope="col">Commit</th>
                      <th scope="col">Subject</th>
                      <th scope="col">Syncs</th>
                      <th scope="col">
                        <span class="sr-only">Pin</span>
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {d.history.map((c) => (
                      <CommitRow
                        key={c.commit ?? c.revision}
                        c={c}
                        files={d.flowFiles}
                        liveCommit={liveCommit}
                        highlighted={highlighted}
                        source={d.source}
                        commitPages={d.commitPages === true}
                      />
                    ))}
                  </tbody>
                </table>
              )}
            </section>
            <section>
              <h2 id="objects-h">Objects of the applied commit</h2>
              {d.objects.length === 0 ? (
                <p class="muted">None.</p>
              ) : (
                <table aria-labelledby="objects-h" class="cards">
                  <thead>
                    <tr>
                      <th scope="col">Kind</th>
                      <th scope="col">Name</th>
                      <th scope="col">File</th>
                    </tr>
                  </thead>
                  <tbody>
                    {d.objects.map((o) => (
                      <tr key={`${o.apiVersion}/${o.kind}/${o.namespace ?? ''}/${o.name}`}>
                        <td data-label="Kind">
                          <code>{o.kind}</code>
                        </td>
                        <td data-label="Name">
                          <a data-row href={paths.best(o)}>
                            {o.namespace ? `${o.namespace}/` : ''}
                            {o.name}
                          </a>
                        </td>
                        <td data-label="File">
                          <code class="path">{o.path}</code>
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              )}
            </section>
          </SourceActions>
        );
      }}
    </WhenLoaded>
  );
}

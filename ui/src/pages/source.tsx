// Source: a FlowSource's commits, applied or rejected (with the file:line message), and the objects
// its applied commit holds.
import { useEffect } from 'preact/hooks';
import type { SourceDetail } from '../../../src/ui-server/types.ts';
import { OutcomeBadge, ReadyBadge, VerifiedBadge } from '../components/badges.tsx';
import { WhenLoaded } from '../components/loaded.tsx';
import { Ago, shortSha } from '../components/time.tsx';
import { useLive } from '../live.ts';
import { paths } from '../router.ts';
import { ActionBar, PinButton, SourceActions } from './source-actions.tsx';

export function SourcePage({ namespace, name }: { namespace: string; name: string }) {
  const loaded = useLive<SourceDetail>(`/ui/api/sources/${encodeURIComponent(namespace)}/${encodeURIComponent(name)}`, (c) => c.kind === 'FlowSource' && c.name === name && c.namespace === namespace);
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
        return (
          <SourceActions source={d.source}>
            <p class="crumbs"><a href={paths.overview()}>Overview</a> / Source</p>
            <h1>FlowSource {d.source.namespace}/{d.source.name}</h1>
            <ActionBar source={d.source} />
            <dl class="facts">
              <dt>URL</dt><dd><code>{d.source.url}</code></dd>
              <dt>Ref</dt><dd>{d.source.ref}{d.source.suspended ? ' (suspended)' : ''}</dd>
              {d.path ? <><dt>Path</dt><dd><code>{d.path}</code></dd></> : null}
              <dt>Interval</dt><dd>{d.interval ?? '1m'}</dd>
              <dt>Applied</dt><dd><code>{d.source.appliedRevision ?? 'none yet'}</code></dd>
              <dt>Ready</dt><dd><ReadyBadge ready={d.source.ready} /> <span class="message">{d.source.ready.message}</span></dd>
              {d.verification ? <><dt>Signatures</dt><dd>required (mode {d.verification.mode}): <VerifiedBadge state={d.verification.state} /> <span class="message">{d.verification.state.message}</span></dd></> : null}
            </dl>
            <section>
              <h2 id="history-h">Commits</h2>
              {d.history.length === 0 ? <p class="muted">No commit synced yet.</p> : (
                <table aria-labelledby="history-h">
                  <thead><tr><th scope="col">Commit</th><th scope="col">When</th><th scope="col">Outcome</th><th scope="col">Message</th><th scope="col"><span class="sr-only">Actions</span></th></tr></thead>
                  <tbody>
                    {d.history.map((h) => (
                      <tr key={`${h.revision}${h.time}`} id={h.commit} class={h.commit && h.commit === highlighted ? 'highlight' : undefined} data-commit={h.commit} data-outcome={h.outcome}>
                        <td class="nowrap"><code title={h.revision}>{shortSha(h.commit) || h.revision}</code>{h.live ? <span class="badge ok live"> live</span> : null}</td>
                        <td class="nowrap"><Ago iso={h.time} /></td>
                        <td><OutcomeBadge outcome={h.outcome} /></td>
                        <td><pre class="message">{h.message ?? ''}</pre>{h.signer ? <p class="signer">Signer: <code>{h.signer}</code></p> : null}</td>
                        <td>{h.commit && h.outcome === 'Applied' && h.commit !== liveCommit ? <PinButton commit={h.commit} /> : null}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              )}
            </section>
            <section>
              <h2 id="objects-h">Objects of the applied commit</h2>
              {d.objects.length === 0 ? <p class="muted">None.</p> : (
                <table aria-labelledby="objects-h">
                  <thead><tr><th scope="col">Kind</th><th scope="col">Name</th><th scope="col">File</th></tr></thead>
                  <tbody>
                    {d.objects.map((o) => (
                      <tr key={`${o.apiVersion}/${o.kind}/${o.namespace ?? ''}/${o.name}`}>
                        <td><code>{o.kind}</code></td>
                        <td><a data-row href={paths.best(o)}>{o.namespace ? `${o.namespace}/` : ''}{o.name}</a></td>
                        <td><code>{o.path}</code></td>
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

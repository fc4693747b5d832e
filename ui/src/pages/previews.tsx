// A FlowSource's pull-request previews (what src/preview stores per request), live: the list, and
// one request's page with the summary per Flow/Operator above its folded diff.
import type { StoredPreview } from '../../../src/preview/preview-store.ts';
import type { PreviewList } from '../../../src/ui-server/types.ts';
import { DiffText } from '../components/commit-preview.tsx';
import { WhenLoaded } from '../components/loaded.tsx';
import { Ago, shortSha } from '../components/time.tsx';
import { useLive } from '../live.ts';
import { paths } from '../router.ts';

const api = (namespace: string, name: string): string =>
  `/ui/api/sources/${encodeURIComponent(namespace)}/${encodeURIComponent(name)}/previews`;

function Crumbs({ namespace, name, pr }: { namespace: string; name: string; pr?: number }) {
  return (
    <p class="crumbs">
      <a href={paths.overview()}>Overview</a> /{' '}
      <a href={paths.source(namespace, name)}>
        FlowSource {namespace}/{name}
      </a>{' '}
      / {pr === undefined ? 'Previews' : <a href={paths.previews(namespace, name)}>Previews</a>}
      {pr === undefined ? null : ` / #${pr}`}
    </p>
  );
}

export function PreviewsPage({ namespace, name }: { namespace: string; name: string }) {
  const loaded = useLive<PreviewList>(api(namespace, name), (c) => c.namespace === namespace && c.kind === 'ConfigMap');
  return (
    <WhenLoaded loaded={loaded} what={`previews of ${namespace}/${name}`}>
      {(d) => (
        <>
          <Crumbs namespace={namespace} name={name} />
          <h1>Pull-request previews</h1>
          {d.previews.length ? (
            <table data-previews>
              <thead>
                <tr>
                  <th>Request</th>
                  <th>Head</th>
                  <th>State</th>
                  <th>Summary</th>
                  <th>When</th>
                </tr>
              </thead>
              <tbody>
                {d.previews.map((p) => (
                  <tr key={p.pr} data-pr={p.pr}>
                    <td>
                      <a href={paths.preview(namespace, name, p.pr)}>#{p.pr}</a>
                    </td>
                    <td>
                      <code title={p.sha}>{shortSha(p.sha)}</code>
                    </td>
                    <td data-state>{p.state}</td>
                    <td>{p.description}</td>
                    <td>
                      <Ago iso={p.at} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          ) : (
            <p class="muted">No open pull request has been previewed.</p>
          )}
        </>
      )}
    </WhenLoaded>
  );
}

export function PreviewPage({ namespace, name, pr }: { namespace: string; name: string; pr: number }) {
  const loaded = useLive<StoredPreview>(
    `${api(namespace, name)}/${pr}`,
    (c) => c.namespace === namespace && c.kind === 'ConfigMap',
  );
  return (
    <WhenLoaded loaded={loaded} what={`preview #${pr}`}>
      {(d) => (
        <>
          <Crumbs namespace={namespace} name={name} pr={pr} />
          <h1>
            Preview of #{d.pr} at <code title={d.sha}>{shortSha(d.sha)}</code>
          </h1>
          <p data-state>
            <strong>{d.state}</strong>: {d.description} (<Ago iso={d.at} />, {d.headRef})
          </p>
          {d.errors.length ? <pre data-errors>{d.errors.join('\n')}</pre> : null}
          {d.summary.length ? (
            <table data-summary>
              <thead>
                <tr>
                  <th>Change</th>
                  <th>Object</th>
                  <th>Fields</th>
                  <th>Children</th>
                </tr>
              </thead>
              <tbody>
                {d.summary.map((s) => (
                  <tr key={s.object}>
                    <td>{s.change}</td>
                    <td>{s.object}</td>
                    <td>{s.fields.join(', ') || '—'}</td>
                    <td>{s.children?.join(', ') ?? ''}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          ) : null}
          {d.diff ? (
            <details data-diff>
              <summary>Full diff{d.cut ? ' (cut to fit)' : ''}</summary>
              <DiffText diff={d.diff} />
            </details>
          ) : null}
        </>
      )}
    </WhenLoaded>
  );
}

// Flow: its definition as YAML, where it came from, and the objects it watches with their readiness.
import type { FlowDetail } from '../../../src/ui-server/types.ts';
import { ReadyBadge } from '../components/badges.tsx';
import { WhenLoaded } from '../components/loaded.tsx';
import { shortSha } from '../components/time.tsx';
import { useLive } from '../live.ts';
import { paths } from '../router.ts';
import { SourceLink } from './provenance.tsx';

/** The file as committed, numbered like the `file:line` of a rejection (the numbers are not copied with the text). */
function NumberedFile({ text }: { text: string }) {
  const lines = text.replace(/\n$/, '').split('\n');
  return (
    <pre class="yaml numbered" aria-labelledby="definition-h" tabIndex={0} data-file>
      {lines.map((l, i) => <span key={i} class="line" id={`L${i + 1}`}>{l}{'\n'}</span>)}
    </pre>
  );
}

export function FlowPage({ namespace, name }: { namespace: string; name: string }) {
  const loaded = useLive<FlowDetail>(`/ui/api/flows/${encodeURIComponent(namespace)}/${encodeURIComponent(name)}`);
  return (
    <WhenLoaded loaded={loaded} what={`Flow ${namespace}/${name}`}>
      {(d) => (
        <>
          <p class="crumbs"><a href={paths.overview()}>Overview</a> / Flow</p>
          <h1>Flow {d.flow.namespace}/{d.flow.name}</h1>
          <dl class="facts">
            <dt>Watches</dt><dd><code>{d.flow.watched.kind}</code> <span class="muted">{d.flow.watched.apiVersion}{d.flow.watched.namespace ? ` in ${d.flow.watched.namespace}` : ' in every namespace'}</span></dd>
            <dt>Ready</dt><dd><ReadyBadge ready={d.flow.ready} /> <span class="message">{d.flow.ready.message}</span></dd>
            {d.flow.lastError ? <><dt>Last error</dt><dd class="message bad-text">{d.flow.lastError}</dd></> : null}
            {d.provenance?.source ? (
              <>
                <dt>From</dt>
                <dd><SourceLink p={d.provenance} /> {d.provenance.path ? <code>{d.provenance.path}</code> : null}</dd>
              </>
            ) : null}
          </dl>
          <section>
            <h2 id="watched-h">Watched objects</h2>
            {d.objects.length === 0 ? <p class="muted">No {d.flow.watched.kind} objects.</p> : (
              <table aria-labelledby="watched-h">
                <thead><tr><th scope="col">Name</th><th scope="col">Ready</th><th scope="col">Why</th><th scope="col" class="num">Children</th></tr></thead>
                <tbody>
                  {d.objects.map((o) => (
                    <tr key={`${o.key.namespace ?? ''}/${o.key.name}`} data-object={o.key.name}>
                      <td><a data-row href={paths.object(o.key)}>{o.key.namespace ? `${o.key.namespace}/` : ''}{o.key.name}</a></td>
                      <td><ReadyBadge ready={o.ready} /></td>
                      <td class="message">{o.ready.status === 'True' ? '' : o.ready.message}</td>
                      <td class="num">{o.children}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
          </section>
          <section>
            <h2 id="definition-h">Definition{d.file ? <> <code>{d.file.path}</code></> : null}{d.provenance?.commit ? <span class="muted"> at {shortSha(d.provenance.commit)}</span> : null}</h2>
            {d.file ? <NumberedFile text={d.file.text} /> : <pre class="yaml" aria-labelledby="definition-h" tabIndex={0}>{d.yaml}</pre>}
          </section>
        </>
      )}
    </WhenLoaded>
  );
}

// Flow: its definition as YAML, where it came from, and the objects it watches with their readiness.
import { useEffect, useState } from 'preact/hooks';
import { ReadyBadge } from '../components/badges.tsx';
import { ObjectList } from '../components/object-list.tsx';
import { LinkedMessage, linesIn, type LineHref } from '../components/linked.tsx';
import { WhenLoaded } from '../components/loaded.tsx';
import { Ago, shortSha } from '../components/time.tsx';
import { useFlowLive } from '../flow-live.ts';
import { paths } from '../router.ts';
import { RolloutSection } from './flow-rollout.tsx';
import { SourceLink, splitName } from './provenance.tsx';

const lineOfHash = (): number | undefined => {
  const m = /^#L(\d+)$/.exec(location.hash);
  return m ? Number(m[1]) : undefined;
};

/**
 * The file as committed, whole, numbered like the `file:line` of an error (the numbers are not
 * copied with the text); the lines an error names are marked, the line the address names is picked.
 */
function NumberedFile({
  text,
  errorLines,
  picked,
}: {
  text: string;
  errorLines: ReadonlySet<number>;
  picked: number | undefined;
}) {
  const lines = text.replace(/\n$/, '').split('\n');
  useEffect(() => {
    if (picked) document.getElementById(`L${picked}`)?.scrollIntoView({ block: 'center' });
  }, [picked, text]);
  return (
    <pre
      class="yaml numbered"
      role="region"
      aria-labelledby="definition-h"
      tabIndex={0}
      data-file
      data-lines={lines.length}
    >
      {lines.map((l, i) => {
        const n = i + 1;
        const cls = `line${errorLines.has(n) ? ' error-line' : ''}${picked === n ? ' picked' : ''}`;
        return (
          <span key={i} class={cls} id={`L${n}`} data-error-line={errorLines.has(n) ? '' : undefined}>
            {l}
            {'\n'}
          </span>
        );
      })}
    </pre>
  );
}

export function FlowPage({
  namespace,
  name,
  commit,
}: {
  namespace: string;
  name: string;
  commit?: string | undefined;
}) {
  const loaded = useFlowLive(namespace, name, commit);
  const [picked, setPicked] = useState(lineOfHash);
  useEffect(() => {
    const onHash = (): void => setPicked(lineOfHash());
    addEventListener('hashchange', onHash);
    return () => removeEventListener('hashchange', onHash);
  }, []);
  return (
    <WhenLoaded loaded={loaded} what={`Flow ${namespace}/${name}`}>
      {(d) => {
        const path = d.file?.path ?? d.provenance?.path;
        const shownRejected = d.shownCommit !== undefined && d.shownCommit === d.rejected?.commit;
        // A position in this Flow's file links to its line on this page (the version shown).
        const here: LineHref = (p, line) => (path && (p === path || path.endsWith(`/${p}`)) ? `#L${line}` : undefined);
        const inRejected: LineHref = (p, line) =>
          path && (p === path || path.endsWith(`/${p}`)) && d.rejected?.commit
            ? paths.flow(namespace, name, { commit: d.rejected.commit, line })
            : undefined;
        const messages = shownRejected
          ? [d.rejected?.message]
          : [d.flow.lastError, d.flow.ready.message, ...d.objects.map((o) => o.ready.message)];
        const errorLines = new Set(path ? messages.flatMap((m) => linesIn(m, path)) : []);
        const [srcNs, srcName] = d.provenance?.source ? splitName(d.provenance.source) : ['', ''];
        return (
          <>
            <p class="crumbs">
              <a href={paths.overview()}>Overview</a> / Flow
            </p>
            <h1>
              Flow {d.flow.namespace}/{d.flow.name}
            </h1>
            {d.rejected ? (
              <div class="notice bad" role="alert" data-rejected={d.rejected.commit ?? d.rejected.revision}>
                <strong>A newer version was rejected.</strong> Commit{' '}
                {d.rejected.commit ? (
                  <a href={paths.source(srcNs, srcName, d.rejected.commit)} data-rejected-commit>
                    <code>{shortSha(d.rejected.commit)}</code>
                  </a>
                ) : (
                  <code>{d.rejected.revision}</code>
                )}
                {d.rejected.subject ? <> “{d.rejected.subject}”</> : null} changed <code>{path}</code> and was rejected{' '}
                <Ago iso={d.rejected.time} />; this Flow still runs{' '}
                {d.provenance?.commit ? <code>{shortSha(d.provenance.commit)}</code> : 'the older version'}.
                <pre class="message">
                  <LinkedMessage text={d.rejected.message} hrefOf={shownRejected ? here : inRejected} />
                </pre>
                {d.rejected.commit && !shownRejected ? (
                  <a
                    href={paths.flow(namespace, name, {
                      commit: d.rejected.commit,
                      line: linesIn(d.rejected.message, path ?? '')[0] ?? 0,
                    })}
                  >
                    Show the rejected file
                  </a>
                ) : null}
              </div>
            ) : null}
            <dl class="facts">
              <dt>Watches</dt>
              <dd>
                <code>{d.flow.watched.kind}</code>{' '}
                <span class="muted">
                  {d.flow.watched.apiVersion}
                  {d.flow.watched.namespace ? ` in ${d.flow.watched.namespace}` : ' in every namespace'}
                </span>
              </dd>
              <dt>Ready</dt>
              <dd>
                <ReadyBadge ready={d.flow.ready} /> <LinkedMessage text={d.flow.ready.message} hrefOf={here} />
              </dd>
              {d.flow.lastError ? (
                <>
                  <dt>Last error</dt>
                  <dd class="bad-text">
                    <LinkedMessage text={d.flow.lastError} hrefOf={here} />
                  </dd>
                </>
              ) : null}
              {d.provenance?.source ? (
                <>
                  <dt>From</dt>
                  <dd>
                    <SourceLink p={d.provenance} />{' '}
                    {d.provenance.path ? <code class="path">{d.provenance.path}</code> : null}
                  </dd>
                </>
              ) : null}
            </dl>
            {d.rollout ? <RolloutSection namespace={namespace} name={name} view={d.rollout} /> : null}
            <section>
              <h2 id="watched-h">Watched objects</h2>
              <ObjectList objects={d.objects} kind={d.flow.watched.kind} hrefOf={here} />
            </section>
            <section>
              <h2 id="definition-h">
                Definition
                {d.file ? (
                  <>
                    {' '}
                    <code class="path">{d.file.path}</code>
                  </>
                ) : null}
                {d.shownCommit ? (
                  <span class="bad-text">
                    {' '}
                    at {shortSha(d.shownCommit)}
                    {shownRejected ? ' (rejected)' : ''}
                  </span>
                ) : d.provenance?.commit ? (
                  <span class="muted"> at {shortSha(d.provenance.commit)}</span>
                ) : null}
              </h2>
              {d.shownCommit ? (
                <p class="muted">
                  This is the file as commit {shortSha(d.shownCommit)} has it.{' '}
                  <a href={paths.flow(namespace, name)}>The applied version</a>
                </p>
              ) : null}
              {d.file ? (
                <NumberedFile text={d.file.text} errorLines={errorLines} picked={picked} />
              ) : (
                <>
                  {d.provenance?.path ? (
                    <p class="muted" data-file-not-shown>
                      <code class="path">{d.provenance.path}</code> is not shown: it is over 256 KB, or its commit is no
                      longer on this server's disk. The spec as applied is shown instead, without the file's line
                      numbers.
                    </p>
                  ) : null}
                  <pre class="yaml" role="region" aria-labelledby="definition-h" tabIndex={0}>
                    {d.yaml}
                  </pre>
                </>
              )}
            </section>
          </>
        );
      }}
    </WhenLoaded>
  );
}

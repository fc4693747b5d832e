// Overview: every FlowSource and every Flow, health at a glance.
import type { FlowSummary, OperatorSummary, RecentEvent, SourceSummary } from '../../../src/ui-server/types.ts';
import { ReadyBadge, SourceStateBadge } from '../components/badges.tsx';
import { WhenLoaded } from '../components/loaded.tsx';
import { Ago, shortSha } from '../components/time.tsx';
import { useOverviewLive } from '../overview-live.ts';
import { paths } from '../router.ts';

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

/** "all ready" only over what could be read: a refused list may hold what is not ready. */
function readinessSummary(notReady: number, unreadable: number): string {
  const ready =
    notReady === 0 ? (unreadable ? 'none not ready among what could be read' : 'all ready') : `${notReady} not ready`;
  return unreadable ? `${ready}; ${plural(unreadable, 'kind')} could not be read` : ready;
}
const shaOf = (revision: string | undefined): string | undefined =>
  revision ? /sha1:([0-9a-f]{40})$/.exec(revision)?.[1] : undefined;

function SourcesTable({ sources, unreadable }: { sources: SourceSummary[]; unreadable: boolean }) {
  if (sources.length === 0 && unreadable)
    return (
      <p class="muted" data-unreadable>
        FlowSources could not be read (see above).
      </p>
    );
  if (sources.length === 0)
    return (
      <p class="muted">
        No FlowSources. Apply one, or run <code>flowops up</code>, which follows its built-in repository.
      </p>
    );
  return (
    <table class="cards" aria-labelledby="sources-h">
      <thead>
        <tr>
          <th scope="col">Name</th>
          <th scope="col">URL</th>
          <th scope="col">Ref</th>
          <th scope="col">Applied revision</th>
          <th scope="col">Ready</th>
          <th scope="col">Last error</th>
        </tr>
      </thead>
      <tbody>
        {sources.map((s) => {
          const sha = shaOf(s.appliedRevision);
          return (
            <tr key={`${s.namespace}/${s.name}`} data-source={s.name}>
              <td data-label="Name">
                <a data-row href={paths.source(s.namespace, s.name)}>
                  {s.namespace}/{s.name}
                </a>
              </td>
              <td data-label="URL" class="url">
                <code>{s.url}</code>
              </td>
              <td data-label="Ref">
                {s.pinned ? null : s.ref} <SourceStateBadge state={s} />
              </td>
              <td data-label="Applied revision">
                {sha ? (
                  <a href={paths.source(s.namespace, s.name, sha)}>
                    <code>{shortSha(sha)}</code>
                  </a>
                ) : (
                  <span class="muted">none yet</span>
                )}
              </td>
              <td data-label="Ready">
                <ReadyBadge ready={s.ready} />
              </td>
              <td data-label="Last error" class="message">
                {s.lastError ?? ''}
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

function FlowsTable({ flows, unreadable }: { flows: FlowSummary[]; unreadable: boolean }) {
  if (flows.length === 0 && unreadable)
    return (
      <p class="muted" data-unreadable>
        Flows could not be read (see above).
      </p>
    );
  if (flows.length === 0) return <p class="muted">No Flows yet.</p>;
  return (
    <table class="cards" aria-labelledby="flows-h">
      <thead>
        <tr>
          <th scope="col">Name</th>
          <th scope="col">Watches</th>
          <th scope="col">Ready</th>
          <th scope="col" class="num">
            Objects
          </th>
          <th scope="col" class="num">
            Ready
          </th>
          <th scope="col" class="num">
            Not ready
          </th>
          <th scope="col" class="num">
            Failed
          </th>
          <th scope="col">Last error</th>
        </tr>
      </thead>
      <tbody>
        {flows.map((f) => (
          <tr key={`${f.namespace}/${f.name}`} data-flow={f.name}>
            <td data-label="Name">
              <a data-row href={paths.flow(f.namespace, f.name)}>
                {f.namespace}/{f.name}
              </a>
            </td>
            <td data-label="Watches">
              <code>{f.watched.kind}</code> <span class="muted">{f.watched.apiVersion}</span>
            </td>
            <td data-label="Ready">
              <ReadyBadge ready={f.ready} />
              {f.suspended ? <span class="badge unknown"> suspended</span> : null}
            </td>
            <td data-label="Objects" class="num">
              {f.counts.watched}
            </td>
            <td data-label="Ready objects" class="num">
              {f.counts.ready}
            </td>
            <td data-label="Not ready" class="num">
              {f.counts.notReady}
            </td>
            <td data-label="Failed" class="num">
              {f.counts.failed}
            </td>
            <td data-label="Last error" class="message">
              {f.lastError ?? ''}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function OperatorsTable({ operators, unreadable }: { operators: OperatorSummary[]; unreadable: boolean }) {
  if (operators.length === 0 && unreadable)
    return (
      <p class="muted" data-unreadable>
        Operators could not be read (see above).
      </p>
    );
  if (operators.length === 0) return <p class="muted">No Δ-controller Operators.</p>;
  return (
    <table class="cards" aria-labelledby="operators-h">
      <thead>
        <tr>
          <th scope="col">Name</th>
          <th scope="col" class="num">
            Controllers
          </th>
          <th scope="col" class="num">
            Ready
          </th>
        </tr>
      </thead>
      <tbody>
        {operators.map((o) => (
          <tr key={o.name} data-operator={o.name}>
            <td data-label="Name">
              <a data-row href={paths.operator(o.name)}>
                {o.name}
              </a>
            </td>
            <td data-label="Controllers" class="num">
              {o.controllers}
            </td>
            <td data-label="Ready" class="num">
              {o.ready}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function RecentTable({ recent, unreadable }: { recent: RecentEvent[]; unreadable: boolean }) {
  if (recent.length === 0 && unreadable)
    return (
      <p class="muted" data-unreadable>
        Events could not be read (see above).
      </p>
    );
  if (recent.length === 0) return <p class="muted">No Events yet.</p>;
  return (
    <table aria-labelledby="recent-h" class="events cards">
      <thead>
        <tr>
          <th scope="col">When</th>
          <th scope="col">Object</th>
          <th scope="col">Type</th>
          <th scope="col">Reason</th>
          <th scope="col">Message</th>
        </tr>
      </thead>
      <tbody>
        {recent.map((e, i) => (
          <tr key={e.id ?? i} data-event={e.id} class={e.type === 'Warning' ? 'warning-row' : undefined}>
            <td data-label="When" class="nowrap">
              <Ago iso={e.lastSeen} />
            </td>
            <td data-label="Object">
              <a data-row href={paths.best(e.object)}>
                {e.object.kind} {e.object.namespace ? `${e.object.namespace}/` : ''}
                {e.object.name}
              </a>
            </td>
            <td data-label="Type">{e.type}</td>
            <td data-label="Reason">{e.reason}</td>
            <td data-label="Message" class="message">
              {e.message}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function OverviewPage() {
  // Kept live by the rows that change (overview-live.ts), not by reading it all on every change.
  const loaded = useOverviewLive();
  return (
    <WhenLoaded loaded={loaded} what="the overview">
      {(o) => {
        const notReady = [...o.sources, ...o.flows].filter((x) => x.ready.status !== 'True').length;
        const refused = (resource: string): boolean =>
          (o.forbidden ?? []).some((m) => m.startsWith(`${resource} is forbidden`));
        return (
          <>
            <h1>Overview</h1>
            {o.forbidden?.map((m) => (
              <p class="notice bad" role="alert">
                {m}
              </p>
            ))}
            {o.scoped?.length ? (
              <p class="notice" role="status" data-scoped>
                Listed namespace by namespace, as your access allows: {o.scoped.join('; ')}.
              </p>
            ) : null}
            <p class="summary" role="status" data-summary>
              {plural(o.sources.length, 'source')}, {plural(o.flows.length, 'Flow')} ·{' '}
              {readinessSummary(notReady, o.forbidden?.length ?? 0)}
            </p>
            <section>
              <h2 id="sources-h">Sources</h2>
              <SourcesTable sources={o.sources} unreadable={refused('flowsources.flowops.io')} />
            </section>
            <section>
              <h2 id="flows-h">Flows</h2>
              <FlowsTable flows={o.flows} unreadable={refused('flows.flowops.io')} />
            </section>
            <section>
              <h2 id="operators-h">Operators</h2>
              <OperatorsTable operators={o.operators} unreadable={refused('operators.dcontroller.io')} />
            </section>
            <section>
              <h2 id="recent-h">Recent changes</h2>
              <RecentTable recent={o.recent} unreadable={refused('events')} />
            </section>
          </>
        );
      }}
    </WhenLoaded>
  );
}

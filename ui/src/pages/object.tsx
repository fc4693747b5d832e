// Object: the object and its children (from its flowops.io/inventory) with their health, its
// conditions and Events, and the annotations that lead back to the Flow and the commit.
import { Fragment } from 'preact';
import { LinkedMessage, type LineHref } from '../components/linked.tsx';
import type { ChildNode, ObjectDetail, ObjectKey } from '../../../src/ui-server/types.ts';
import type { RunTrigger } from '../../../src/api/run-history.ts';
import { HealthBadge, ReadyBadge } from '../components/badges.tsx';
import { WhenLoaded } from '../components/loaded.tsx';
import { Ago } from '../components/time.tsx';
import { ChildGraph, graphSize } from '../components/child-graph.tsx';

/** From this many children (all depths) the graph is drawn above the list. */
const GRAPH_FROM = 3;
import { useLive } from '../live.ts';
import { paths } from '../router.ts';
import { FlowLink, RevisionLink, SourceLink, splitName } from './provenance.tsx';

const apiUrl = (k: ObjectKey): string =>
  `/ui/api/object?${new URLSearchParams({ apiVersion: k.apiVersion, kind: k.kind, name: k.name, ...(k.namespace ? { namespace: k.namespace } : {}) })}`;

/** A `flow.yaml:34:49` in a failure opens that line on the page of the Flow that ran. */
const flowLineOf =
  (flow: string | undefined): LineHref =>
  (_path, line) => {
    if (!flow) return undefined;
    const [ns, name] = splitName(flow);
    return paths.flow(ns, name, { line });
  };

function ChildItem({ child }: { child: ChildNode }) {
  return (
    <li
      role="treeitem"
      tabIndex={-1}
      aria-selected={false}
      aria-expanded={child.children.length > 0 ? true : undefined}
      data-child={`${child.key.kind}/${child.key.name}`}
      data-health={child.health}
    >
      <span class="child">
        <span class={`dot ${child.health}`} aria-hidden="true" />
        <code class="kind">{child.key.kind}</code>
        {child.health === 'Missing' ? (
          <span>{child.key.name}</span>
        ) : (
          <a data-row href={paths.best(child.key)}>
            {child.key.name}
          </a>
        )}
        <HealthBadge status={child.health} />
        {child.message ? <span class="message">{child.message}</span> : null}
      </span>
      {child.children.length > 0 ? <ChildList children={child.children} /> : null}
    </li>
  );
}

function ChildList({ children }: { children: ChildNode[] }) {
  return (
    <ul role="group">
      {children.map((c) => (
        <ChildItem key={`${c.key.kind}/${c.key.namespace ?? ''}/${c.key.name}`} child={c} />
      ))}
    </ul>
  );
}

function Tree({ d }: { d: ObjectDetail }) {
  return (
    <ul class="tree" role="tree" aria-labelledby="tree-h">
      <li role="treeitem" tabIndex={-1} aria-expanded={true} aria-selected={true}>
        <span class="child">
          <span class={`dot ${d.health.status}`} aria-hidden="true" />
          <code class="kind">{d.key.kind}</code> <strong>{d.key.name}</strong> <HealthBadge status={d.health.status} />
        </span>
        {d.children.length === 0 ? (
          <p class="muted">No children: nothing in its inventory, and nothing it owns.</p>
        ) : (
          <ChildList children={d.children} />
        )}
      </li>
    </ul>
  );
}

export function ObjectPage({ objectKey }: { objectKey: ObjectKey }) {
  const loaded = useLive<ObjectDetail>(apiUrl(objectKey));
  const title = `${objectKey.kind} ${objectKey.namespace ? `${objectKey.namespace}/` : ''}${objectKey.name}`;
  return (
    <WhenLoaded loaded={loaded} what={title}>
      {(d) => (
        <>
          <p class="crumbs">
            <a href={paths.overview()}>Overview</a>
            {(d.provenance.flow ? [d.provenance.flow] : d.watchedBy).map((f) => (
              <Fragment key={f}>
                {' '}
                / <FlowLink flow={f} />
              </Fragment>
            ))}{' '}
            / Object
          </p>
          <h1>{title}</h1>
          {d.failure ? (
            <div class="notice bad" role="alert" data-failure-step={d.failure.step}>
              <strong>Reconcile failing at step “{d.failure.step}”</strong> ({d.failure.reason})
              {d.failure.terminal
                ? ': stalled, not retried until the object or the Flow changes.'
                : ': retrying with backoff.'}
              {d.failure.message ? (
                <pre class="message">
                  <LinkedMessage text={d.failure.message} hrefOf={flowLineOf(d.lastRun?.flow ?? d.watchedBy[0])} />
                </pre>
              ) : null}
            </div>
          ) : null}
          <dl class="facts">
            <dt>API version</dt>
            <dd>
              <code>{d.key.apiVersion}</code>
            </dd>
            <dt>Health</dt>
            <dd>
              <HealthBadge status={d.health.status} /> <span class="message">{d.health.message}</span>
            </dd>
            {d.ready ? (
              <>
                <dt>Ready</dt>
                <dd>
                  <ReadyBadge ready={d.ready} />{' '}
                  <span class="message" data-ready-message>
                    {d.ready.message}
                  </span>
                </dd>
              </>
            ) : null}
            <dt>Created</dt>
            <dd>
              <Ago iso={d.createdAt} />
            </dd>
            {d.owner ? (
              <>
                <dt>Owner</dt>
                <dd>
                  <a href={paths.best(d.owner)}>
                    {d.owner.kind} {d.owner.name}
                  </a>
                </dd>
              </>
            ) : null}
            {d.watchedBy.length > 0 ? (
              <>
                <dt>Watched by</dt>
                <dd>
                  {d.watchedBy.map((f, i) => (
                    <Fragment key={f}>
                      {i > 0 ? ', ' : ''}
                      <FlowLink flow={f} />
                    </Fragment>
                  ))}
                </dd>
              </>
            ) : null}
            {d.provenance.flow ? (
              <>
                <dt>Made by</dt>
                <dd>
                  <FlowLink flow={d.provenance.flow} />
                  {d.provenance.owner ? <span class="muted"> for {d.provenance.owner}</span> : null}
                </dd>
              </>
            ) : null}
            {d.provenance.source ? (
              <>
                <dt>From</dt>
                <dd>
                  <SourceLink p={d.provenance} /> {d.provenance.path ? <code>{d.provenance.path}</code> : null}
                </dd>
              </>
            ) : null}
          </dl>
          <section>
            <h2 id="tree-h">Children</h2>
            {graphSize(d.children) >= GRAPH_FROM ? (
              <ChildGraph root={{ key: d.key, health: d.health.status }} children={d.children} />
            ) : null}
            <Tree d={d} />
          </section>
          {d.lastRun ? <LastRunSection d={d} /> : null}
          <section>
            <h2 id="conditions-h">Conditions</h2>
            {d.conditions.length === 0 ? (
              <p class="muted">None.</p>
            ) : (
              <table aria-labelledby="conditions-h" class="cards">
                <thead>
                  <tr>
                    <th scope="col">Type</th>
                    <th scope="col">Status</th>
                    <th scope="col">Reason</th>
                    <th scope="col">Message</th>
                    <th scope="col">Since</th>
                  </tr>
                </thead>
                <tbody>
                  {d.conditions.map((c) => (
                    <tr key={c.type}>
                      <td data-label="Type">{c.type}</td>
                      <td data-label="Status">{c.status}</td>
                      <td data-label="Reason">{c.reason}</td>
                      <td data-label="Message" class="message">
                        {c.message}
                      </td>
                      <td data-label="Since">
                        <Ago iso={c.since} />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
          </section>
          <section>
            <h2 id="events-h">Events</h2>
            {d.events.length === 0 ? (
              <p class="muted">No Events.</p>
            ) : (
              <table aria-labelledby="events-h" class="events cards">
                <thead>
                  <tr>
                    <th scope="col">Type</th>
                    <th scope="col">Reason</th>
                    <th scope="col">Message</th>
                    <th scope="col" class="num">
                      Count
                    </th>
                    <th scope="col">Last seen</th>
                  </tr>
                </thead>
                <tbody>
                  {d.events.map((e, i) => (
                    <tr key={i} class={e.type === 'Warning' ? 'warning' : undefined}>
                      <td data-label="Type">{e.type}</td>
                      <td data-label="Reason">{e.reason}</td>
                      <td data-label="Message" class="message">
                        {e.message}
                      </td>
                      <td data-label="Count" class="num">
                        {e.count}
                      </td>
                      <td data-label="Last seen">
                        <Ago iso={e.lastSeen} />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
          </section>
          <details>
            <summary>YAML</summary>
            <pre class="yaml" tabIndex={0}>
              {d.yaml}
            </pre>
          </details>
        </>
      )}
    </WhenLoaded>
  );
}

const TRIGGER_TEXT: Record<RunTrigger, string> = {
  'object-change': 'the object changed',
  'child-drift': 'a child drifted',
  'child-status': "a child's status changed",
  'child-deleted': 'a child was deleted',
  'flow-change': 'the Flow changed',
  resync: 'a resync or retry',
  manual: 'flowops reconcile',
};

/** Why a run ran, in words; the trigger names stay in data-triggers for scripts and tests. */
function Triggers({ triggers }: { triggers: RunTrigger[] | undefined }) {
  if (!triggers?.length) return <span class="muted">—</span>;
  return <span data-triggers={triggers.join(' ')}>{triggers.map((t) => TRIGGER_TEXT[t] ?? t).join(', ')}</span>;
}

const commitOf = (revision: string | undefined): string | undefined => /sha1:([0-9a-f]{40})$/.exec(revision ?? '')?.[1];

/**
 * The last run's revision is the commit of the Flow that ran; the object's “From” is the commit the
 * object itself was applied from. When they differ the page says which is which, and why it can be.
 */
function RevisionNote({ d }: { d: ObjectDetail }) {
  const run = d.lastRun;
  const ran = commitOf(run?.revision);
  const from = d.provenance.commit;
  if (!run || !ran || !from || ran === from) return null;
  const flowNow = d.runFlow;
  const short = (c: string) => <code>{c.slice(0, 10)}</code>;
  const why =
    flowNow && flowNow.generation > run.flowGeneration ? (
      <>
        The Flow has changed since: it is at generation {flowNow.generation}
        {flowNow.commit ? <> (commit {short(flowNow.commit)})</> : null}, and this object has not run under it yet, or a
        rollout holds it at generation {run.flowGeneration}.
      </>
    ) : flowNow?.commit === ran ? (
      <>The Flow has not changed since that commit; the object was applied again by a later one.</>
    ) : (
      <>The two files were applied by different commits of their sources.</>
    );
  return (
    <p class="muted" data-revision-note>
      This run used {run.flow} as of commit {short(ran)}; “From” above is the commit this object was applied from (
      {short(from)}). {why}
    </p>
  );
}

/** The last run (its record on the object), timed by the RunHistory's newest entry when they agree, then the earlier runs. */
function LastRunSection({ d }: { d: ObjectDetail }) {
  const run = d.lastRun!;
  const newest = d.runs[0];
  const timed =
    newest && newest.outcome === run.outcome && newest.flowGeneration === run.flowGeneration ? newest : undefined;
  const earlier = d.runs.slice(timed ? 1 : 0);
  // A run's revision is its Flow's commit: it links into the Flow's source (the object's may be another).
  const runSource = d.runFlow?.source ?? d.provenance.source;
  const commitPages = d.commitPages === true;
  return (
    <section>
      <h2 id="last-run-h">Last run</h2>
      <p class="summary" data-last-run={run.outcome}>
        {run.outcome}
        {timed ? (
          <>
            {' '}
            in {timed.duration}, <Ago iso={timed.startTime} />
          </>
        ) : null}
        {timed?.triggers ? (
          <>
            {' '}
            · ran because <Triggers triggers={timed.triggers} />
          </>
        ) : null}{' '}
        · Flow {run.flow} (generation {run.flowGeneration})
        {run.revision ? (
          <>
            {' '}
            · <RevisionLink revision={run.revision} source={runSource} commitPages={commitPages} />
          </>
        ) : null}
      </p>
      <RevisionNote d={d} />
      <table aria-labelledby="last-run-h">
        <thead>
          <tr>
            <th scope="col">Step</th>
            <th scope="col">Result</th>
            <th scope="col">Attempts</th>
            <th scope="col">Duration</th>
          </tr>
        </thead>
        <tbody>
          {run.steps.map((s) => (
            <tr key={s.name}>
              <td>{s.name}</td>
              <td>{s.result}</td>
              <td>{s.attempts}</td>
              <td>{s.result === 'skipped' ? '' : (timed?.steps.find((t) => t.name === s.name)?.duration ?? '')}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {run.error ? (
        <pre class="message">
          {run.error.step}: {run.error.reason}: {run.error.message}
        </pre>
      ) : null}
      {earlier.length ? (
        <>
          <h3 id="earlier-runs-h">Earlier runs</h3>
          <table aria-labelledby="earlier-runs-h" data-earlier-runs={earlier.length} class="cards">
            <thead>
              <tr>
                <th scope="col">Started</th>
                <th scope="col">Outcome</th>
                <th scope="col">Duration</th>
                <th scope="col">Why</th>
                <th scope="col">Revision</th>
                <th scope="col">Error</th>
              </tr>
            </thead>
            <tbody>
              {earlier.map((r) => (
                <tr key={r.startTime}>
                  <td data-label="Started">
                    <Ago iso={r.startTime} />
                  </td>
                  <td data-label="Outcome">{r.outcome}</td>
                  <td data-label="Duration">{r.duration}</td>
                  <td data-label="Why">
                    <Triggers triggers={r.triggers} />
                  </td>
                  <td data-label="Revision">
                    <RevisionLink revision={r.revision} source={runSource} commitPages={commitPages} />
                  </td>
                  <td data-label="Error" class="message">
                    {r.error ? `${r.error.step}: ${r.error.reason}: ${r.error.message}` : ''}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      ) : null}
    </section>
  );
}

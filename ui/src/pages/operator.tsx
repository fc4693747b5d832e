// Operator: each controller's pipeline as a graph, sources → stages → target, with its Ready
// condition and last errors. Views (an Operator's in-memory kinds) are drawn dashed.
import type { GraphResource, OperatorController, OperatorDetail } from '../../../src/ui-server/types.ts';
import { ReadyBadge } from '../components/badges.tsx';
import { WhenLoaded } from '../components/loaded.tsx';
import { useLive } from '../live.ts';
import { paths } from '../router.ts';
import { SourceLink } from './provenance.tsx';

function Node({ r, side }: { r: GraphResource; side: 'source' | 'target' }) {
  return (
    <div class={`node ${r.view ? 'view' : 'stored'}`} data-node={`${side}:${r.kind}`}>
      <strong>{r.kind}</strong>
      <span class="muted">
        {r.view ? 'view' : r.group}
        {r.namespace ? ` · ${r.namespace}` : ''}
      </span>
      {r.type ? <span class="badge unknown">{r.type}</span> : null}
    </div>
  );
}

function ControllerGraph({ c }: { c: OperatorController }) {
  const describe = `${c.sources.map((s) => s.kind).join(', ') || 'no sources'} through ${c.stages.join(', ') || 'no stages'} into ${c.target?.kind ?? 'no target'}`;
  return (
    <section class="controller" data-controller={c.name} aria-label={`Controller ${c.name}: ${describe}`}>
      <h2>
        {c.name} <ReadyBadge ready={c.ready} />
      </h2>
      <div class="graph" role="img" aria-label={describe}>
        <div class="column">
          {c.sources.map((s, i) => (
            <Node key={i} r={s} side="source" />
          ))}
        </div>
        <div class="arrow" aria-hidden="true">
          →
        </div>
        <div class="column">
          <div class="node pipeline">
            <strong>pipeline</strong>
            <span class="stages">
              {c.stages.length ? c.stages.map((s) => <code key={s}>{s}</code>) : <span class="muted">none</span>}
            </span>
          </div>
        </div>
        <div class="arrow" aria-hidden="true">
          →
        </div>
        <div class="column">
          {c.target ? <Node r={c.target} side="target" /> : <span class="muted">no target</span>}
        </div>
      </div>
      {c.ready.status !== 'True' && c.ready.message ? <p class="message">{c.ready.message}</p> : null}
      {c.lastErrors.length ? (
        <ul class="errors" aria-label="Last errors">
          {c.lastErrors.map((e, i) => (
            <li key={i} class="message bad-text">
              {e}
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}

export function OperatorPage({ name }: { name: string }) {
  const loaded = useLive<OperatorDetail>(`/ui/api/operators/${encodeURIComponent(name)}`);
  return (
    <WhenLoaded loaded={loaded} what={`Operator ${name}`}>
      {(d) => (
        <>
          <p class="crumbs">
            <a href={paths.overview()}>Overview</a> / Operator
          </p>
          <h1>Operator {d.name}</h1>
          {d.provenance?.source ? (
            <dl class="facts">
              <dt>From</dt>
              <dd>
                <SourceLink p={d.provenance} />{' '}
                {d.provenance.path ? <code class="path">{d.provenance.path}</code> : null}
              </dd>
            </dl>
          ) : (
            <p class="muted" data-no-source>
              Not applied from a FlowSource (applied by hand or by another tool).
            </p>
          )}
          {d.controllers.map((c) => (
            <ControllerGraph key={c.name} c={c} />
          ))}
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

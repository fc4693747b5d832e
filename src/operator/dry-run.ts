import { compilePipeline, type SourceFilter } from '../pipeline/index.js';
import type { OperatorDoc } from './load.js';
import { resolveResource } from './resolve.js';
import {
  checkController,
  controllersOf,
  isViewGroup,
  sourceType,
  type ResourceSpec,
  type ControllerSpec,
  type ResolvedResource,
} from './types.js';

export interface DryRunResult {
  operator: string;
  controller: string;
  target: ResolvedResource & { type: 'Updater' | 'Patcher' };
  /** What the target would hold after the inputs (absent when the controller failed). */
  outputs?: Array<Record<string, unknown>>;
  error?: string;
}

/** Offline there is no discovery: a named group without a version is taken as v1. */
function offline<T extends ResourceSpec>(r: T): T {
  return r.apiGroup && !isViewGroup(r.apiGroup) && !r.version ? { ...r, version: 'v1' } : r;
}

const groupOf = (apiVersion: unknown): string =>
  typeof apiVersion === 'string' && apiVersion.includes('/') ? apiVersion.slice(0, apiVersion.lastIndexOf('/')) : '';

/**
 * Runs every controller of the Operators over a set of objects without a cluster: what
 * `flowops pipeline eval` prints. Controllers run in dependency order, so one that reads a view
 * sees what the controller writing that view produced (Updater targets only: a Patcher needs a
 * live object to patch). Versions are not resolved offline: a source matches by group and kind.
 */
export async function dryRun(
  operators: OperatorDoc[],
  inputs: Array<Record<string, unknown>>,
): Promise<DryRunResult[]> {
  type Planned = {
    operator: string;
    spec?: ControllerSpec;
    raw: Record<string, unknown>;
    sources: ResolvedResource[];
    target?: ResolvedResource;
    error?: string;
  };
  const planned: Planned[] = [];
  for (const op of operators) {
    for (const raw of controllersOf(op.spec)) {
      try {
        const spec = checkController(raw);
        const sources = await Promise.all(
          spec.sources.map((s) => resolveResource(undefined, op.metadata.name, offline(s))),
        );
        const target = await resolveResource(undefined, op.metadata.name, offline(spec.target));
        planned.push({ operator: op.metadata.name, spec, raw, sources, target });
      } catch (err) {
        planned.push({ operator: op.metadata.name, raw, sources: [], error: (err as Error).message });
      }
    }
  }
  const pool = [...inputs];
  const results: DryRunResult[] = [];
  const done = new Set<Planned>();
  // Dependency order: a controller runs once no pending controller writes a view it reads.
  while (done.size < planned.length) {
    const pending = planned.filter((p) => !done.has(p));
    const ready =
      pending.find(
        (p) =>
          !p.sources.some(
            (s) =>
              s.isView &&
              pending.some(
                (q) => q !== p && q.target?.isView && q.target.group === s.group && q.target.kind === s.kind,
              ),
          ),
      ) ?? pending[0]!;
    done.add(ready);
    results.push(runOne(ready, pool));
  }
  return results;

  function runOne(p: Planned, objects: Array<Record<string, unknown>>): DryRunResult {
    const name = typeof p.raw.name === 'string' ? p.raw.name : '';
    const type = p.spec?.target.type ?? 'Updater';
    const base = {
      operator: p.operator,
      controller: name,
      target: { ...(p.target ?? { apiVersion: '', group: '', kind: '', isView: false }), type },
    };
    if (p.error || !p.spec || !p.target) return { ...base, error: p.error ?? 'invalid controller' };
    try {
      const inputSources = p.spec.sources
        .map((s, i) => ({ s, r: p.sources[i]! }))
        .filter((x) => sourceType(x.s) !== 'Periodic');
      const filters: Record<string, SourceFilter> = {};
      for (const { s, r } of inputSources) if (s.labelSelector) filters[r.kind] = { labelSelector: s.labelSelector };
      const pipeline = compilePipeline(p.spec.pipeline, {
        sources: inputSources.map((x) => x.r.kind),
        target: { apiVersion: p.target.apiVersion, kind: p.target.kind },
        filters,
      });
      const events = objects
        .filter((o) =>
          inputSources.some(({ s, r }) => {
            const meta = (o.metadata ?? {}) as { namespace?: string };
            return (
              o.kind === r.kind && groupOf(o.apiVersion) === r.group && (!s.namespace || meta.namespace === s.namespace)
            );
          }),
        )
        .map((object) => ({ type: 'Added' as const, object }));
      for (const { s, r } of inputSources) {
        if (sourceType(s) === 'OneShot')
          events.push({
            type: 'Added',
            object: { apiVersion: r.apiVersion, kind: r.kind, metadata: { name: 'one-shot-trigger' } },
          });
      }
      pipeline.processBatch(events);
      const outputs = pipeline.outputs();
      if (p.target.isView && type === 'Updater') objects.push(...outputs);
      return { ...base, outputs };
    } catch (err) {
      return { ...base, error: (err as Error).message };
    }
  }
}

// What `flowops rollout status` says about a Flow's rollout: one line of progress (for --watch),
// the tables of stages, generations and failed objects (for one shot), and whether the rollout
// has ended and how. Read from the Flow alone, as the engine writes it (docs/rollout.md).

import type { GenerationStatus, RolloutStatus } from '../../api/index.js';
import { ROLLOUT_PAUSED_ANNOTATION } from '../../api/rollout-controls.js';
import type { KubeObject } from '../../kube/index.js';
import { renderTable } from '../history-command.js';

export interface FlowRollout {
  label: string;
  /** metadata.generation: what the rollout must have reached before its state counts. */
  generation: number;
  hasSpec: boolean;
  pausedByAnnotation: boolean;
  rollout: RolloutStatus | undefined;
  generations: GenerationStatus[];
}

export function flowRollout(flow: KubeObject): FlowRollout {
  const status = (flow.status ?? {}) as { rollout?: RolloutStatus; generations?: GenerationStatus[] };
  const spec = (flow.spec ?? {}) as { rollout?: unknown };
  return {
    label: `Flow ${flow.metadata.namespace ?? 'default'}/${flow.metadata.name ?? ''}`,
    generation: flow.metadata.generation ?? 0,
    hasSpec: spec.rollout !== undefined && spec.rollout !== null,
    pausedByAnnotation: flow.metadata.annotations?.[ROLLOUT_PAUSED_ANNOTATION] === 'true',
    rollout: status.rollout,
    generations: status.generations ?? [],
  };
}

export type Verdict = { ended: false } | { ended: true; ok: boolean; text: string };

/** Ended: Complete (ok), or Halted, RolledBack, Aborted with the reason; only for the Flow's newest generation. */
export function verdictOf(f: FlowRollout): Verdict {
  const r = f.rollout;
  if (!f.hasSpec && !r)
    return {
      ended: true,
      ok: true,
      text: `${f.label} has no spec.rollout: every change reaches all its objects at once\n`,
    };
  if (!r?.state || (r.generation ?? 0) < f.generation) return { ended: false };
  const gen = `generation ${r.generation ?? '?'}`;
  if (r.state === 'Complete') return { ended: true, ok: true, text: `${f.label}: ${gen} successfully rolled out\n` };
  if (r.state === 'Halted' || r.state === 'RolledBack' || r.state === 'Aborted') {
    const failed = (r.failed ?? []).map((o) => `  ${o.object}: ${o.reason ?? 'no reason given'}\n`).join('');
    return {
      ended: true,
      ok: false,
      text: `${f.label}: rollout of ${gen} ${r.state}${r.message ? `: ${r.message}` : ''}\n${failed}`,
    };
  }
  return { ended: false };
}

/** One progress line, as `kubectl rollout status` prints while it waits. */
export function progressLine(f: FlowRollout): string {
  const r = f.rollout;
  if (!r?.state) return `Waiting for the rollout of ${f.label} to start...\n`;
  if ((r.generation ?? 0) < f.generation)
    return (
      `Waiting for the rollout of ${f.label} generation ${f.generation} to start ` +
      `(status is of generation ${r.generation ?? '?'})...\n`
    );
  const stages = r.stages?.length ?? 0;
  const where =
    r.currentStage !== undefined ? `stage ${r.currentStage + 1}${stages ? ` of ${stages}` : ''}` : 'no stage';
  const paused = f.pausedByAnnotation ? ' (paused: flowops rollout resume)' : '';
  // The engine's message names the stage itself; without one, say which.
  const progress = r.message ? `${r.state}: ${r.message}` : `${r.state}, ${where}`;
  return `Waiting for the rollout of ${f.label} generation ${r.generation ?? '?'} to finish: ${progress}${paused}...\n`;
}

const n = (v: number | undefined): string => (v === undefined ? '-' : String(v));

/**
 * The whole picture for one shot: state, stages, generations (`revisions`: the ControllerRevisions
 * that exist), failed objects.
 */
export function describeRollout(f: FlowRollout, revisions: ReadonlySet<string>): string {
  const r = f.rollout;
  const out: string[] = [];
  if (!r) {
    out.push(
      f.hasSpec
        ? `${f.label}: no rollout yet (spec.rollout is set; none has started)\n`
        : `${f.label} has no spec.rollout: every change reaches all its objects at once\n`,
    );
  } else {
    const from = r.fromGeneration !== undefined ? ` from generation ${r.fromGeneration}` : '';
    out.push(
      `${f.label}: rollout of generation ${n(r.generation)}${from}: ${r.state ?? 'Unknown'}` +
        `${f.pausedByAnnotation ? ' (paused by annotation)' : ''}\n`,
    );
    if (r.message) out.push(`  ${r.message}\n`);
    if (r.stages?.length) {
      const rows = r.stages.map((s) => [
        String(s.index + 1),
        n(s.target),
        n(s.updated),
        n(s.ready),
        s.state ?? 'Pending',
        s.index === r.currentStage ? '*' : '',
      ]);
      out.push('\n', renderTable([['STAGE', 'TARGET', 'UPDATED', 'READY', 'STATE', 'CURRENT'], ...rows]));
    }
  }
  if (f.generations.length) {
    // A generation whose ControllerRevision is gone cannot be re-rendered: its objects stall (docs/rollout.md).
    const revision = (name: string | undefined): string =>
      name === undefined ? '-' : revisions.has(name) ? name : `${name} (missing)`;
    const rows = f.generations.map((g) => [String(g.generation), revision(g.revision), n(g.objects), n(g.ready)]);
    out.push('\n', renderTable([['GENERATION', 'REVISION', 'OBJECTS', 'READY'], ...rows]));
  }
  if (r?.failed?.length) {
    out.push('\n', renderTable([['FAILED OBJECT', 'REASON'], ...r.failed.map((o) => [o.object, o.reason ?? ''])]));
  }
  return out.join('');
}

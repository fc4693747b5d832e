// One step of a rollout, decided from what the cluster says now (level-triggered, so a restarted
// leader continues from the Flow's status and the objects' annotations): which objects move to
// which generation, the new status, and the Events to record. No I/O here.

import { parseDuration } from '../api/duration.js';
import { matchesLabels, parseLabelSelector } from '../apiserver/selectors/index.js';
import { onGeneration, readyOn, type ObjectFacts } from './objects.js';
import type { RolloutSpec, RolloutStage, RolloutStatus, StageStatus } from '../api/index.js';

export interface PlanInput {
  spec: RolloutSpec;
  /** The Flow's newest generation. */
  generation: number;
  previous: RolloutStatus | undefined;
  /** The watched objects, sorted by namespace/name. */
  objects: ObjectFacts[];
  annotations: Record<string, string>;
  now: Date;
  /**
   * The earlier generation whose spec the newest one repeats, when the controller found one: a
   * rollback's pinned commit applied again. It goes to every object at once, as a Deployment's
   * rollback reuses its old ReplicaSet: that spec already ran everywhere before the change.
   */
  sameSpecAs?: number;
}

export interface RolloutEvent {
  type: 'Normal' | 'Warning';
  reason: string;
  message: string;
}

export interface Move {
  object: ObjectFacts;
  to: number;
}

export interface PlanOutput {
  status: RolloutStatus;
  moves: Move[];
  events: RolloutEvent[];
  /** The rollout failed with onFailure: rollback (pin the Flow's source to the commit of this generation). */
  rolledBackTo?: number;
}

const DEFAULT_DEADLINE = '10m';
/** status.rollout.failed[].object of a stage that failed as a whole, not through one of its objects. */
export const NO_OBJECT = '-';
const MAX_FAILED = 20;

export function plan(input: PlanInput): PlanOutput {
  const out: PlanOutput = { status: begin(input), moves: [], events: [] };
  const r = out.status;
  if (input.previous?.generation !== r.generation && r.state !== 'Complete') {
    const superseded =
      input.previous && isActive(input.previous)
        ? ` (supersedes the rollout of generation ${input.previous.generation})`
        : '';
    out.events.push({
      type: 'Normal',
      reason: 'RolloutStageStarted',
      message: `rollout of generation ${r.generation}: stage 1 started${superseded}`,
    });
  }
  const abort = input.annotations['flowops.io/rollout-abort'];
  if (isActive(r) && abort && after(abort, r.startedAt)) {
    r.state = 'Aborted';
    r.message = `aborted at ${abort}: reached objects return to generation ${r.fromGeneration ?? r.generation}`;
    out.events.push({ type: 'Normal', reason: 'RolloutAborted', message: r.message });
  }
  if (r.state === 'RolledBack' || r.state === 'Aborted') {
    out.moves = returning(input, r);
    return out;
  }
  if (r.state === 'Complete' && r.fromGeneration !== undefined && r.fromGeneration === input.sameSpecAs) {
    if (input.previous?.generation !== r.generation)
      out.events.push({ type: 'Normal', reason: 'RolloutComplete', message: r.message ?? '' });
    out.moves = input.objects
      .filter((o) => !onGeneration(o, r.generation))
      .map((object) => ({ object, to: r.generation }));
    return out;
  }
  if (!isActive(r)) return out;
  const paused = input.annotations['flowops.io/rollout-paused'] === 'true';
  const stageOf = (i: number): StageStatus | undefined => r.stages?.[i];
  if (paused) {
    if (r.state !== 'Paused')
      out.events.push({
        type: 'Normal',
        reason: 'RolloutPaused',
        message: 'rollout paused (flowops.io/rollout-paused)',
      });
    r.state = 'Paused';
    r.message = `paused at stage ${r.currentStage + 1} of ${input.spec.stages.length}`;
    return out;
  }
  if (r.state === 'Paused' && stageOf(r.currentStage)?.state !== 'Paused') {
    r.state = 'Progressing';
    out.events.push({ type: 'Normal', reason: 'RolloutResumed', message: 'rollout resumed' });
  }
  // Each pass either waits or moves to the next stage; a stage that passes at once lets the next begin now.
  for (let guard = 0; guard <= input.spec.stages.length; guard++) {
    if (!stepStage(input, out)) break;
  }
  return out;
}

/** Advances the current stage; true when it moved on to the next one (evaluate that one too). */
function stepStage(input: PlanInput, out: PlanOutput): boolean {
  const r = out.status;
  const g = r.generation;
  const i = r.currentStage;
  const stage = input.spec.stages[i];
  const st = r.stages?.[i];
  if (!stage || !st) return false;
  const total = `${input.spec.stages.length}`;
  if (st.state === 'Paused') return resumeFromPause(input, out, stage, st);
  const desired = desiredSet(input, i);
  // No object to name: the stage itself failed (a selector that matches nothing).
  if ('error' in desired) return fail(input, out, [{ object: NO_OBJECT, reason: desired.error }]);
  const reached = input.objects.filter((o) => onGeneration(o, g));
  const toMove = desired.set.filter((o) => !onGeneration(o, g));
  const notReady = reached.filter((o) => !readyOn(o, g));
  const budget = Math.max(0, maxUnavailable(input) - notReady.length);
  for (const o of toMove.slice(0, budget)) out.moves.push({ object: o, to: g });
  const moved = new Set(out.moves.map((m) => m.object.key));
  st.target = desired.set.length;
  st.updated = desired.set.filter((o) => onGeneration(o, g) || moved.has(o.key)).length;
  st.ready = desired.set.filter((o) => readyOn(o, g)).length;
  const on = `${st.updated} of ${input.objects.length} objects on generation ${g}`;
  r.message = `stage ${i + 1} of ${total}: ${on}, ${st.ready} ready`;
  if (toMove.length === 0 && st.ready === st.target) {
    st.state = 'Passed';
    st.passedAt = input.now.toISOString();
    out.events.push({
      type: 'Normal',
      reason: 'RolloutStagePassed',
      message: `stage ${i + 1} of ${total} passed: ${r.message}`,
    });
    if (stage.pause && i + 1 < input.spec.stages.length) {
      st.state = 'Paused';
      r.state = 'Paused';
      const until = stage.pause.untilPromoted ? 'until promoted' : `for ${stage.pause.duration ?? ''}`;
      r.message = `stage ${i + 1} of ${total} passed; paused ${until}`;
      return resumeFromPause(input, out, stage, st);
    }
    return next(input, out);
  }
  const stalled = reached.filter((o) => o.current === g && o.stalled);
  const deadline = parseDuration(input.spec.progressDeadline ?? DEFAULT_DEADLINE);
  const late = st.startedAt !== undefined && input.now.getTime() - Date.parse(st.startedAt) > deadline;
  if (stalled.length || late) {
    const failing = (stalled.length ? stalled : desired.set.filter((o) => !readyOn(o, g))).slice(0, MAX_FAILED);
    const why = (o: ObjectFacts): string =>
      o.stalled
        ? `stalled: ${o.reason}`
        : `not Ready within ${input.spec.progressDeadline ?? DEFAULT_DEADLINE}: ${o.reason}`;
    return fail(
      input,
      out,
      failing.map((o) => ({ object: o.key, reason: why(o).slice(0, 500) })),
    );
  }
  return false;
}

function resumeFromPause(input: PlanInput, out: PlanOutput, stage: RolloutStage, st: StageStatus): boolean {
  const r = out.status;
  const promote = input.annotations['flowops.io/rollout-promote'];
  const promoted = promote !== undefined && promote !== r.lastPromote && after(promote, st.startedAt, true);
  const waited =
    stage.pause?.duration !== undefined &&
    st.passedAt !== undefined &&
    input.now.getTime() - Date.parse(st.passedAt) >= parseDuration(stage.pause.duration);
  if (!promoted && !waited) return false;
  if (promoted && promote) {
    r.lastPromote = promote;
    out.events.push({
      type: 'Normal',
      reason: 'RolloutPromoted',
      message: `stage ${st.index + 1} promoted at ${promote}`,
    });
  }
  st.state = 'Passed';
  r.state = 'Progressing';
  return next(input, out);
}

function next(input: PlanInput, out: PlanOutput): boolean {
  const r = out.status;
  const i = r.currentStage + 1;
  const st = r.stages?.[i];
  if (!st) {
    r.state = 'Complete';
    r.message = `generation ${r.generation} on all ${input.objects.length} objects`;
    out.events.push({
      type: 'Normal',
      reason: 'RolloutComplete',
      message: `rollout of generation ${r.generation} complete: ${r.message}`,
    });
    return false;
  }
  r.currentStage = i;
  st.state = 'Progressing';
  st.startedAt = input.now.toISOString();
  const message = `rollout of generation ${r.generation}: stage ${i + 1} of ${input.spec.stages.length} started`;
  out.events.push({ type: 'Normal', reason: 'RolloutStageStarted', message });
  return true;
}

function fail(input: PlanInput, out: PlanOutput, failed: Array<{ object: string; reason: string }>): boolean {
  const r = out.status;
  const st = r.stages?.[r.currentStage];
  if (st) st.state = 'Failed';
  r.failed = failed;
  const rollback = input.spec.onFailure === 'rollback';
  const names = failed.map((f) => (f.object === NO_OBJECT ? f.reason : `${f.object}: ${f.reason}`)).join('; ');
  const stage = `stage ${r.currentStage + 1} of ${input.spec.stages.length}`;
  r.message = `${stage} of generation ${r.generation} failed: ${names}`.slice(0, 2000);
  r.state = rollback ? 'RolledBack' : 'Halted';
  out.events.push({ type: 'Warning', reason: 'RolloutHalted', message: r.message });
  if (rollback) {
    const from = r.fromGeneration ?? r.generation;
    out.events.push({
      type: 'Warning',
      reason: 'RolloutRolledBack',
      message: `reached objects return to generation ${from}`,
    });
    out.moves = returning(input, r);
    out.rolledBackTo = from;
  }
  return false;
}

/** Objects the rollout reached go back to fromGeneration (rollback, abort). */
function returning(input: PlanInput, r: RolloutStatus): Move[] {
  const from = r.fromGeneration ?? r.generation;
  if (from === r.generation) return [];
  return input.objects.filter((o) => onGeneration(o, r.generation)).map((o) => ({ object: o, to: from }));
}

/** The objects that are on the new generation once stage i passed (cumulative; stable order). */
function desiredSet(input: PlanInput, i: number): { set: ObjectFacts[] } | { error: string } {
  const g = input.generation;
  const chosen = new Set<string>(input.objects.filter((o) => onGeneration(o, g)).map((o) => o.key));
  for (let k = 0; k <= i; k++) {
    const stage = input.spec.stages[k];
    if (!stage) break;
    if (stage.selector !== undefined) {
      const sel = parseLabelSelector(stage.selector);
      const matched = input.objects.filter((o) => matchesLabels(sel, o.labels));
      if (!matched.length && k === i)
        return {
          error:
            `selector "${stage.selector}" of stage ${k + 1} matches none of the ${input.objects.length} watched ` +
            'objects (a stage without objects halts instead of passing empty: check the selector and their labels)',
        };
      for (const o of matched) chosen.add(o.key);
      continue;
    }
    const n =
      stage.count !== undefined ? stage.count : Math.ceil((input.objects.length * (stage.percent ?? 100)) / 100);
    for (const o of input.objects) {
      if (chosen.size >= Math.min(n, input.objects.length)) break;
      chosen.add(o.key);
    }
  }
  return { set: input.objects.filter((o) => chosen.has(o.key)) };
}

function maxUnavailable(input: PlanInput): number {
  const m = input.spec.maxUnavailable ?? '25%';
  if (typeof m === 'number') return m;
  return Math.max(1, Math.floor((input.objects.length * Number(m.slice(0, -1))) / 100));
}

/** The status this step starts from: the previous one, or a new rollout when the generation moved. */
function begin(input: PlanInput): RolloutStatus {
  const prev = input.previous;
  const g = input.generation;
  if (prev && prev.generation === g) return structuredClone(prev);
  const from = prev ? fromOf(prev) : oldestInUse(input.objects, g);
  const now = input.now.toISOString();
  if (from !== undefined && from < g && input.sameSpecAs === from) {
    return {
      generation: g,
      fromGeneration: from,
      state: 'Complete',
      currentStage: input.spec.stages.length - 1,
      message: `generation ${g} repeats the spec of generation ${from}, which ran on every object: on all of them at once`,
    };
  }
  if (from === undefined || from >= g) {
    return {
      generation: g,
      state: 'Complete',
      currentStage: input.spec.stages.length - 1,
      message: `generation ${g} on all objects`,
    };
  }
  const stages: StageStatus[] = input.spec.stages.map((_, i) => ({
    index: i,
    target: 0,
    updated: 0,
    ready: 0,
    state: i === 0 ? 'Progressing' : 'Pending',
    ...(i === 0 ? { startedAt: now } : {}),
  }));
  return { generation: g, fromGeneration: from, state: 'Progressing', currentStage: 0, startedAt: now, stages };
}

/** A finished rollout's objects are on its generation; an unfinished one's unreached are still on its from. */
function fromOf(prev: RolloutStatus): number {
  return prev.state === 'Complete' ? prev.generation : (prev.fromGeneration ?? prev.generation);
}

/** Before any rollout status: the objects are where their annotations say (the oldest below g). */
function oldestInUse(objects: ObjectFacts[], g: number): number | undefined {
  let min: number | undefined;
  for (const o of objects) {
    const on = o.target ?? o.current;
    if (on !== undefined && on < g && (min === undefined || on < min)) min = on;
  }
  return min;
}

const isActive = (r: RolloutStatus): boolean => r.state === 'Progressing' || r.state === 'Paused';

/** An RFC 3339 control value later than a start time (to the second, as the value is written). */
function after(value: string, start: string | undefined, sameSecond = false): boolean {
  const v = Date.parse(value);
  if (Number.isNaN(v)) return false;
  if (start === undefined) return true;
  const s = Math.floor(Date.parse(start) / 1000) * 1000;
  return sameSecond ? v >= s : v > s;
}

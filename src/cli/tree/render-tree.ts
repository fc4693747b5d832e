// Draws a CausalTree as an indented tree, like `kubectl tree` or `flux tree`: one line per node,
// health in words (and colour on a terminal), the reason where something is not ready.

import type { Run } from '../../api/index.js';
import { humanDuration } from '../../apiserver/table/human-duration.js';
import type { CausalTree, ChildNode, FlowNode, ObjectNode, ReadyState } from './causal-tree.js';

interface Line {
  text: string;
  children: Line[];
}

type Paint = (text: string, tone: 'good' | 'bad' | 'busy' | 'dim') => string;

const ANSI = { good: '\u001b[32m', bad: '\u001b[31m', busy: '\u001b[33m', dim: '\u001b[90m' } as const;
export const colours: Paint = (text, tone) => `${ANSI[tone]}${text}\u001b[39m`;
export const plain: Paint = (text) => text;

const nameOf = (o: { namespace?: string | undefined; name: string }): string =>
  o.namespace ? `${o.namespace}/${o.name}` : o.name;

function readyText(r: ReadyState | undefined, paint: Paint): string {
  if (!r) return paint('Ready=Unknown (not reconciled yet)', 'dim');
  const word = `Ready=${r.status}${r.reason ? ` ${r.reason}` : ''}`;
  return r.status === 'True'
    ? paint(word, 'good')
    : paint(word, r.status === 'False' ? 'bad' : 'busy') + (r.message ? `: ${r.message}` : '');
}

function childLine(c: ChildNode, paint: Paint): Line {
  const tone = c.health === 'Current' ? 'good' : c.health === 'InProgress' ? 'busy' : 'bad';
  return { text: `${c.kind} ${nameOf(c)}  ${paint(c.health, tone)}${c.message ? `: ${c.message}` : ''}`, children: [] };
}

function objectLine(o: ObjectNode, paint: Paint): Line {
  const children: Line[] = [];
  if (o.stalled)
    children.push({
      text: `${paint('Stalled', 'bad')}: ${o.stalled.message ?? o.stalled.reason ?? ''} (not retried until the object or the Flow changes)`,
      children: [],
    });
  if (o.lastRun) {
    const run = o.lastRun;
    const tone = run.outcome === 'Succeeded' ? 'good' : 'bad';
    // The RunHistory's newest entry is this run when they agree; it adds the times.
    const timed =
      o.runs[0] && o.runs[0].outcome === run.outcome && o.runs[0].flowGeneration === run.flowGeneration
        ? o.runs[0]
        : undefined;
    const when = timed ? ` in ${timed.duration}, ${ago(timed)}` : '';
    children.push({
      text: `last run: ${paint(run.outcome, tone)}${when} (Flow generation ${run.flowGeneration}${run.revision ? `, ${run.revision}` : ''})`,
      children: run.steps.map((s) => {
        const failed = run.error && run.error.step === s.name;
        const attempts = s.attempts > 1 ? `, ${s.attempts} attempts` : '';
        const took = s.result === 'skipped' ? undefined : timed?.steps.find((t) => t.name === s.name)?.duration;
        return {
          text: `step ${s.name}  ${paint(s.result, s.result === 'failed' ? 'bad' : s.result === 'skipped' ? 'dim' : 'good')}${took ? ` ${paint(took, 'dim')}` : ''}${attempts}${failed ? `: ${run.error!.reason}: ${run.error!.message}` : ''}`,
          children: [],
        };
      }),
    });
    const earlier = o.runs.slice(timed ? 1 : 0, 6);
    if (earlier.length)
      children.push({
        text: `earlier runs: ${earlier.map((r) => `${paint(r.outcome, r.outcome === 'Succeeded' ? 'good' : 'bad')} ${r.duration} ${ago(r)}`).join(', ')}`,
        children: [],
      });
  }
  children.push(...o.children.map((c) => childLine(c, paint)));
  if (!o.children.length) children.push({ text: paint('no children', 'dim'), children: [] });
  // Last on the line, so the readiness and its message read first.
  const generation = o.generation !== undefined ? `  ${paint(`[generation ${o.generation}]`, 'dim')}` : '';
  return { text: `${o.kind} ${nameOf(o)}  ${readyText(o.ready, paint)}${generation}`, children };
}

function rolloutText(r: FlowNode['rollout'], paint: Paint): string {
  if (!r?.state) return '';
  const tone = r.state === 'Complete' ? 'good' : r.state === 'Progressing' || r.state === 'Paused' ? 'busy' : 'bad';
  const of = r.stages ? ` of ${r.stages}` : '';
  const stage = r.currentStage !== undefined && r.state !== 'Complete' ? `, stage ${r.currentStage + 1}${of}` : '';
  return `  rollout of generation ${r.generation ?? '?'}: ${paint(r.state, tone)}${stage}`;
}

/** How long ago a run started, as kubectl prints ages. */
const ago = (r: Run): string => `${humanDuration(Date.now() - Date.parse(r.startTime))} ago`;

function linesOf(t: CausalTree, paint: Paint): Line {
  if (t.unwatched)
    return {
      text: `${objectLine(t.unwatched, paint).text}  ${paint('(no Flow watches this kind)', 'dim')}`,
      children: objectLine(t.unwatched, paint).children,
    };
  const flow = t.flow!;
  let node: Line = {
    text:
      `Flow ${flow.namespace}/${flow.name}  ${readyText(flow.ready, paint)}` +
      `${flow.path ? `  ${paint(flow.path, 'dim')}` : ''}${rolloutText(flow.rollout, paint)}`,
    children: flow.objects.length
      ? flow.objects.map((o) => objectLine(o, paint))
      : [{ text: paint('no watched objects', 'dim'), children: [] }],
  };
  if (t.commit)
    node = {
      text: `commit ${t.commit.revision}${t.commit.outcome ? `  ${t.commit.outcome}` : ''}${t.commit.live ? '' : paint('  (not the live commit)', 'busy')}`,
      children: [node],
    };
  if (t.source)
    node = {
      text: `FlowSource ${t.source.namespace}/${t.source.name}${t.source.url ? `  ${t.source.url}` : ''}  ${readyText(t.source.ready, paint)}`,
      children: [node],
    };
  return node;
}

function draw(line: Line, prefix: string, last: boolean, root: boolean, out: string[]): void {
  out.push(root ? line.text : `${prefix}${last ? '└─ ' : '├─ '}${line.text}`);
  const next = root ? '' : `${prefix}${last ? '   ' : '│  '}`;
  for (const [i, c] of line.children.entries()) draw(c, next, i === line.children.length - 1, false, out);
}

export function renderTrees(trees: CausalTree[], paint: Paint): string {
  const out: string[] = [];
  for (const t of trees) draw(linesOf(t, paint), '', true, true, out);
  return `${out.join('\n')}\n`;
}

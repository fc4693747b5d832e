// The pull-request comment: a pure function of what validation and the diff found, so that other
// checks (the type check's own section, later) add an input here and nothing else. Markdown a
// reviewer reads in ten seconds (a verdict line and a table of objects and fields), the full diff
// folded below it, a hidden marker that finds the comment again, and never more than the forge takes.

import type { ValidationError } from '../api/index.js';
import type { ObjectChange } from '../diff/index.js';
import type { RenderedChildren } from './render-children.js';

export const MARKER_PREFIX = '<!-- flowops-preview source=';

export interface PreviewCommentInput {
  /** namespace/name of the FlowSource. */
  source: string;
  sha: string;
  validation: { errors: readonly ValidationError[]; warnings: readonly ValidationError[] };
  /** The dry run's answer; absent when validation failed or the dry run was refused. */
  diff?: { changes: readonly ObjectChange[]; skipped: readonly string[] };
  /** The dry run was refused by the API server (an object it does not accept): its message. */
  dryRunError?: string;
  /** What the changed Flows would create (scripts stubbed); absent when nothing was rendered. */
  rendered?: RenderedChildren;
  /** The forge's longest comment, in characters. */
  limit: number;
  /** The web view's page for the source, when FlowOps knows its own address. */
  link?: string;
}

const MAX_ROWS = 50;
const MAX_FIELDS = 8;

/** The marker a comment starts with; the commit line after it tells which head was previewed. */
export const markerOf = (source: string): string => `${MARKER_PREFIX}${source} -->`;
const commitMarker = (sha: string): string => `<!-- flowops-preview commit=${sha} -->`;

/** The head commit a comment previewed, read back from its hidden marker. */
export function previewedCommit(body: string): string | undefined {
  return /<!-- flowops-preview commit=([0-9a-f]{40}) -->/.exec(body)?.[1];
}

/** A fence longer than any run of backticks in the text, so the text cannot close it. */
function fenced(text: string, lang: string): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}${lang}\n${text.endsWith('\n') ? text : `${text}\n`}${fence}`;
}

const cell = (s: string): string => s.replaceAll('|', '\\|').replaceAll('\n', ' ');
const code = (s: string): string => `\`${s.replaceAll('`', "'")}\``;
const at = (e: ValidationError): string => `${e.file}:${e.line}:${e.column}: ${e.field}: ${e.message}`;

function counts(changes: readonly ObjectChange[]): string {
  const n = (k: ObjectChange['change']): number => changes.filter((c) => c.change === k).length;
  return `${n('changed')} changed, ${n('created')} created, ${n('pruned')} pruned`;
}

function table(changes: readonly ObjectChange[]): string {
  const rows = changes.slice(0, MAX_ROWS).map((c) => {
    const fields = c.fields.slice(0, MAX_FIELDS).map(code).join(', ');
    const more = c.fields.length > MAX_FIELDS ? ` and ${c.fields.length - MAX_FIELDS} more` : '';
    return `| ${c.change} | ${cell(c.object)} | ${cell(fields + more) || '—'} |`;
  });
  const more = changes.length - MAX_ROWS;
  const cut = more > 0 ? `\n\n…and ${more} more object(s), in the full diff.` : '';
  return ['| Change | Object | Fields |', '| --- | --- | --- |', ...rows].join('\n') + cut;
}

/** The folded diff, cut to `room` characters with a note saying how much was left out. */
function folded(changes: readonly ObjectChange[], room: number, sha: string): string {
  const open = '<details><summary>Full diff</summary>\n\n';
  const close = '\n\n</details>';
  const full = changes.map((c) => c.diff).join('');
  const whole = `${open}${fenced(full, 'diff')}${close}`;
  if (whole.length <= room) return whole;
  const note = (shown: number): string =>
    `\n\n_The diff is cut here: ${shown} of ${full.length} characters shown, the forge's comment limit. ` +
    `\`flowops diff --commit ${sha.slice(0, 12)}\` shows all of it._`;
  const budget = room - open.length - close.length - note(full.length).length - 16;
  if (budget < 200) return note(0).trimStart();
  const part = full.slice(0, full.lastIndexOf('\n', budget) + 1 || budget);
  return `${open}${fenced(part, 'diff')}${note(part.length)}${close}`;
}

/** The rendered children: a line per watched object, the YAML folded, at most `room` characters. */
function renderedSection(r: RenderedChildren, room: number): string {
  if (!r.samples.length && !r.notes.length) return '';
  const lines = ['#### What the changed Flows would create', ''];
  if (r.samples.length) {
    lines.push(
      'Rendered on a throwaway API server; script and http steps stubbed, never run. Secret values masked.',
      '',
    );
    for (const s of r.samples.slice(0, MAX_ROWS)) {
      const by = s.flows.length ? ` (Flow ${s.flows.map(code).join(', ')})` : '';
      const made = s.children.length ? s.children.map(code).join(', ') : 'no children';
      lines.push(`- ${code(s.object)}${by}: ${made}`);
    }
  }
  if (r.notes.length) lines.push('', ...r.notes.map((n) => `> ${n.replaceAll('\n', ' ')}`));
  const head = lines.join('\n');
  if (!r.samples.length) return head.length <= room ? head : '';
  const open = '\n\n<details><summary>Rendered children</summary>\n\n';
  const close = '\n\n</details>';
  const yaml = r.samples.map((s) => s.yaml).join('---\n');
  const whole = `${head}${open}${fenced(yaml, 'yaml')}${close}`;
  if (whole.length <= room) return whole;
  const note = "\n\n_The rendered children are cut here, at the forge's comment limit._";
  const budget = room - head.length - open.length - close.length - note.length - 16;
  if (budget < 200) return head.length <= room ? head : '';
  const part = yaml.slice(0, yaml.lastIndexOf('\n', budget) + 1 || budget);
  return `${head}${open}${fenced(part, 'yaml')}${note}${close}`;
}

export function previewComment(input: PreviewCommentInput): string {
  const { errors, warnings } = input.validation;
  const head = [
    markerOf(input.source),
    commitMarker(input.sha),
    `### FlowOps preview of \`${input.source}\` at \`${input.sha.slice(0, 12)}\``,
    '',
  ];
  const body: string[] = [];
  if (errors.length) {
    body.push(
      `❌ **Rejected**: ${errors.length} error(s); a merge of this commit would be refused as a whole, ` +
        'nothing applied.',
      '',
      fenced(errors.map(at).join('\n'), 'text'),
    );
  } else if (input.dryRunError !== undefined) {
    const refused = '❌ **The API server refuses this commit** (server-side dry run):';
    body.push(refused, '', fenced(input.dryRunError, 'text'));
  } else if (input.diff) {
    const { changes, skipped } = input.diff;
    body.push(
      changes.length
        ? `**${counts(changes)}** against live. Nothing is applied before the merge.`
        : '✅ **No change** against live.',
    );
    if (changes.length) body.push('', table(changes));
    if (skipped.length) body.push('', ...skipped.slice(0, 10).map((s) => `- ${cell(s)}`));
  }
  if (warnings.length) body.push('', `${warnings.length} warning(s):`, '', fenced(warnings.map(at).join('\n'), 'text'));
  const foot = input.link ? ['', `[Source in FlowOps](${input.link})`] : [];
  const top = [...head, ...body, ...foot].join('\n');
  const changes = errors.length ? [] : (input.diff?.changes ?? []);
  // The rendered children get a quarter of the forge's limit at most; the full diff the rest.
  const render = input.rendered ? renderedSection(input.rendered, Math.floor((input.limit - top.length) / 4)) : '';
  const withRender = render ? `${top}\n\n${render}` : top;
  const text = changes.length
    ? `${withRender}\n\n${folded(changes, input.limit - withRender.length - 2, input.sha)}`
    : withRender;
  if (text.length <= input.limit) return text;
  // Only a table or an error list beyond the limit gets here: cut it, say so.
  const note = "\n\n_Cut at the forge's comment limit._";
  return text.slice(0, Math.max(0, input.limit - note.length)) + note;
}

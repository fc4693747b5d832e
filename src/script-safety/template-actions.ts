// Splits a template into literal text and `{{ … }}` actions, applying trim markers and dropping
// comments the way the template lexer does. Used where actions must not be rendered into the
// text (scripts) or where the text around them matters (the http url origin check). Call only on
// sources that parseTemplate accepted: malformed actions are reported there, with positions.

import { ScriptTemplateError } from './errors.js';
const KEYWORDS = new Set(['if', 'else', 'end', 'range', 'with', 'break', 'continue', 'define', 'template', 'block']);

export type TemplatePart =
  | { kind: 'text'; text: string }
  | {
      kind: 'action';
      /** The action without delimiters and trim markers, e.g. " .Resource.spec.replicas ". */
      body: string;
      /** Set for control actions ({{ if }}, {{ range }}, {{ end }} …). */
      keyword: string | undefined;
      /** Offset of `{{` in the source. */
      offset: number;
    };

const isSpace = (c: string | undefined): boolean => c === ' ' || c === '\t' || c === '\r' || c === '\n';

/** Index just past the action's closing `}}`, skipping string literals that may contain `}}`. */
function actionEnd(src: string, from: number): { bodyEnd: number; next: number; trim: boolean } {
  let p = from;
  while (p < src.length) {
    const c = src[p];
    if (c === '"' || c === "'") {
      p++;
      while (p < src.length && src[p] !== c) p += src[p] === '\\' ? 2 : 1;
      p++;
    } else if (c === '`') {
      const close = src.indexOf('`', p + 1);
      p = close === -1 ? src.length : close + 1;
    } else if (isSpace(c) && src.startsWith('-}}', p + 1)) {
      return { bodyEnd: p + 1, next: p + 4, trim: true };
    } else if (src.startsWith('}}', p)) {
      return { bodyEnd: p, next: p + 2, trim: false };
    } else {
      p++;
    }
  }
  throw new ScriptTemplateError('UnclosedAction', 'unclosed action: missing "}}"');
}

/** Where a text part's characters come from: from index `from` on, `src + (index - from)`. */
export interface TextSpan {
  from: number;
  src: number;
}

export type SpannedPart = TemplatePart & { spans?: TextSpan[] };

export function splitActions(src: string): TemplatePart[] {
  return splitActionsWithSpans(src).map(({ spans: _spans, ...part }) => part as TemplatePart);
}

/** splitActions, with each text part's source offsets (for messages that point into the source). */
export function splitActionsWithSpans(src: string): SpannedPart[] {
  const parts: SpannedPart[] = [];
  let i = 0;
  let trimNext = false;
  let pending = '';
  let spans: TextSpan[] = [];
  const flushText = (): void => {
    if (pending) parts.push({ kind: 'text', text: pending, spans });
    pending = '';
    spans = [];
  };
  while (i <= src.length) {
    const open = src.indexOf('{{', i);
    let text = src.slice(i, open === -1 ? src.length : open);
    let start = i;
    if (trimNext) {
      const trimmed = text.replace(/^[ \t\r\n]+/, '');
      start += text.length - trimmed.length;
      text = trimmed;
    }
    const leftTrim = open !== -1 && src[open + 2] === '-' && isSpace(src[open + 3]);
    if (leftTrim) text = text.replace(/[ \t\r\n]+$/, '');
    if (text) spans.push({ from: pending.length, src: start });
    pending += text;
    if (open === -1) break;
    const inner = open + (leftTrim ? 3 : 2);
    if (src.startsWith('/*', open + (leftTrim ? 4 : 2))) {
      const close = src.indexOf('*/', inner);
      if (close === -1) throw new ScriptTemplateError('UnclosedComment', 'unclosed comment');
      const rest = src.slice(close + 2);
      trimNext = /^\s-}}/.test(rest);
      i = close + 2 + (trimNext ? 4 : 2);
      continue;
    }
    const end = actionEnd(src, inner);
    const body = src.slice(inner, end.bodyEnd);
    const first = /^\s*([A-Za-z_]+)/.exec(body)?.[1];
    flushText();
    parts.push({ kind: 'action', body, keyword: first && KEYWORDS.has(first) ? first : undefined, offset: open });
    trimNext = end.trim;
    i = end.next;
  }
  flushText();
  return parts;
}

/** The source offset of character `index` of a text part. */
export function sourceOffset(spans: readonly TextSpan[], index: number): number {
  let at = spans[0] ?? { from: 0, src: 0 };
  for (const span of spans) if (span.from <= index) at = span;
  return at.src + (index - at.from);
}

/** 1-based line and column of an offset, for messages that point into a step field. */
export function positionOf(src: string, offset: number): { line: number; column: number } {
  const before = src.slice(0, offset);
  const line = before.split('\n').length;
  return { line, column: offset - before.lastIndexOf('\n') };
}

// A unified line diff (the `diff -u` format) for `flowops render --expect` and `flowops diff`.
// The edit script is jsdiff's (`diff`); only the printing is here, because FlowOps prints its
// own `--- a/` `+++ b/` headers and, as diff -u on two YAML documents, no "\ No newline" markers.
import { structuredPatch } from 'diff';

export interface UnifiedDiffOptions {
  /** Header names: `--- a/<from>` and `+++ b/<to>`. */
  fromName: string;
  toName: string;
  /** Unchanged lines shown around each change (3, as diff -u). */
  context?: number;
}

/** `diff -u` output, or "" when the texts are equal. */
export function unifiedDiff(from: string, to: string, opts: UnifiedDiffOptions): string {
  if (from === to) return '';
  const patch = structuredPatch(opts.fromName, opts.toName, withFinalNewline(from), withFinalNewline(to), '', '', {
    context: opts.context ?? 3,
  });
  if (!patch.hunks.length) return '';
  const lines = [`--- a/${opts.fromName}`, `+++ b/${opts.toName}`];
  for (const hunk of patch.hunks) {
    // diff -u numbers an empty side from the line before it: -0,0.
    const oldStart = hunk.oldLines === 0 ? hunk.oldStart - 1 : hunk.oldStart;
    const newStart = hunk.newLines === 0 ? hunk.newStart - 1 : hunk.newStart;
    lines.push(`@@ -${oldStart},${hunk.oldLines} +${newStart},${hunk.newLines} @@`);
    lines.push(...hunk.lines.filter((line) => !line.startsWith('\\')));
  }
  return `${lines.join('\n')}\n`;
}

/** The two sides compare by lines: a missing last newline is not a change of its own. */
function withFinalNewline(text: string): string {
  return text === '' || text.endsWith('\n') ? text : `${text}\n`;
}

// A unified line diff (the `diff -u` format) for `flowops render --expect` and `flowops diff`.
// node_modules holds no unified-diff package (only diff3, a three-way merge), and the inputs are
// small YAML documents, so a plain LCS table (O(n·m) memory, fine for a few thousand lines) is
// simpler than adding a dependency.

export interface UnifiedDiffOptions {
  /** Header names: `--- a/<from>` and `+++ b/<to>`. */
  fromName: string;
  toName: string;
  /** Unchanged lines shown around each change (3, as diff -u). */
  context?: number;
}

type Edit = { op: ' ' | '-' | '+'; line: string; a: number; b: number };

function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** The edit script from a to b through the longest common subsequence. */
function edits(a: string[], b: string[]): Edit[] {
  const n = a.length;
  const m = b.length;
  // lcs[i][j]: length of the LCS of a[i..] and b[j..], in one flat array.
  const lcs = new Uint32Array((n + 1) * (m + 1));
  const at = (i: number, j: number): number => i * (m + 1) + j;
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) lcs[at(i, j)] = a[i] === b[j] ? lcs[at(i + 1, j + 1)]! + 1 : Math.max(lcs[at(i + 1, j)]!, lcs[at(i, j + 1)]!);
  }
  const out: Edit[] = [];
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && a[i] === b[j]) out.push({ op: ' ', line: a[i]!, a: i++, b: j++ });
    // Deletions before insertions, as diff -u prints a changed line.
    else if (i < n && (j === m || lcs[at(i + 1, j)]! >= lcs[at(i, j + 1)]!)) out.push({ op: '-', line: a[i]!, a: i++, b: j });
    else out.push({ op: '+', line: b[j]!, a: i, b: j++ });
  }
  return out;
}

/** `diff -u` output, or "" when the texts are equal. */
export function unifiedDiff(from: string, to: string, opts: UnifiedDiffOptions): string {
  if (from === to) return '';
  const script = edits(splitLines(from), splitLines(to));
  const context = opts.context ?? 3;
  const changed = script.map((e, k) => (e.op !== ' ' ? k : -1)).filter((k) => k >= 0);
  if (!changed.length) return '';
  // Group changes whose context windows touch into hunks.
  const hunks: Array<[number, number]> = [];
  for (const k of changed) {
    const start = Math.max(0, k - context);
    const end = Math.min(script.length - 1, k + context);
    const last = hunks[hunks.length - 1];
    if (last && start <= last[1] + 1) last[1] = end;
    else hunks.push([start, end]);
  }
  const lines = [`--- a/${opts.fromName}`, `+++ b/${opts.toName}`];
  for (const [start, end] of hunks) {
    const part = script.slice(start, end + 1);
    const aCount = part.filter((e) => e.op !== '+').length;
    const bCount = part.filter((e) => e.op !== '-').length;
    const aStart = aCount ? part.find((e) => e.op !== '+')!.a + 1 : part[0]!.a;
    const bStart = bCount ? part.find((e) => e.op !== '-')!.b + 1 : part[0]!.b;
    lines.push(`@@ -${aStart},${aCount} +${bStart},${bCount} @@`);
    for (const e of part) lines.push(`${e.op}${e.line}`);
  }
  return `${lines.join('\n')}\n`;
}

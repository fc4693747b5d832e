import { describe, expect, it } from 'vitest';
import { unifiedDiff } from '../../src/util/line-diff.js';

const names = { fromName: 'x', toName: 'y' };

describe('unifiedDiff', () => {
  it('is empty for equal texts', () => {
    expect(unifiedDiff('a\nb\n', 'a\nb\n', names)).toBe('');
  });

  it('prints a changed line as - then + with diff -u hunk ranges', () => {
    expect(unifiedDiff('a\nb\nc\n', 'a\nB\nc\n', names)).toBe('--- a/x\n+++ b/y\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n');
  });

  it('keeps three lines of context and splits far-apart changes into hunks', () => {
    const from = `${Array.from({ length: 20 }, (_, i) => `l${i}`).join('\n')}\n`;
    const to = from.replace('l1\n', 'L1\n').replace('l18\n', 'L18\n');
    const out = unifiedDiff(from, to, names);
    expect(out.match(/^@@ .* @@$/gm)).toEqual(['@@ -1,5 +1,5 @@', '@@ -16,5 +16,5 @@']);
  });

  it('diffs against an empty text as all added', () => {
    expect(unifiedDiff('', 'a\nb\n', names)).toBe('--- a/x\n+++ b/y\n@@ -0,0 +1,2 @@\n+a\n+b\n');
  });
});

import { describe, expect, it } from 'vitest';
import { markerOf, previewComment, previewedCommit, type PreviewCommentInput } from '../../src/preview/comment.js';
import type { ObjectChange } from '../../src/diff/preview.js';

const SHA = 'a'.repeat(40);
const base: PreviewCommentInput = {
  source: 'default/flows',
  sha: SHA,
  validation: { errors: [], warnings: [] },
  limit: 65_536,
};
const change = (i: number, diffLines = 3): ObjectChange => ({
  change: 'changed',
  object: `ConfigMap default/c${i}`,
  fields: ['data.k'],
  diff:
    `--- a/ConfigMap default/c${i} (live)\n+++ b/ConfigMap default/c${i} (commit)\n` +
    '-  k: old\n+  k: new\n'.repeat(diffLines),
});

describe('the preview comment (a pure function of validation and diff)', () => {
  it('starts with the marker and the previewed commit, which read back', () => {
    const text = previewComment({ ...base, diff: { changes: [change(1)], skipped: [] } });
    expect(text.startsWith(markerOf('default/flows'))).toBe(true);
    expect(previewedCommit(text)).toBe(SHA);
    expect(text).toContain('| changed | ConfigMap default/c1 | `data.k` |');
  });

  it('cuts a diff longer than the forge takes, with a note, and stays within the limit', () => {
    const changes = Array.from({ length: 80 }, (_, i) => change(i, 400));
    const text = previewComment({ ...base, diff: { changes, skipped: [] }, limit: 65_536 });
    expect(text.length).toBeLessThanOrEqual(65_536);
    expect(text).toMatch(/_The diff is cut here: \d+ of \d+ characters shown, the forge's comment limit\./);
    expect(text).toContain(`flowops diff --commit ${SHA.slice(0, 12)}`);
    // The table keeps its first 50 rows and counts the rest.
    expect(text).toContain('| changed | ConfigMap default/c49 |');
    expect(text).not.toContain('| changed | ConfigMap default/c50 |');
    expect(text).toContain('…and 30 more object(s), in the full diff.');
    // The cut diff is still a closed fence inside a closed <details>.
    expect(text.trimEnd().endsWith('</details>')).toBe(true);
    expect(text.match(/^```+/gm)?.length ?? 0).toBe(2);
  });

  it('lists validation errors as file:line:column in a fence that their text cannot close', () => {
    const text = previewComment({
      ...base,
      validation: {
        errors: [{ file: 'flows/a.yaml', line: 7, column: 9, field: 'spec.x', message: 'bad ```` fence' }],
        warnings: [],
      },
    });
    expect(text).toContain('flows/a.yaml:7:9: spec.x: bad ```` fence');
    expect(text).toMatch(/^`{5}text$/m);
    expect(text).not.toContain('Full diff');
  });

  it('says no change when the diff is empty, and names a dry run the server refused', () => {
    const none = previewComment({ ...base, diff: { changes: [], skipped: [] } });
    expect(none).toContain('✅ **No change** against live.');
    expect(previewComment({ ...base, dryRunError: 'Deployment default/x: spec.replicas: Invalid value' })).toContain(
      'The API server refuses this commit',
    );
  });

  it('folds the rendered children into a quarter of the limit at most, the diff still after them', () => {
    const yaml = `children:\n${'  - kind: ConfigMap\n    data: { k: v }\n'.repeat(2_000)}`;
    const rendered = {
      samples: [{ object: 'Store default/s', flows: ['store'], children: ['ConfigMap default/c'], yaml }],
      notes: ['flows/store.yaml:3:1: spec.x: a warning of the render'],
    };
    const text = previewComment({ ...base, diff: { changes: [change(1)], skipped: [] }, rendered, limit: 20_000 });
    expect(text.length).toBeLessThanOrEqual(20_000);
    expect(text).toContain('- `Store default/s` (Flow `store`): `ConfigMap default/c`');
    expect(text).toContain('> flows/store.yaml:3:1: spec.x: a warning of the render');
    const section = text.slice(text.indexOf('#### What the changed'), text.indexOf('<details><summary>Full diff'));
    expect(section.length).toBeLessThanOrEqual(5_000);
    expect(section).toContain("_The rendered children are cut here, at the forge's comment limit._");
    expect(text).toContain('<details><summary>Full diff</summary>');
    expect(text.match(/^```+/gm)?.length ?? 0).toBe(4);
  });
});

import { describe, expect, it } from 'vitest';
import { placeTemplateErrors } from '../../src/api/template-positions.js';
import { render, renderManifest, TemplateRenderError } from '../../src/template/index.js';

// A template error's position is inside its field; these check that it becomes the file's line and
// column for each way a field is written (block literal, quoted one-liner, status), with the real
// template engine producing the error (it points at the function the action calls).

const FILE = [
  '# a comment line',
  'apiVersion: flowops.io/v1',
  'kind: Flow',
  'metadata:',
  '  name: db',
  'spec:',
  '  watch: { apiVersion: example.com/v1, kind: Database }',
  '  reconcile:',
  '    steps:',
  '      - name: first',
  '        type: kubectl',
  '        action: apply',
  '        manifests: |',
  '          apiVersion: v1',
  '          kind: ConfigMap',
  '          metadata:',
  '            name: {{ .Resource.metadata.name }}',
  '          data:',
  '            version: {{ required "spec.version is required" .Resource.spec.version }}',
  '  status:',
  '    phase: "x-{{ fail "no phase" }}"',
  '',
].join('\n');

const lineOf = (needle: string): number => FILE.split('\n').findIndex((l) => l.includes(needle)) + 1;
const columnOf = (needle: string, at = 'required "'): number =>
  (FILE.split('\n')[lineOf(needle) - 1] ?? '').indexOf(at) + 1;

function errorOf(run: () => unknown): string {
  try {
    run();
  } catch (e) {
    if (e instanceof TemplateRenderError) return e.message;
    throw e;
  }
  throw new Error('expected the template to fail');
}

const MANIFESTS = FILE.split('\n')
  .slice(13, 19)
  .map((l) => l.slice(10))
  .join('\n');
const data = { Resource: { metadata: { name: 'a' }, spec: {} } };

describe("template errors at the file's line and column", () => {
  it('a manifests block: the line inside the block becomes the file line', () => {
    const message = errorOf(() => renderManifest(MANIFESTS, data, { name: 'first.manifests' }));
    expect(message).toMatch(/\(line 6, column \d+\)$/);
    const placed = placeTemplateErrors(`step "first" failed: ${message}`, 'db', { path: 'ops/flow.yaml', text: FILE });
    expect(placed).toBe(
      `step "first" failed: template "first.manifests": spec.version is required (ops/flow.yaml:${lineOf('spec.version is required')}:${columnOf('spec.version is required')})`,
    );
    expect(lineOf('spec.version is required')).toBe(19);
  });

  it('a quoted one-line status field: the column counts from the quote', () => {
    const message = errorOf(() => render('x-{{ fail "no phase" }}', {}, { name: 'status.phase' }));
    const placed = placeTemplateErrors(message, 'db', { path: 'flow.yaml', text: FILE });
    expect(placed).toBe(
      `template "status.phase": no phase (flow.yaml:${lineOf('no phase')}:${columnOf('no phase', 'fail "')})`,
    );
  });

  it("without the file, the position says it is the field's own", () => {
    const message = errorOf(() => renderManifest(MANIFESTS, data, { name: 'first.manifests' }));
    expect(placeTemplateErrors(message, 'db', undefined)).toMatch(
      /\(line 6, column \d+ of the field first\.manifests\)$/,
    );
  });

  it('a Flow of another name in the file, or an unknown step, is not placed in it', () => {
    const message = errorOf(() => renderManifest(MANIFESTS, data, { name: 'first.manifests' }));
    expect(placeTemplateErrors(message, 'other', { path: 'flow.yaml', text: FILE })).toContain(
      'of the field first.manifests',
    );
    expect(
      placeTemplateErrors(message.replace('"first.', '"nope.'), 'db', { path: 'flow.yaml', text: FILE }),
    ).toContain('of the field nope.manifests');
  });
});

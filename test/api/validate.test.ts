import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import {
  FlowValidationError,
  formatValidationError,
  parseFlow,
  validateFlow,
  validateFlowDocuments,
  validateFlowFile,
} from '../../src/api/validate.js';
import { expectedLines, FIXTURES, INVALID, invalidFixtures } from './expectations.js';

const read = (file: string): string => readFileSync(file, 'utf8');

describe('validateFlowDocuments on invalid files', () => {
  it.each(invalidFixtures())('%s reports exactly its expected errors', (name) => {
    const file = join(INVALID, name);
    const got = validateFlowDocuments(read(file), name).map(formatValidationError);
    expect(got).toEqual(expectedLines(file, name));
  });

  it('places a template error at its line and column inside a block scalar', () => {
    const [e] = validateFlowDocuments(read(join(INVALID, 'template-syntax.yaml')), 't.yaml').filter((x) =>
      x.field.endsWith('manifests'),
    );
    // `            labels: { engine: {{ uper ...` — the function name starts in column 34.
    expect(e).toMatchObject({ line: 24, column: 34, message: 'template: function "uper" not defined' });
  });

  it('places a template error in a quoted one-line value after the quote', () => {
    const [e] = validateFlowDocuments(read(join(INVALID, 'template-syntax.yaml')), 't.yaml').filter((x) =>
      x.field.endsWith('when'),
    );
    expect(e).toMatchObject({ line: 18, column: 48 });
  });

  it('reports a YAML syntax error with its line and skips schema checks for that document', () => {
    const errors = validateFlowDocuments('apiVersion: flowops.io/v1\nkind: Flow\nspec: [unclosed\n', 'bad.yaml');
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ file: 'bad.yaml', field: '', line: 4 });
    expect(errors[0]!.message).toMatch(/^invalid YAML: /);
  });

  it('follows anchors and merge keys as kubectl does, and finds fields inside them', () => {
    const text = [
      'apiVersion: flowops.io/v1',
      'kind: Flow',
      'metadata: { name: anchors }',
      'spec:',
      '  watch: { apiVersion: example.com/v1, kind: Database }',
      '  reconcile:',
      '    steps:',
      '      - &base { name: one, type: script, script: echo one, errorHandling: { maxRetries: 2 } }',
      '      - <<: *base',
      '        name: two',
      '        language: ruby',
    ].join('\n');
    expect(validateFlowDocuments(text, 'a.yaml').map(formatValidationError)).toEqual([
      'a.yaml:11: spec.reconcile.steps[1].language: expected one of "bash", "python", got "ruby"',
    ]);
  });

  it('counts Flow documents and ignores everything else', () => {
    expect(validateFlowFile(read(join(INVALID, 'mixed-documents.yaml')), 'm.yaml').flows).toBe(2);
    expect(validateFlowFile('', 'empty.yaml')).toEqual({ flows: 0, errors: [] });
    expect(validateFlowFile('just a string\n', 's.yaml')).toEqual({ flows: 0, errors: [] });
  });
});

describe('valid Flows', () => {
  it.each(['database-flow.yaml', 'all-steps-flow.yaml', 'database-crd.yaml'])('%s passes', (name) => {
    expect(validateFlowDocuments(read(join(FIXTURES, name)), name)).toEqual([]);
  });

  it('accepts step outputs read in both spellings, from earlier steps only', () => {
    const flow = parse(read(join(FIXTURES, 'all-steps-flow.yaml'))) as unknown;
    expect(validateFlow(flow)).toEqual([]);
  });
});

describe('validateFlow and parseFlow on live objects', () => {
  const live = (): Record<string, unknown> => ({
    ...(parse(read(join(FIXTURES, 'database-flow.yaml'))) as Record<string, unknown>),
    // What the API server adds: none of it is the Flow author's to get wrong.
    metadata: {
      name: 'database-operator',
      namespace: 'default',
      uid: 'u-1',
      resourceVersion: '7',
      generation: 2,
      managedFields: [],
    },
    status: {
      observedGeneration: 2,
      conditions: [{ type: 'Ready', status: 'True', reason: 'Reconciled', lastTransitionTime: '2025-01-01T00:00:00Z' }],
    },
  });

  it('parses a live object with server metadata and status into a typed Flow', () => {
    const flow = parseFlow(live());
    expect(flow.spec.watch.kind).toBe('Database');
    expect(flow.spec.reconcile?.steps[0]?.type).toBe('kubectl');
    expect(flow.status?.conditions?.[0]?.status).toBe('True');
    expect(flow.metadata.uid).toBe('u-1');
  });

  it('reports problems without positions', () => {
    const obj = live();
    (obj.spec as { watch?: unknown }).watch = undefined;
    const errors = validateFlow(obj);
    expect(errors).toEqual([{ file: '', line: 0, column: 0, field: 'spec.watch', message: 'required' }]);
    expect(errors.map(formatValidationError)).toEqual(['spec.watch: required']);
  });

  it('throws FlowValidationError carrying every error', () => {
    const obj = live();
    const spec = obj.spec as { reconcile: { steps: Array<Record<string, unknown>> } };
    spec.reconcile.steps.push({ name: 'create-statefulset', type: 'kubectl', action: 'get' });
    let caught: unknown;
    try {
      parseFlow(obj);
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(FlowValidationError);
    const err = caught as FlowValidationError;
    expect(err.errors.map(formatValidationError)).toEqual([
      'spec.reconcile.steps[1].name: duplicate step name "create-statefulset" (also steps[0])',
      'spec.reconcile.steps[1].target: required for action "get"',
    ]);
    expect(err.message).toContain('invalid Flow: spec.reconcile.steps[1].name: duplicate step name');
  });

  it('rejects values that are not objects at all', () => {
    expect(validateFlow(null).map(formatValidationError)).toEqual(['expected a map, got null']);
    expect(validateFlow('Flow').map(formatValidationError)).toEqual(['expected a map, got "Flow"']);
  });
});

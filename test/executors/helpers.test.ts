// The executors' small shared pieces: registry, JSONPath, action splitting, masking, URL guard.
import { describe, expect, it } from 'vitest';
import { executorFor, registerExecutor, supportedStepTypes } from '../../src/executors/registry.js';
import { evalKubectlPath as evalJsonPath } from '../../src/jsonpath/index.js';
import { jsonPathOutput } from '../../src/executors/output-value.js';
import { Masker } from '../../src/executors/mask.js';
import { splitActions } from '../../src/script-safety/template-actions.js';
import { fixedDestination } from '../../src/executors/url-guard.js';
import { parseOutputsFile } from '../../src/executors/script-env.js';
import { StepError } from '../../src/executors/types.js';

describe('registry', () => {
  it('maps each step type to its executor; an unknown type is a permanent StepError', () => {
    for (const type of ['kubectl', 'script', 'template', 'http', 'pipeline'] as const)
      expect(executorFor(type).type).toBe(type);
    expect(supportedStepTypes()).toEqual(['kubectl', 'script', 'template', 'http', 'pipeline']);
    expect(() => executorFor('nope' as never)).toThrow(StepError);
    expect(() => executorFor('nope' as never)).toThrow(/no executor for step type "nope"/);
  });

  it('accepts a registered executor in place of a built-in one', async () => {
    registerExecutor({ type: 'pipeline', run: async () => ({ outputs: { ok: true } }) });
    expect(await executorFor('pipeline').run({ name: 'p', type: 'pipeline', expression: {} }, {} as never)).toEqual({
      outputs: { ok: true },
    });
  });
});

describe('json-path', () => {
  const obj = {
    metadata: { name: 'a', labels: { 'app.io/x': 'y' } },
    status: {
      conditions: [
        { type: 'Ready', status: 'True' },
        { type: 'Synced', status: 'False' },
      ],
    },
  };
  it('reads dotted paths, braces, quoted keys, indexes, wildcards and filters', () => {
    expect(jsonPathOutput(obj, '.metadata.name')).toBe('a');
    expect(jsonPathOutput(obj, '{.metadata.name}')).toBe('a');
    expect(jsonPathOutput(obj, "{.metadata.labels['app.io/x']}")).toBe('y');
    expect(jsonPathOutput(obj, '.status.conditions[-1].type')).toBe('Synced');
    expect(jsonPathOutput(obj, '.status.conditions[*].type')).toEqual(['Ready', 'Synced']);
    expect(jsonPathOutput(obj, '.status.conditions[?(@.type=="Ready")].status')).toBe('True');
    expect(jsonPathOutput(obj, '.nope.deeper')).toBeNull();
    expect(jsonPathOutput(obj, '$')).toEqual(obj);
  });
  it('never walks into the prototype', () => {
    expect(evalJsonPath({}, '.constructor')).toEqual([]);
    expect(() => evalJsonPath(obj, '.a[?(bad')).toThrow(/unsupported JSONPath/);
  });
});

describe('splitActions', () => {
  it('applies trim markers, drops comments and keeps strings containing }}', () => {
    expect(splitActions('a  {{- .x -}}  b{{/* c */}}c{{ "}}" }}')).toEqual([
      { kind: 'text', text: 'a' },
      { kind: 'action', body: ' .x ', keyword: undefined, offset: 3 },
      { kind: 'text', text: 'bc' },
      { kind: 'action', body: ' "}}" ', keyword: undefined, offset: 28 },
    ]);
    expect(
      splitActions('{{ if .a }}x{{ end }}')
        .filter((p) => p.kind === 'action')
        .map((p) => (p as { keyword?: string }).keyword),
    ).toEqual(['if', 'end']);
  });
});

describe('Masker', () => {
  it('replaces secrets (longest first, trimmed too) and secret-named env values', () => {
    const m = new Masker();
    m.add('abc\n');
    m.add('abcdef');
    m.addEnv({ GITHUB_TOKEN: 'gh-1', PLAIN: 'visible' });
    expect(m.mask('abcdef abc gh-1 visible')).toBe('*** *** *** visible');
    expect(m.maskDeep({ a: ['gh-1', 1], 'abc-key': null })).toEqual({ a: ['***', 1], '***-key': null });
  });
});

describe('url guard', () => {
  it('knows when the url text fixes the destination', () => {
    expect(fixedDestination('https://api.example.com/{{ .p }}')).toEqual({
      protocol: 'https:',
      hostname: 'api.example.com',
      port: '',
    });
    expect(fixedDestination('https://api.example.com{{ .p }}')).toMatchObject({ hostname: 'api.example.com' });
    expect(fixedDestination('https://h.example:{{ .port }}/x')).toEqual({
      protocol: 'https:',
      hostname: 'h.example',
      port: undefined,
    });
    expect(fixedDestination('https://{{ .host }}/x')).toBeUndefined();
    expect(fixedDestination('https://db{{ .n }}.example.com/x')).toBeUndefined();
    expect(fixedDestination('{{ .url }}')).toBeUndefined();
    expect(fixedDestination('https://static.example/')).toBeUndefined();
  });
});

describe('outputs file', () => {
  it('parses key=value lines and key<<DELIM blocks, keeping values as strings', () => {
    expect(parseOutputsFile('a=1\n# note\n\nb = x=y\r\nnoequals\nm<<EOF\nl1\nl2\nEOF\nc=true\n')).toEqual({
      a: '1',
      b: ' x=y',
      m: 'l1\nl2',
      c: 'true',
    });
  });
});

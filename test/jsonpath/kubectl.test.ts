import { describe, expect, it } from 'vitest';
import { evalKubectlPath, JsonPathSyntaxError, parseKubectlPath } from '../../src/jsonpath/index.js';

const pod = {
  metadata: { name: 'p', labels: { 'app.kubernetes.io/name': 'web', tier: 'db' } },
  status: {
    conditions: [
      { type: 'Initialized', status: 'True' },
      { type: 'Ready', status: 'False' },
    ],
  },
};

describe('kubectl-style paths read into the one JSONPath', () => {
  it('takes the forms kubectl takes: braces, a leading $, a leading dot or none', () => {
    for (const text of [
      '{.metadata.name}',
      '.metadata.name',
      'metadata.name',
      '$.metadata.name',
      '{$.metadata.name}',
    ]) {
      expect(evalKubectlPath(pod, text)).toEqual(['p']);
    }
  });

  it('reads dotted label keys in brackets, negative indices, wildcards and equality filters', () => {
    expect(evalKubectlPath(pod, "{.metadata.labels['app.kubernetes.io/name']}")).toEqual(['web']);
    expect(evalKubectlPath(pod, '.status.conditions[-1].type')).toEqual(['Ready']);
    expect(evalKubectlPath(pod, '.status.conditions[*].type')).toEqual(['Initialized', 'Ready']);
    expect(evalKubectlPath(pod, '.status.conditions[?(@.type=="Ready")].status')).toEqual(['False']);
  });

  it('gives nothing for a path that is absent, and the object for the root', () => {
    expect(evalKubectlPath(pod, '.spec.nodeName')).toEqual([]);
    expect(evalKubectlPath(pod, '{}')).toEqual([pod]);
  });

  it('refuses templates with more than one expression and malformed paths, naming the text', () => {
    expect(() => parseKubectlPath('{.a}{.b}')).toThrow(JsonPathSyntaxError);
    expect(() => parseKubectlPath('{.a}{.b}')).toThrow(/unsupported JSONPath "\{\.a\}\{\.b\}"/);
    expect(() => parseKubectlPath('.a[?(bad')).toThrow(/unsupported JSONPath "\.a\[\?\(bad"/);
  });
});

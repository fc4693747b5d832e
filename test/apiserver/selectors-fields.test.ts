import { describe, expect, it } from 'vitest';
import {
  fieldSelectorExactMatch,
  fieldSelectorFields,
  matchesFields,
  parseFieldSelector,
  SelectorError,
} from '../../src/apiserver/selectors/index.js';

const fields = (o: Record<string, string>) => (f: string) => o[f];

describe('parseFieldSelector', () => {
  it.each([
    ['metadata.name=foo', [{ field: 'metadata.name', operator: '=', value: 'foo' }]],
    ['metadata.name==foo', [{ field: 'metadata.name', operator: '=', value: 'foo' }]],
    ['metadata.name!=foo', [{ field: 'metadata.name', operator: '!=', value: 'foo' }]],
    ['status.phase=', [{ field: 'status.phase', operator: '=', value: '' }]],
  ])('%s', (s, want) => {
    expect(parseFieldSelector(s).requirements).toEqual(want);
  });

  it('splits at the first operator, so a value cannot start with a bare =', () => {
    expect(() => parseFieldSelector('a!==b')).toThrow('invalid field selector: unescaped character in value: 61');
    expect(parseFieldSelector('a!=\\=b').requirements).toEqual([{ field: 'a', operator: '!=', value: '=b' }]);
  });

  it('splits on commas and sorts terms, as the apiserver does', () => {
    expect(parseFieldSelector('spec.nodeName=n1,metadata.namespace!=kube-system').requirements).toEqual([
      { field: 'metadata.namespace', operator: '!=', value: 'kube-system' },
      { field: 'spec.nodeName', operator: '=', value: 'n1' },
    ]);
  });

  it('skips empty terms', () => {
    expect(parseFieldSelector('').requirements).toEqual([]);
    expect(parseFieldSelector(',a=b,').requirements).toEqual([{ field: 'a', operator: '=', value: 'b' }]);
  });

  it('unescapes \\, \\= and \\\\ in values', () => {
    expect(parseFieldSelector('metadata.name=a\\,b\\=c\\\\d').requirements).toEqual([
      { field: 'metadata.name', operator: '=', value: 'a,b=c\\d' },
    ]);
  });

  it('keeps whitespace, which the apiserver does not trim', () => {
    expect(parseFieldSelector('a = b').requirements).toEqual([{ field: 'a ', operator: '=', value: ' b' }]);
  });

  it.each([
    ['foo', "invalid selector: 'foo'; can't understand 'foo'"],
    ['a=b,foo', "invalid selector: 'a=b,foo'; can't understand 'foo'"],
    ['a=b=c', 'invalid field selector: unescaped character in value: 61'],
    ['a=x\\y', 'invalid field selector: invalid escape sequence: \\y'],
    ['a=x\\', 'invalid field selector: invalid escape sequence: \\'],
  ])('rejects %s', (s, message) => {
    expect(() => parseFieldSelector(s)).toThrow(new SelectorError(message));
  });
});

describe('matchesFields', () => {
  const obj = fields({ 'metadata.name': 'web-1', 'metadata.namespace': 'prod', 'status.phase': 'Running' });
  it.each([
    ['metadata.name=web-1', true],
    ['metadata.name==web-1', true],
    ['metadata.name=web-2', false],
    ['metadata.name!=web-2', true],
    ['metadata.name!=web-1', false],
    ['metadata.name=web-1,metadata.namespace=prod', true],
    ['metadata.name=web-1,metadata.namespace=dev', false],
    ['spec.nodeName=', true],
    ['spec.nodeName!=', false],
    ['spec.nodeName=n1', false],
    ['', true],
  ])('%s -> %s', (s, want) => {
    expect(matchesFields(parseFieldSelector(s), obj)).toBe(want);
  });
});

describe('fieldSelectorFields / fieldSelectorExactMatch', () => {
  it('lists each field once', () => {
    expect(fieldSelectorFields(parseFieldSelector('metadata.name=a,metadata.name!=b,status.phase=Running'))).toEqual([
      'metadata.name',
      'status.phase',
    ]);
    expect(fieldSelectorFields(parseFieldSelector(''))).toEqual([]);
  });

  it('finds the exact value required for a field', () => {
    const sel = parseFieldSelector('metadata.name=web,status.phase!=Failed');
    expect(fieldSelectorExactMatch(sel, 'metadata.name')).toBe('web');
    expect(fieldSelectorExactMatch(sel, 'status.phase')).toBeUndefined();
    expect(fieldSelectorExactMatch(sel, 'metadata.namespace')).toBeUndefined();
  });
});

import { describe, expect, it } from 'vitest';
import {
  labelSelectorFromMatch,
  labelSelectorToString,
  matchesLabels,
  parseLabelSelector,
  SelectorError,
} from '../../src/apiserver/selectors/index.js';

const NAME_PART_REGEX =
  "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
const LABEL_VALUE_REGEX =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";

describe('parseLabelSelector: requirements', () => {
  it.each([
    ['a=b', [{ key: 'a', operator: '=', values: ['b'] }]],
    ['a==b', [{ key: 'a', operator: '==', values: ['b'] }]],
    ['a!=b', [{ key: 'a', operator: '!=', values: ['b'] }]],
    ['a=', [{ key: 'a', operator: '=', values: [''] }]],
    ['a in (y,x)', [{ key: 'a', operator: 'in', values: ['x', 'y'] }]],
    ['a notin (x)', [{ key: 'a', operator: 'notin', values: ['x'] }]],
    ['a in ()', [{ key: 'a', operator: 'in', values: [''] }]],
    ['a in (x,x)', [{ key: 'a', operator: 'in', values: ['x'] }]],
    ['a', [{ key: 'a', operator: 'exists', values: [] }]],
    ['!a', [{ key: 'a', operator: '!', values: [] }]],
    ['a>3', [{ key: 'a', operator: 'gt', values: ['3'] }]],
    ['a<3', [{ key: 'a', operator: 'lt', values: ['3'] }]],
    ['app.kubernetes.io/name=web', [{ key: 'app.kubernetes.io/name', operator: '=', values: ['web'] }]],
    ['x in (in)', [{ key: 'x', operator: 'in', values: ['in'] }]],
    ['x=notin', [{ key: 'x', operator: '=', values: ['notin'] }]],
  ])('%s', (s, want) => {
    expect(parseLabelSelector(s).requirements).toEqual(want);
  });

  it('accepts the empty selector', () => {
    expect(parseLabelSelector('')).toEqual({ requirements: [] });
    expect(parseLabelSelector('   ')).toEqual({ requirements: [] });
  });

  it('tolerates whitespace around every token', () => {
    expect(parseLabelSelector(' \ta  =  b ,\n c in ( x , y ) , ! d ').requirements).toEqual([
      { key: 'a', operator: '=', values: ['b'] },
      { key: 'c', operator: 'in', values: ['x', 'y'] },
      { key: 'd', operator: '!', values: [] },
    ]);
  });

  it('parses the documented example and sorts by key', () => {
    expect(parseLabelSelector('z notin (),x in (foo,,baz),y').requirements).toEqual([
      { key: 'x', operator: 'in', values: ['', 'baz', 'foo'] },
      { key: 'y', operator: 'exists', values: [] },
      { key: 'z', operator: 'notin', values: [''] },
    ]);
  });

  it('handles leading, trailing and doubled commas inside a set', () => {
    expect(parseLabelSelector('a in (,b)').requirements[0]!.values).toEqual(['', 'b']);
    expect(parseLabelSelector('a in (b,)').requirements[0]!.values).toEqual(['', 'b']);
    expect(parseLabelSelector('a in (b,,c)').requirements[0]!.values).toEqual(['', 'b', 'c']);
  });
});

describe('parseLabelSelector: errors carry the apiserver text', () => {
  it.each([
    ['x=a b', "found 'b', expected: ',' or 'end of string'"],
    [',a', "found ',', expected: !, identifier, or 'end of string'"],
    ['a,', "found '', expected: identifier after ','"],
    ['a,,b', "found ',', expected: identifier after ','"],
    ['x in a', "unable to parse requirement: found 'a' expected: '('"],
    ['x in (a', "unable to parse requirement: found '', expected: ',' or ')'"],
    ['x in (a b)', "unable to parse requirement: found 'b', expected: ',' or ')'"],
    ['x in (=)', "unable to parse requirement: found '=', expected: ',', ')' or identifier"],
    ['a b', "unable to parse requirement: found 'b', expected: in, notin, =, ==, !=, gt, lt"],
    ['a=(', "unable to parse requirement: found '(', expected: identifier"],
    ['!=a', "found '!=', expected: !, identifier, or 'end of string'"],
    ['a<-3', `unable to parse requirement: values[0][a]: Invalid value: "-3": ${LABEL_VALUE_REGEX}`],
    ['!!a', "unable to parse requirement: found '!', expected: identifier"],
    ['-bad=x', `unable to parse requirement: <nil>: Invalid value: "-bad": ${NAME_PART_REGEX}`],
    ['a=b$', `unable to parse requirement: values[0][a]: Invalid value: "b$": ${LABEL_VALUE_REGEX}`],
    [
      'a>x',
      `unable to parse requirement: values[0]: Invalid value: "x": for 'Gt', 'Lt' operators, the value must be an integer`,
    ],
    [
      'a/b/c',
      "unable to parse requirement: <nil>: Invalid value: \"a/b/c\": a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
    ],
    ['/a', 'unable to parse requirement: <nil>: Invalid value: "/a": prefix part must be non-empty'],
    [
      'Example.com/a',
      "unable to parse requirement: <nil>: Invalid value: \"Example.com/a\": prefix part a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
    ],
    ['a/', `unable to parse requirement: <nil>: Invalid value: "a/": name part must be non-empty; ${NAME_PART_REGEX}`],
    [
      `${'k'.repeat(64)}`,
      `unable to parse requirement: <nil>: Invalid value: "${'k'.repeat(64)}": name part must be no more than 63 characters`,
    ],
    [
      `a=${'v'.repeat(64)}`,
      `unable to parse requirement: values[0][a]: Invalid value: "${'v'.repeat(64)}": must be no more than 63 characters`,
    ],
  ])('%s', (s, message) => {
    let err: unknown;
    try {
      parseLabelSelector(s);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(SelectorError);
    expect((err as Error).message).toBe(message);
  });
});

describe('matchesLabels', () => {
  const labels = { app: 'web', tier: 'frontend', replicas: '3', empty: '' };
  it.each([
    ['app=web', true],
    ['app==web', true],
    ['app=api', false],
    ['app!=api', true],
    ['app!=web', false],
    ['missing!=x', true],
    ['empty=', true],
    ['missing=', false],
    ['app in (web,api)', true],
    ['app in (api)', false],
    ['missing in (x)', false],
    ['app notin (api)', true],
    ['app notin (web)', false],
    ['missing notin (x)', true],
    ['app', true],
    ['missing', false],
    ['!missing', true],
    ['!app', false],
    ['replicas>2', true],
    ['replicas>3', false],
    ['replicas<4', true],
    ['app>1', false],
    ['missing<5', false],
    ['app=web,tier=frontend', true],
    ['app=web,tier=backend', false],
    ['', true],
  ])('%s -> %s', (s, want) => {
    expect(matchesLabels(parseLabelSelector(s), labels)).toBe(want);
  });

  it('treats missing labels as an empty set', () => {
    expect(matchesLabels(parseLabelSelector('!a'), undefined)).toBe(true);
    expect(matchesLabels(parseLabelSelector('a'), undefined)).toBe(false);
  });

  it('does not see inherited properties as labels or keywords', () => {
    expect(matchesLabels(parseLabelSelector('toString'), {})).toBe(false);
    expect(matchesLabels(parseLabelSelector('constructor=x'), {})).toBe(false);
    expect(() => labelSelectorFromMatch({ matchExpressions: [{ key: 'a', operator: 'toString' as 'In' }] })).toThrow(
      '"toString" is not a valid label selector operator',
    );
  });
});

describe('labelSelectorFromMatch (metav1.LabelSelector)', () => {
  it('combines matchLabels and matchExpressions, sorted by key', () => {
    const sel = labelSelectorFromMatch({
      matchLabels: { tier: 'frontend', app: 'web' },
      matchExpressions: [
        { key: 'env', operator: 'In', values: ['prod', 'staging'] },
        { key: 'legacy', operator: 'DoesNotExist' },
        { key: 'zone', operator: 'NotIn', values: ['a'] },
        { key: 'owner', operator: 'Exists' },
      ],
    });
    expect(sel.requirements.map((r) => r.key)).toEqual(['app', 'env', 'legacy', 'owner', 'tier', 'zone']);
    expect(matchesLabels(sel, { app: 'web', tier: 'frontend', env: 'prod', owner: 'me', zone: 'b' })).toBe(true);
    expect(matchesLabels(sel, { app: 'web', tier: 'frontend', env: 'dev', owner: 'me' })).toBe(false);
    expect(matchesLabels(sel, { app: 'web', tier: 'frontend', env: 'prod', owner: 'me', legacy: 'y' })).toBe(false);
  });

  it('selects everything for an empty selector and nothing for none', () => {
    expect(matchesLabels(labelSelectorFromMatch({}), { a: 'b' })).toBe(true);
    expect(matchesLabels(labelSelectorFromMatch({ matchLabels: {}, matchExpressions: [] }), {})).toBe(true);
    expect(matchesLabels(labelSelectorFromMatch(undefined), { a: 'b' })).toBe(false);
    expect(matchesLabels(labelSelectorFromMatch(null), {})).toBe(false);
  });

  it.each([
    [
      { matchExpressions: [{ key: 'a', operator: 'Equals' as 'In' }] },
      '"Equals" is not a valid label selector operator',
    ],
    [
      { matchExpressions: [{ key: 'a', operator: 'In' as const }] },
      "values: Invalid value: null: for 'in', 'notin' operators, values set can't be empty",
    ],
    [
      { matchExpressions: [{ key: 'a', operator: 'In' as const, values: [] }] },
      "values: Invalid value: null: for 'in', 'notin' operators, values set can't be empty",
    ],
    [
      { matchExpressions: [{ key: 'a', operator: 'Exists' as const, values: ['x'] }] },
      'values: Invalid value: ["x"]: values set must be empty for exists and does not exist',
    ],
    [{ matchLabels: { 'bad key': 'v' } }, `key: Invalid value: "bad key": ${NAME_PART_REGEX}`],
    [
      { matchLabels: { '-k': 'v!' } },
      `[key: Invalid value: "-k": ${NAME_PART_REGEX}, values[0][-k]: Invalid value: "v!": ${LABEL_VALUE_REGEX}]`,
    ],
  ])('rejects %j', (sel, message) => {
    expect(() => labelSelectorFromMatch(sel)).toThrow(new SelectorError(message));
  });
});

describe('labelSelectorToString', () => {
  it('renders the canonical form', () => {
    expect(labelSelectorToString(parseLabelSelector('b in (y,x), a!=1, !c, d, e>5, f==g, h notin (i)'))).toBe(
      'a!=1,b in (x,y),!c,d,e>5,f==g,h notin (i)',
    );
  });

  it('round-trips', () => {
    const s = 'app=web,env in (prod,staging),!legacy,owner';
    expect(labelSelectorToString(parseLabelSelector(labelSelectorToString(parseLabelSelector(s))))).toBe(s);
  });
});

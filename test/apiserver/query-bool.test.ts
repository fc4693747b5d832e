import { describe, expect, it } from 'vitest';
import { booleanParam, prettyPrint, queryValuesToBool } from '../../src/apiserver/http/query.js';

/** apimachinery's Convert_Slice_string_To_bool, row by row. */
describe('boolean query parameters', () => {
  it.each([
    // absent, 0 and false in any case: false
    ['', false],
    ['watch=false', false],
    ['watch=False', false],
    ['watch=FALSE', false],
    ['watch=fAlSe', false],
    ['watch=0', false],
    // Go's EqualFold folds the long s (U+017F) with s
    ['watch=fal%C5%BFe', false],
    // anything else, the empty string included: true
    ['watch', true],
    ['watch=', true],
    ['watch=true', true],
    ['watch=True', true],
    ['watch=TRUE', true],
    ['watch=1', true],
    ['watch=yes', true],
    ['watch=no', true],
    ['watch=00', true],
    ['watch=%20false', true],
    ['watch=falsey', true],
    // only the first value counts
    ['watch=false&watch=true', false],
    ['watch=True&watch=false', true],
  ])('%s → %s', (query, want) => {
    expect(booleanParam(new URLSearchParams(query), 'watch')).toBe(want);
  });

  it('reads only the named parameter', () => {
    expect(booleanParam(new URLSearchParams('force=true'), 'watch')).toBe(false);
  });

  it('takes the values in query order', () => {
    expect(queryValuesToBool([])).toBe(false);
    expect(queryValuesToBool(['0', '1'])).toBe(false);
    expect(queryValuesToBool(['1', '0'])).toBe(true);
  });
});

/** `pretty` is read as isPrettyPrint reads it: strconv.ParseBool, else the User-Agent. */
describe('prettyPrint', () => {
  it.each([
    ['pretty=true', 'node', true],
    ['pretty=True', 'node', true],
    ['pretty=1', 'node', true],
    ['pretty=t', 'node', true],
    ['pretty=yes', 'node', false],
    ['pretty=tRUE', 'node', false],
    ['pretty=0', 'curl/8.5.0', false],
    ['pretty=false', 'Mozilla/5.0 (X11)', false],
    ['pretty', 'node', false],
    ['pretty=', 'curl/8.5.0', true],
    ['', 'curl/8.5.0', true],
    ['', 'Wget/1.21', true],
    ['', 'Mozilla/5.0 (X11)', true],
    ['', 'kubectl/v1.35.0', false],
    ['', undefined, false],
  ])('%j with %s → %s', (query, ua, want) => {
    expect(prettyPrint(new URLSearchParams(query), ua)).toBe(want);
  });
});

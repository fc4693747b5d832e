import { describe, expect, it } from 'vitest';
import { goFloat, goJson, goNumber, goQuote, goValue } from '../../src/apiserver/schema/gofmt.js';

describe('goQuote (strconv.Quote)', () => {
  it.each([
    ['plain', '"plain"'],
    ['', '""'],
    ['say "hi"', '"say \\"hi\\""'],
    ['back\\slash', '"back\\\\slash"'],
    ['tab\tnl\ncr\r', '"tab\\tnl\\ncr\\r"'],
    ['\u0007\b\f\v', '"\\a\\b\\f\\v"'],
    ['\u0000\u001f\u007f', '"\\x00\\x1f\\x7f"'],
    ['héllo 世界 🎉', '"héllo 世界 🎉"'],
    ['nbsp\u00a0', '"nbsp\\u00a0"'],
    ['zw\u200b', '"zw\\u200b"'],
    ['\u2028', '"\\u2028"'],
  ])('%j', (s, want) => {
    expect(goQuote(s)).toBe(want);
  });
});

describe('goFloat / goNumber (fmt %v)', () => {
  it.each([
    [0, '0'],
    [1.5, '1.5'],
    [-2.25, '-2.25'],
    [123456.5, '123456.5'],
    [1e6, '1e+06'],
    [1234567.5, '1.2345675e+06'],
    [0.0001, '0.0001'],
    [0.00001, '1e-05'],
    [1e21, '1e+21'],
    [1.5e-300, '1.5e-300'],
    [Infinity, '+Inf'],
    [NaN, 'NaN'],
  ])('goFloat(%d) = %s', (n, want) => {
    expect(goFloat(n)).toBe(want);
  });

  it('prints integral numbers as int64', () => {
    expect(goNumber(1e6)).toBe('1000000');
    expect(goNumber(-42)).toBe('-42');
    expect(goNumber(2 ** 53)).toBe('9007199254740992');
    expect(goNumber(0.5)).toBe('0.5');
    expect(goNumber(1e300)).toBe('1e+300');
  });
});

describe('goJson (encoding/json.Marshal)', () => {
  it('sorts keys and escapes HTML characters', () => {
    expect(goJson({ b: 1, a: [true, null, 'x<y>&z'], c: { z: 1, y: 2.5 } })).toBe(
      '{"a":[true,null,"x\\u003cy\\u003e\\u0026z"],"b":1,"c":{"y":2.5,"z":1}}',
    );
  });

  it('renders nil and large numbers like Go', () => {
    expect(goJson(null)).toBe('null');
    expect(goJson(undefined)).toBe('null');
    expect(goJson(1e21)).toBe('1e+21');
    expect(goJson(1e20)).toBe('100000000000000000000');
  });
});

describe('goValue (field.Error bad values)', () => {
  it.each([
    ['s', '"s"'],
    [3, '3'],
    [3.5, '3.5'],
    [true, 'true'],
    [null, 'null'],
    [[1, 'a'], '[1,"a"]'],
    [{ b: 1, a: 2 }, '{"a":2,"b":1}'],
  ])('%j', (v, want) => {
    expect(goValue(v)).toBe(want);
  });
});

// @hash: the first 6 characters of base36(md5(Go JSON)), left-padded to 25 digits first, so the
// values match the original's (e.g. "dorzm8" for its test object).

import { createHash } from 'node:crypto';
import { fail } from '../value/coerce.js';
import { goJson } from '../../util/json-value.js';
import { evaluate, where, type OpFn } from './core.js';

export function md5Base36(text: string): string {
  const hex = createHash('md5').update(text, 'utf8').digest('hex');
  return BigInt(`0x${hex}`).toString(36).padStart(25, '0');
}

export const hashOps: Record<string, OpFn> = {
  '@hash': (n, ctx) => {
    const v = evaluate(n.arg, ctx);
    let text: string;
    try {
      text = goJson(v);
    } catch (e) {
      return fail(where(n), `cannot encode the value as JSON: ${e instanceof Error ? e.message : String(e)}`);
    }
    return md5Base36(text).slice(0, 6);
  },
};

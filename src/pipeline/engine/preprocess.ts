// Input preprocessing of spec §2: Secret `.data` values arrive base64-encoded and are decoded in
// place; a value that is not strict base64 stays as it is (Go's StdEncoding is strict).

import { isMap, type Doc, copyMap } from '../../util/json-value.js';

const strictBase64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

export function decodeSecret(obj: Doc): Doc {
  if (obj.kind !== 'Secret' || !isMap(obj.data)) return obj;
  const data: Doc = {};
  for (const [k, v] of Object.entries(obj.data)) {
    data[k] = typeof v === 'string' && strictBase64.test(v) ? Buffer.from(v, 'base64').toString('utf8') : v;
  }
  return copyMap(obj, { data });
}

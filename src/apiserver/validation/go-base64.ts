/**
 * Go's base64.StdEncoding.DecodeString errors (encoding/base64 decodeQuantum's CorruptInputError),
 * which a []byte field's JSON decoding returns: `illegal base64 data at input byte N`. Go skips \r and \n.
 */
const ALPHABET = /^[A-Za-z0-9+/]$/;

export function base64Error(text: string): string | undefined {
  const at = corruptAt(text);
  return at === undefined ? undefined : `illegal base64 data at input byte ${at}`;
}

const skipNewlines = (s: string, i: number): number => {
  while (i < s.length && (s[i] === '\n' || s[i] === '\r')) i++;
  return i;
};

function corruptAt(s: string): number | undefined {
  let si = 0;
  while (si < s.length) {
    for (let j = 0; j < 4; j++) {
      si = skipNewlines(s, si);
      if (si === s.length) return j === 0 ? undefined : si - j;
      const c = s[si++] ?? '';
      if (c === '=') {
        if (j < 2) return si - 1;
        if (j === 2) {
          si = skipNewlines(s, si);
          if (si === s.length) return s.length;
          if (s[si] !== '=') return si - 1;
          si++;
        }
        si = skipNewlines(s, si);
        return si < s.length ? si : undefined;
      }
      if (!ALPHABET.test(c)) return si - 1;
    }
  }
  return undefined;
}

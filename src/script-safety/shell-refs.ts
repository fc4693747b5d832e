// Reads the expansions out of a word the scanner collected (its text has this level's quotes
// removed, nested substitutions verbatim, \u0001 per template action and \u0002 for a `$` that is
// quoted or escaped, so never expands). shell-taint.ts follows values through these.

export type Ref =
  | { kind: 'action'; index: number }
  /** $NAME, ${NAME}, ${NAME…}: `op` is what follows the name inside the braces ('' for none). */
  | { kind: 'var'; name: string; op: string }
  /** ${#NAME}, $#, $?, $$, $!: always an integer (or flags), never a value from an object. */
  | { kind: 'integer' }
  /** $(( … )), $[ … ]: an integer; its expression is checked where the scanner reports it. */
  | { kind: 'arith' }
  /** $( … ), ` … `, <( … ), >( … ): the output of a command. */
  | { kind: 'subst'; text: string; actions: number[] };

export interface ParsedWord {
  refs: Ref[];
  /** The text outside every expansion. */
  literal: string;
}

export const QUOTED_DOLLAR = '\u0002';
const NAME = /^[A-Za-z_][A-Za-z0-9_]*/;
const SPECIAL = /^(?:[0-9]|[@*#?$!-])/;

/** Index just past the bracket matching the one at `open` (or the end of the text). */
function matching(text: string, open: number, o: string, c: string): number {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    if (text[i] === o) depth++;
    else if (text[i] === c && --depth === 0) return i + 1;
  }
  return text.length;
}

const countMarkers = (text: string): number => text.split('\u0001').length - 1;

/** `actions[k]` is the action of the k-th \u0001 in `text`. */
export function parseWord(text: string, actions: readonly number[]): ParsedWord {
  const refs: Ref[] = [];
  let literal = '';
  let k = 0;
  const take = (inner: string): number[] => {
    const n = countMarkers(inner);
    const out = actions.slice(k, k + n);
    k += n;
    return out;
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    const rest = text.slice(i);
    if (c === '\u0001') {
      const index = actions[k++];
      if (index !== undefined) refs.push({ kind: 'action', index });
      continue;
    }
    if (c === '`') {
      const close = text.indexOf('`', i + 1);
      const end = close === -1 ? text.length : close;
      const inner = text.slice(i + 1, end);
      refs.push({ kind: 'subst', text: inner, actions: take(inner) });
      i = end;
      continue;
    }
    if ((c === '<' || c === '>') && text[i + 1] === '(') {
      const end = matching(text, i + 1, '(', ')');
      const inner = text.slice(i + 2, end - 1);
      refs.push({ kind: 'subst', text: inner, actions: take(inner) });
      i = end - 1;
      continue;
    }
    if (c !== '$') {
      literal += c === QUOTED_DOLLAR ? '$' : c;
      continue;
    }
    if (rest.startsWith('$((') || rest.startsWith('$[')) {
      const end = rest.startsWith('$[') ? matching(text, i + 1, '[', ']') : matching(text, i + 1, '(', ')');
      take(text.slice(i, end));
      refs.push({ kind: 'arith' });
      i = end - 1;
      continue;
    }
    if (rest.startsWith('$(')) {
      const end = matching(text, i + 1, '(', ')');
      const inner = text.slice(i + 2, end - 1);
      refs.push({ kind: 'subst', text: inner, actions: take(inner) });
      i = end - 1;
      continue;
    }
    if (rest.startsWith('${')) {
      const end = matching(text, i + 1, '{', '}');
      const inner = text.slice(i + 2, end - 1);
      take(inner);
      refs.push(paramRef(inner));
      i = end - 1;
      continue;
    }
    const name = NAME.exec(rest.slice(1))?.[0] ?? SPECIAL.exec(rest.slice(1))?.[0];
    if (name === undefined) {
      literal += c;
      continue;
    }
    refs.push(/^[#?$!-]$/.test(name) ? { kind: 'integer' } : { kind: 'var', name, op: '' });
    i += name.length;
  }
  return { refs, literal };
}

/** The inside of ${ … }. */
function paramRef(inner: string): Ref {
  if (inner.startsWith('#') && inner.length > 1 && !/^#[:#%/^,}-]/.test(inner)) return { kind: 'integer' };
  if (inner.startsWith('!')) {
    const name = NAME.exec(inner.slice(1))?.[0] ?? '';
    return { kind: 'var', name, op: `!${inner.slice(1 + name.length)}` };
  }
  const name = NAME.exec(inner)?.[0] ?? /^(?:[0-9]+|[@*#?$!-])/.exec(inner)?.[0] ?? '';
  if (/^[#?$!-]$/.test(name) && inner.length === 1) return { kind: 'integer' };
  return { kind: 'var', name, op: inner.slice(name.length) };
}

/**
 * The names an arithmetic expression reads: bash evaluates a variable named there (bare or as
 * $NAME) by evaluating its content as an expression in turn.
 */
export function arithmeticRefs(text: string): Ref[] {
  const refs: Ref[] = [];
  let i = 0;
  while (i < text.length) {
    const rest = text.slice(i);
    const number = /^[0-9][0-9A-Za-z_#@]*/.exec(rest);
    if (number) {
      i += number[0].length;
      continue;
    }
    const name = NAME.exec(rest);
    if (name) {
      refs.push({ kind: 'var', name: name[0], op: '' });
      i += name[0].length;
      continue;
    }
    if (rest.startsWith('$')) {
      // One expansion at a time, through the word reader (which skips the rest of the text).
      const end = expansionEnd(text, i);
      refs.push(...parseWord(text.slice(i, end), []).refs);
      i = end;
      continue;
    }
    i++;
  }
  return refs;
}

function expansionEnd(text: string, i: number): number {
  const rest = text.slice(i);
  if (rest.startsWith('$((') || rest.startsWith('$(')) return matching(text, i + 1, '(', ')');
  if (rest.startsWith('$[')) return matching(text, i + 1, '[', ']');
  if (rest.startsWith('${')) return matching(text, i + 1, '{', '}');
  const name = NAME.exec(rest.slice(1))?.[0] ?? SPECIAL.exec(rest.slice(1))?.[0] ?? '';
  return i + 1 + name.length;
}

import { SelectorError } from './errors.js';

/** One `field=value` / `field==value` / `field!=value` term of a field selector. */
export interface FieldRequirement {
  field: string;
  operator: '=' | '!=';
  value: string;
}

export interface FieldSelector {
  requirements: FieldRequirement[];
}

/** Terms split on commas that a backslash does not escape (fields.splitTerms). */
function splitTerms(s: string): string[] {
  if (!s) return [];
  const terms: string[] = [];
  let start = 0;
  let inSlash = false;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (inSlash) inSlash = false;
    else if (c === '\\') inSlash = true;
    else if (c === ',') {
      terms.push(s.slice(start, i));
      start = i + 1;
    }
  }
  terms.push(s.slice(start));
  return terms;
}

/** The first operator wins, checked at each position in the order != then == then =; no escaping on the left. */
function splitTerm(term: string): { lhs: string; op: '=' | '==' | '!='; rhs: string } | undefined {
  for (let i = 0; i < term.length; i++) {
    for (const op of ['!=', '==', '='] as const) {
      if (term.startsWith(op, i)) return { lhs: term.slice(0, i), op, rhs: term.slice(i + op.length) };
    }
  }
  return undefined;
}

/** fields.UnescapeValue: `\\`, `\,` and `\=` are the only escapes; bare `,` and `=` are errors. */
function unescapeValue(s: string): string {
  if (!/[\\,=]/.test(s)) return s;
  let out = '';
  let inSlash = false;
  for (const c of s) {
    if (inSlash) {
      if (c !== '\\' && c !== ',' && c !== '=')
        throw new SelectorError(`invalid field selector: invalid escape sequence: \\${c}`);
      out += c;
      inSlash = false;
      continue;
    }
    if (c === '\\') inSlash = true;
    // Go formats the rune with %v, which prints its code point.
    else if (c === ',' || c === '=')
      throw new SelectorError(`invalid field selector: unescaped character in value: ${c.codePointAt(0)}`);
    else out += c;
  }
  if (inSlash) throw new SelectorError('invalid field selector: invalid escape sequence: \\');
  return out;
}

/** fields.ParseSelector. Whitespace is significant, as in the apiserver. */
export function parseFieldSelector(s: string): FieldSelector {
  const parts = splitTerms(s).sort();
  const requirements: FieldRequirement[] = [];
  for (const part of parts) {
    if (part === '') continue;
    const t = splitTerm(part);
    if (!t) throw new SelectorError(`invalid selector: '${s}'; can't understand '${part}'`);
    requirements.push({ field: t.lhs, operator: t.op === '!=' ? '!=' : '=', value: unescapeValue(t.rhs) });
  }
  return { requirements };
}

/** A field the object lacks compares as the empty string, as fields.Set.Get returns "" for it. */
export function matchesFields(sel: FieldSelector, get: (field: string) => string | undefined): boolean {
  return sel.requirements.every((r) => {
    const v = get(r.field) ?? '';
    return r.operator === '=' ? v === r.value : v !== r.value;
  });
}

/** The distinct fields a selector names, to check against the fields a kind supports. */
export function fieldSelectorFields(sel: FieldSelector): string[] {
  return [...new Set(sel.requirements.map((r) => r.field))];
}

/** The exact value a selector requires for a field (`metadata.name=x`), letting a list skip a scan. */
export function fieldSelectorExactMatch(sel: FieldSelector, field: string): string | undefined {
  return sel.requirements.find((r) => r.field === field && r.operator === '=')?.value;
}

import { SelectorError } from './errors.js';
import { lex } from './label-lexer.js';
import { Parser } from './label-parser.js';
import {
  byKey,
  newRequirement,
  parseInt64,
  quote,
  type LabelOperator,
  type LabelRequirement,
  type LabelSelector,
  type LabelSelectorObject,
} from './label-requirement.js';

const MATCH_OPERATORS = new Map<string, LabelOperator>([
  ['In', 'in'],
  ['NotIn', 'notin'],
  ['Exists', 'exists'],
  ['DoesNotExist', '!'],
]);

export type { LabelOperator, LabelRequirement, LabelSelector, LabelSelectorObject } from './label-requirement.js';

/** labels.Parse: `a=b,c!=d,e in (f,g),!h,i,j>3`. Throws SelectorError with the apiserver's text. */
export function parseLabelSelector(s: string): LabelSelector {
  return { requirements: byKey(new Parser(lex(s)).parse()) };
}

/** metav1.LabelSelectorAsSelector: null/undefined selects nothing, `{}` selects everything. */
export function labelSelectorFromMatch(sel: LabelSelectorObject | null | undefined): LabelSelector {
  if (!sel) return { requirements: [], nothing: true };
  const reqs: LabelRequirement[] = [];
  for (const [k, v] of Object.entries(sel.matchLabels ?? {})) reqs.push(newRequirement(k, '=', [v]));
  for (const expr of sel.matchExpressions ?? []) {
    const op = MATCH_OPERATORS.get(expr.operator);
    if (!op) throw new SelectorError(`${quote(String(expr.operator))} is not a valid label selector operator`);
    // append([]string(nil), values...) in Go: an empty list is a nil slice.
    reqs.push(newRequirement(expr.key, op, expr.values?.length ? [...expr.values] : undefined));
  }
  return { requirements: byKey(reqs) };
}

function matchesRequirement(r: LabelRequirement, labels: Record<string, string>): boolean {
  const has = Object.hasOwn(labels, r.key);
  const val = has ? labels[r.key]! : undefined;
  switch (r.operator) {
    case 'in':
    case '=':
    case '==':
      return val !== undefined && r.values.includes(val);
    case 'notin':
    case '!=':
      return val === undefined || !r.values.includes(val);
    case 'exists':
      return has;
    case '!':
      return !has;
    case 'gt':
    case 'lt': {
      if (val === undefined || r.values.length !== 1) return false;
      const actual = parseInt64(val);
      const bound = parseInt64(r.values[0]!);
      if (actual === undefined || bound === undefined) return false;
      return r.operator === 'gt' ? actual > bound : actual < bound;
    }
  }
}

export function matchesLabels(sel: LabelSelector, labels: Record<string, string> | undefined): boolean {
  if (sel.nothing) return false;
  return sel.requirements.every((r) => matchesRequirement(r, labels ?? {}));
}

/** The selector's canonical string (Selector.String()), e.g. for echoing back or as a cache key. */
export function labelSelectorToString(sel: LabelSelector): string {
  const render = (r: LabelRequirement): string => {
    const vals = r.values.length === 1 ? r.values[0]! : [...r.values].sort().join(',');
    switch (r.operator) {
      case '!':
        return `!${r.key}`;
      case 'exists':
        return r.key;
      case 'in':
      case 'notin':
        return `${r.key} ${r.operator} (${vals})`;
      case 'gt':
        return `${r.key}>${vals}`;
      case 'lt':
        return `${r.key}<${vals}`;
      default:
        return `${r.key}${r.operator}${vals}`;
    }
  };
  return sel.requirements.map(render).join(',');
}

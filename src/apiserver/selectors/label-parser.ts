import { SelectorError } from './errors.js';
import { newRequirement, quote, type LabelOperator, type LabelRequirement } from './label-requirement.js';
import type { Item, Token } from './label-lexer.js';
import { qualifiedNameErrors } from './label-validation.js';

const BINARY_OPERATORS = 'in, notin, =, ==, !=, gt, lt';
const BINARY_TOKENS = new Map<Token, LabelOperator>([
  ['in', 'in'],
  ['=', '='],
  ['==', '=='],
  ['>', 'gt'],
  ['<', 'lt'],
  ['notin', 'notin'],
  ['!=', '!='],
]);

/** labels.Parser: a recursive descent over the lexed items, with the apiserver's error texts. */
export class Parser {
  private position = 0;
  constructor(private readonly items: Item[]) {}

  /** In a values context the keywords `in` and `notin` are plain identifiers. */
  private lookahead(values: boolean): Item {
    const it = this.items[this.position]!;
    return values && (it.tok === 'in' || it.tok === 'notin') ? { tok: 'id', lit: it.lit } : it;
  }

  private consume(values: boolean): Item {
    const it = this.lookahead(values);
    this.position++;
    return it;
  }

  parse(): LabelRequirement[] {
    const reqs: LabelRequirement[] = [];
    for (;;) {
      const { tok, lit } = this.lookahead(true);
      if (tok === 'id' || tok === '!') {
        try {
          reqs.push(this.parseRequirement());
        } catch (e) {
          throw new SelectorError(`unable to parse requirement: ${(e as Error).message}`);
        }
        const next = this.consume(true);
        if (next.tok === 'eos') return reqs;
        if (next.tok === ',') {
          const after = this.lookahead(true);
          if (after.tok !== 'id' && after.tok !== '!')
            throw new SelectorError(`found '${after.lit}', expected: identifier after ','`);
          continue;
        }
        throw new SelectorError(`found '${next.lit}', expected: ',' or 'end of string'`);
      }
      if (tok === 'eos') return reqs;
      throw new SelectorError(`found '${lit}', expected: !, identifier, or 'end of string'`);
    }
  }

  private parseRequirement(): LabelRequirement {
    const { key, operator } = this.parseKeyAndInferOperator();
    if (operator === 'exists' || operator === '!') return newRequirement(key, operator, []);
    const op = this.parseOperator();
    const values = op === 'in' || op === 'notin' ? this.parseValues() : this.parseExactValue();
    return newRequirement(key, op, [...values].sort());
  }

  private parseKeyAndInferOperator(): { key: string; operator: LabelOperator | undefined } {
    let operator: LabelOperator | undefined;
    let it = this.consume(true);
    if (it.tok === '!') {
      operator = '!';
      it = this.consume(true);
    }
    if (it.tok !== 'id') throw new SelectorError(`found '${it.lit}', expected: identifier`);
    const keyErrs = qualifiedNameErrors(it.lit);
    if (keyErrs.length) throw new SelectorError(`<nil>: Invalid value: ${quote(it.lit)}: ${keyErrs.join('; ')}`);
    const next = this.lookahead(true).tok;
    if ((next === 'eos' || next === ',') && operator !== '!') operator = 'exists';
    return { key: it.lit, operator };
  }

  private parseOperator(): LabelOperator {
    const { tok, lit } = this.consume(false);
    const op = BINARY_TOKENS.get(tok);
    if (!op) throw new SelectorError(`found '${lit}', expected: ${BINARY_OPERATORS}`);
    return op;
  }

  private parseValues(): Set<string> {
    const open = this.consume(true);
    if (open.tok !== '(') throw new SelectorError(`found '${open.lit}' expected: '('`);
    const { tok, lit } = this.lookahead(true);
    if (tok === 'id' || tok === ',') {
      const s = this.parseIdentifiersList();
      if (this.consume(true).tok !== ')') throw new SelectorError(`found '${lit}', expected: ')'`);
      return s;
    }
    if (tok === ')') {
      this.consume(true);
      return new Set(['']);
    }
    throw new SelectorError(`found '${lit}', expected: ',', ')' or identifier`);
  }

  private parseIdentifiersList(): Set<string> {
    const s = new Set<string>();
    for (;;) {
      const { tok, lit } = this.consume(true);
      if (tok === 'id') {
        s.add(lit);
        const next = this.lookahead(true);
        if (next.tok === ',') continue;
        if (next.tok === ')') return s;
        throw new SelectorError(`found '${next.lit}', expected: ',' or ')'`);
      }
      if (tok === ',') {
        if (s.size === 0) s.add('');
        const next = this.lookahead(true).tok;
        if (next === ')') {
          s.add('');
          return s;
        }
        if (next === ',') s.add('');
        continue;
      }
      throw new SelectorError(`found '${lit}', expected: ',', or identifier`);
    }
  }

  private parseExactValue(): Set<string> {
    const next = this.lookahead(true).tok;
    if (next === 'eos' || next === ',') return new Set(['']);
    const { tok, lit } = this.consume(true);
    if (tok === 'id') return new Set([lit]);
    throw new SelectorError(`found '${lit}', expected: identifier`);
  }
}

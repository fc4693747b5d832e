// Parsed templates kept by their text for the offline checks (validate, a commit's plan), which
// read each template more than once: the structural check, then the type check. Apart from the
// render cache in template.ts, so validating a large commit never evicts what reconciles use.

import type { Node } from './ast.js';
import { asParseError, TemplateParseError } from './errors.js';
import { BUILTINS } from './functions.js';
import { parse } from './parser.js';
import { DEFAULT_NAME } from './template.js';

const LIMIT = 4096;
const cache = new Map<string, Node[] | TemplateParseError>();

/** The template's tree, parsed with the builtin functions; throws TemplateParseError. */
export function parsedTemplate(src: string): Node[] {
  let hit = cache.get(src);
  if (hit === undefined) {
    try {
      hit = parse(src, (fn) => BUILTINS.has(fn));
    } catch (err) {
      const e = asParseError(err, src, DEFAULT_NAME);
      if (!(e instanceof TemplateParseError)) throw e;
      hit = e;
    }
    cache.set(src, hit);
    if (cache.size > LIMIT) cache.delete(cache.keys().next().value as string);
  }
  if (Array.isArray(hit)) return hit;
  throw hit;
}

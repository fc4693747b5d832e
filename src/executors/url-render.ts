// Renders an http step's url with each template value encoded for where it stands, so a value
// stays one path segment or one query component: `#` cannot cut the query, `&` cannot add a
// parameter, `/` and `..` cannot move the request to another path.
//   scheme, host, port, userinfo, or glued onto the host   as rendered (url-guard.ts checks the host)
//   path                                                   a path segment: `/` is encoded too
//   query and fragment                                     a query component (encodeURIComponent)

import { render } from '../template/index.js';
import { invalid, templated } from './step-errors.js';
import { splitActions, type TemplatePart } from '../script-safety/template-actions.js';
import type { TemplateData } from './types.js';

type Position = 'raw' | 'path' | 'component';

/** Where a value appended to `prefix` (the url built so far) would land. */
function positionAfter(prefix: string): Position {
  const scheme = /^[A-Za-z][A-Za-z0-9+.-]*:/.exec(prefix);
  if (!scheme) return 'raw';
  const rest = prefix.slice(scheme[0].length);
  const authority = rest.startsWith('//') ? /^\/\/[^/?#]*/.exec(rest)![0].length : 0;
  if (rest.startsWith('//') && authority === rest.length) return 'raw';
  const tail = rest.slice(authority);
  return /[?#]/.test(tail) ? 'component' : 'path';
}

function encode(value: string, position: Position, field: string): string {
  if (position === 'raw') return value;
  // A segment of only dots is resolved away by every URL parser, encoded or not.
  if (position === 'path' && (value === '.' || value === '..')) {
    throw invalid(
      `${field}: a template value of ${JSON.stringify(value)} in the url's path would move the request to another path`,
      'InvalidURL',
    );
  }
  try {
    return encodeURIComponent(value);
  } catch {
    throw invalid(`${field}: a template value in the url is not valid Unicode text`, 'InvalidURL');
  }
}

/**
 * Values are rendered one action at a time. A url with control structures or template variables
 * cannot be split that way: it is rendered as a whole, its values left as they are, and only the
 * host guard applies.
 */
export function renderUrl(template: string, data: TemplateData, field: string): string {
  const whole = templated(() => render(template, data, { name: field }));
  let parts: TemplatePart[];
  try {
    parts = splitActions(template);
  } catch {
    return whole;
  }
  if (
    parts.some(
      (p) => p.kind === 'action' && (p.keyword || /\$[A-Za-z_]/.test(p.body.replace(/"(?:[^"\\]|\\.)*"|`[^`]*`/g, ''))),
    )
  )
    return whole;
  let url = '';
  for (const part of parts) {
    if (part.kind === 'text') url += part.text;
    else
      url += encode(
        templated(() => render(`{{${part.body}}}`, data, { name: field })),
        positionAfter(url),
        field,
      );
  }
  return url;
}

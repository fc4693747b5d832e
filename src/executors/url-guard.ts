// Keeps template values from moving an http step to another server. When the url's text fixes
// the host — `https://api.example.com/{{ .Resource.spec.path }}` — no value may change it (a value
// of "@evil.example" after a bare host, or in the userinfo, would). When the author templated the
// host itself (`https://{{ .Resource.spec.endpoint }}/`), any host is the author's intent.

import { invalid } from './step-errors.js';
import { splitActions, type TemplatePart } from '../script-safety/template-actions.js';

interface Expected {
  protocol: string;
  hostname: string;
  /** Undefined when the template chooses the port. */
  port: string | undefined;
}

function probe(parts: TemplatePart[], filler: string): URL | undefined {
  try {
    return new URL(parts.map((p) => (p.kind === 'text' ? p.text : filler)).join(''));
  } catch {
    return undefined;
  }
}

/** What the url's own text fixes about the destination, if anything. */
export function fixedDestination(template: string): Expected | undefined {
  if (!template.includes('{{')) return undefined;
  let parts: TemplatePart[];
  try {
    parts = splitActions(template);
  } catch {
    return undefined;
  }
  // Branches would make the probes meaningless; only the text before the first action counts then.
  if (parts.some((p) => p.kind === 'action' && p.keyword))
    parts = parts.slice(0, parts.findIndex((p) => p.kind === 'action') + 1);

  // Filled with letters, values cannot reach the host unless the host is (partly) templated.
  const letters = probe(parts, 'flowopsprobe');
  if (letters && !letters.host.includes('flowopsprobe'))
    return { protocol: letters.protocol, hostname: letters.hostname, port: letters.port };
  // Filled with digits, a templated port leaves the host name alone.
  const one = probe(parts, '1');
  const two = probe(parts, '2');
  if (one && two && one.hostname === two.hostname && one.protocol === two.protocol) {
    return { protocol: one.protocol, hostname: one.hostname, port: undefined };
  }
  // A value glued straight onto a complete host ("https://api.example.com{{ .path }}") is meant as
  // a path: the host is the text before it.
  const first = parts.findIndex((p) => p.kind === 'action');
  const prefix = parts
    .slice(0, first)
    .map((p) => (p.kind === 'text' ? p.text : ''))
    .join('');
  const next = parts[first + 1];
  const after = next?.kind === 'text' ? next.text : '';
  if (/^[a-z][a-z0-9+.-]*:\/\/[^/?#@]*[A-Za-z0-9\]]$/i.test(prefix) && (after === '' || /^[/?#]/.test(after))) {
    try {
      const u = new URL(prefix);
      return { protocol: u.protocol, hostname: u.hostname, port: u.port };
    } catch {
      return undefined;
    }
  }
  return undefined;
}

export function checkUrl(template: string, rendered: string, field: string): URL {
  let url: URL;
  try {
    url = new URL(rendered);
  } catch {
    throw invalid(`${field}: not a valid absolute URL: ${JSON.stringify(rendered.slice(0, 200))}`, 'InvalidURL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw invalid(`${field}: only http and https URLs are allowed, got ${url.protocol}`, 'InvalidURL');
  const fixed = fixedDestination(template);
  if (
    fixed &&
    (url.protocol !== fixed.protocol ||
      url.hostname !== fixed.hostname ||
      (fixed.port !== undefined && url.port !== fixed.port))
  ) {
    const want = `${fixed.protocol}//${fixed.hostname}${fixed.port ? `:${fixed.port}` : ''}`;
    throw invalid(
      `${field}: a template value changed the request's destination from ${want} to ${url.protocol}//${url.host}; the url's text fixes the host`,
      'InvalidURL',
    );
  }
  return url;
}

/** The url as errors and logs show it: no credentials, no query (it may carry tokens). */
export function displayUrl(url: URL): string {
  return `${url.origin}${url.pathname}`;
}

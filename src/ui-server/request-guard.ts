// Checks on requests to the web view that a browser on another site could make. The UI binds to
// loopback on `up`, but a page elsewhere can still reach 127.0.0.1 through the user's browser:
// by DNS rebinding (a foreign Host header) or by a cross-site form post (a foreign Origin).

import type { IncomingMessage } from 'node:http';

const LOOPBACK_NAMES = new Set(['127.0.0.1', 'localhost', '[::1]', '::1']);

const hostnameOf = (host: string): string =>
  host.startsWith('[') ? host.slice(0, host.indexOf(']') + 1) : host.split(':')[0]!;

/** On a loopback listener only loopback names are answered (DNS rebinding). */
export function hostAllowed(req: IncomingMessage, loopbackOnly: boolean): boolean {
  if (!loopbackOnly) return true;
  const host = req.headers.host;
  return host !== undefined && LOOPBACK_NAMES.has(hostnameOf(host).toLowerCase());
}

/**
 * An action must come from the UI's own pages: same Origin as the Host, and a JSON body, which a
 * cross-site form cannot send without a CORS preflight this server never answers.
 */
export function actionAllowed(req: IncomingMessage): string | undefined {
  const origin = req.headers.origin;
  if (origin !== undefined && origin !== `http://${req.headers.host}` && origin !== `https://${req.headers.host}`)
    return 'cross-origin request refused';
  if (!(req.headers['content-type'] ?? '').startsWith('application/json')) return 'expected a JSON body';
  return undefined;
}

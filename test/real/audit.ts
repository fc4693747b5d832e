import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RealControlPlane } from './control-plane.js';

export interface RefusedRequest {
  verb: string;
  uri: string;
  code: number;
  message: string;
}

/**
 * Response codes that mean the client did something the real server does not accept: a malformed
 * or invalid body, no or not enough rights, an unsupported media type or method. 404 (a first GET),
 * 409 (optimistic concurrency) and 429 (a CRD's storage still initialising) are part of normal
 * operation and are left out.
 */
const REFUSALS = new Set([400, 401, 403, 405, 406, 415, 422]);

/**
 * The requests of `username` that kube-apiserver refused, from DIR/audit.log (up.sh with
 * CONTROL_PLANE_AUDIT=1, which the fixture sets). FlowOps treats some calls as best effort (Events),
 * so its own logs do not show every refusal: the server's audit log does.
 */
export function refusedRequests(cp: RealControlPlane, username: string): RefusedRequest[] {
  const file = join(cp.dir, 'audit.log');
  if (!existsSync(file)) throw new Error(`no audit log at ${file}: up.sh was started without CONTROL_PLANE_AUDIT=1`);
  const refused: RefusedRequest[] = [];
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (!line) continue;
    const e = JSON.parse(line) as {
      stage: string;
      verb: string;
      requestURI: string;
      user: { username: string };
      responseStatus?: { code?: number; message?: string };
    };
    const code = e.responseStatus?.code ?? 0;
    if (e.stage === 'ResponseComplete' && e.user.username === username && REFUSALS.has(code)) {
      refused.push({ verb: e.verb, uri: e.requestURI, code, message: e.responseStatus?.message ?? '' });
    }
  }
  return refused;
}

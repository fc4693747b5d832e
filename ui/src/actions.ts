// The Source page's and the Flow page's actions, POSTed as JSON (the server refuses anything else:
// no cross-site forms).
import type { ActionResult, RolloutControlName, SourceAction } from '../../src/ui-server/types.ts';
import { BASE } from './router.ts';

export type ActionOutcome = { ok: true; message: string } | { ok: false; message: string };

export function runAction(namespace: string, name: string, action: SourceAction): Promise<ActionOutcome> {
  return post(`${BASE}api/sources/${encodeURIComponent(namespace)}/${encodeURIComponent(name)}/actions`, action);
}

/** The Flow page's rollout controls: `flowops rollout promote|pause|resume|abort`. */
export function runRolloutControl(namespace: string, name: string, action: RolloutControlName): Promise<ActionOutcome> {
  return post(`${BASE}api/flows/${encodeURIComponent(namespace)}/${encodeURIComponent(name)}/rollout`, { action });
}

async function post(url: string, action: unknown): Promise<ActionOutcome> {
  try {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      body: JSON.stringify(action),
    });
    const body = (await res.json().catch(() => ({}))) as Partial<ActionResult> & { error?: string };
    // The server's own words, a 403 from RBAC included.
    return res.ok
      ? { ok: true, message: body.message ?? 'done' }
      : { ok: false, message: `${res.status}: ${body.error ?? res.statusText}` };
  } catch (err) {
    return { ok: false, message: String(err) };
  }
}

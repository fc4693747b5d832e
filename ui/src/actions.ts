// The Source page's actions, POSTed as JSON (the server refuses anything else: no cross-site forms).
import type { ActionResult, SourceAction } from '../../src/ui-server/types.ts';
import { BASE } from './router.ts';

export type ActionOutcome = { ok: true; message: string } | { ok: false; message: string };

export async function runAction(namespace: string, name: string, action: SourceAction): Promise<ActionOutcome> {
  try {
    const res = await fetch(`${BASE}api/sources/${encodeURIComponent(namespace)}/${encodeURIComponent(name)}/actions`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      body: JSON.stringify(action),
    });
    const body = (await res.json().catch(() => ({}))) as Partial<ActionResult> & { error?: string };
    // The server's own words, a 403 from RBAC included.
    return res.ok ? { ok: true, message: body.message ?? 'done' } : { ok: false, message: `${res.status}: ${body.error ?? res.statusText}` };
  } catch (err) {
    return { ok: false, message: String(err) };
  }
}

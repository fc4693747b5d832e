// /readyz of `flowops up`: ready when the API server is (its storage check) and every part of
// the manager has started and says so, the controllers thread among them, not only the API
// server. Mounted before the API server's own health routes; ?verbose names the controllers'
// thread, so a probe (and a test) can see where they run.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ApiServer } from '../../apiserver/index.js';
import type { Manager } from '../../manager/index.js';
import type { ControllerSide } from './controller-side.js';

export function readinessRoute(server: Pick<ApiServer, 'store'>, manager: Manager, controllers: ControllerSide) {
  return (_req: IncomingMessage, res: ServerResponse, url: URL): boolean => {
    const path = url.pathname.replace(/\/+$/, '');
    if (path !== '/readyz') return false;
    const storage = server.store.liveness() ?? server.store.writeHealth();
    const lines = ['[+]ping ok', storage ? `[-]storage failed: ${storage.message}` : '[+]storage ok'];
    const waiting = manager.ready() ? [] : manager.notReady();
    const controllersLine = `[+]controllers ok (${controllers.describe()})`;
    lines.push(waiting.length ? `[-]parts not ready: ${waiting.join(', ')}` : controllersLine);
    const ok = !storage && waiting.length === 0;
    // Failed checks are always itemised (what the probe's reader needs); a pass only with ?verbose.
    const itemised = `${lines.join('\n')}\nreadyz check ${ok ? 'passed' : 'failed'}\n`;
    const body = ok && !url.searchParams.has('verbose') ? 'ok' : itemised;
    const headers = { 'content-type': 'text/plain; charset=utf-8', 'x-content-type-options': 'nosniff' };
    res.writeHead(ok ? 200 : 503, headers).end(body);
    return true;
  };
}

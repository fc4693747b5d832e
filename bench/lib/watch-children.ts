import { request } from 'node:http';

/**
 * Records when each `item-<i>-child` ConfigMap first appears, through a watch in the bench process,
 * so arrival times share a clock with the creates that caused them.
 */
export function watchChildren(base: string): { childAt: Map<number, number>; close(): void } {
  const childAt = new Map<number, number>();
  const watch = request(`${base}/api/v1/namespaces/default/configmaps?watch=true`, (res) => {
    let buf = '';
    res.setEncoding('utf8');
    res.on('data', (d: string) => {
      buf += d;
      let nl: number;
      while ((nl = buf.indexOf('\n')) >= 0) {
        const m = /"name":"item-(\d+)-child"/.exec(buf.slice(0, nl));
        buf = buf.slice(nl + 1);
        if (m && !childAt.has(Number(m[1]))) childAt.set(Number(m[1]), performance.now());
      }
    });
  });
  watch.on('error', () => undefined);
  watch.end();
  return { childAt, close: () => watch.destroy() };
}

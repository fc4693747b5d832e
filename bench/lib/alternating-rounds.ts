// Two sides of one measurement on one server, in alternating rounds so neither side gets all the
// warm-up: each round creates `perRound` Items in the side's namespace and waits until the Flow
// there has made a child for each (children counted as the server stores them, in-process). The
// order flips every round (A B, B A, A B …) so a drift of the machine's speed (other work, a GC)
// lands on both sides, and the ratio is the median of the rounds' own ratios: one slow round moves
// it less than it moves the totals.
import type { ApiServer } from '../../src/apiserver/index.js';
import type { JsonObject } from '../../src/apiserver/registry/types.js';
import type { KubeClient } from '../../src/kube/client.js';
import type { KubeObject } from '../../src/kube/types.js';

/** The one-step Flow each side runs: an Item of its namespace gets a ConfigMap child. */
export { itemFlow } from './item-flow.js';

/** ConfigMaps created per namespace, counted as the server stores them, in-process: no polling load on it. */
export function childCounter(server: ApiServer): (namespace: string) => number {
  const children = new Map<string, number>();
  server.objects.onWrite((t, e, obj: JsonObject) => {
    if (t.plural !== 'configmaps' || e.type !== 'create') return;
    const ns = String((obj.metadata as JsonObject).namespace);
    children.set(ns, (children.get(ns) ?? 0) + 1);
  });
  return (namespace) => children.get(namespace) ?? 0;
}

export interface RoundsOptions<S extends string> {
  kube: KubeClient;
  sides: readonly S[];
  perRound: number;
  rounds: number;
  /** Concurrent creating clients. */
  clients: number;
  /** Children stored so far in a side's namespace. */
  children: (side: S) => number;
  /** Around each round of a side (e.g. open a page for it); its result is closed after. */
  around?: (side: S) => (() => void) | undefined;
}

export interface RoundsResult<S extends string> {
  /** Reconciles per second of each side over all its rounds. */
  perSec: Record<S, number>;
  /** The median over rounds of (the second side's rate ÷ the first side's) within each round. */
  ratio: number;
}

export async function alternatingRounds<S extends string>(o: RoundsOptions<S>): Promise<RoundsResult<S>> {
  const seconds = Object.fromEntries(o.sides.map((s) => [s, 0])) as Record<S, number>;
  const ratios: number[] = [];
  const deadline = Date.now() + 600_000;
  for (let round = 0; round < o.rounds; round++) {
    const took = {} as Record<S, number>;
    for (const side of round % 2 === 0 ? o.sides : [...o.sides].reverse()) {
      const close = o.around?.(side);
      const target = o.children(side) + o.perRound;
      const t0 = performance.now();
      let next = 0;
      await Promise.all(
        Array.from({ length: o.clients }, async () => {
          while (next < o.perRound) {
            const i = round * o.perRound + next++;
            await o.kube.create({
              apiVersion: 'bench.flowops.io/v1',
              kind: 'Item',
              metadata: { name: `item-${i}`, namespace: side },
              spec: { size: i },
            } as KubeObject);
          }
        }),
      );
      while (o.children(side) < target) {
        if (Date.now() > deadline) throw new Error(`${side}: ${o.children(side)}/${target} children`);
        await new Promise((r) => setTimeout(r, 10));
      }
      took[side] = (performance.now() - t0) / 1000;
      seconds[side] += took[side];
      close?.();
    }
    const [first, second] = o.sides as readonly [S, S];
    ratios.push(took[first] / took[second]);
  }
  const total = o.perRound * o.rounds;
  const sorted = [...ratios].sort((a, b) => a - b);
  const mid = sorted.length / 2;
  const ratio = sorted.length % 2 ? sorted[Math.floor(mid)]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  return { perSec: Object.fromEntries(o.sides.map((s) => [s, total / seconds[s]])) as Record<S, number>, ratio };
}

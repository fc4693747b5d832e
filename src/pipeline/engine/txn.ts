// Events are atomic: every stateful structure records how to undo each change it makes, and a
// failing event rolls all of them back. (The original keeps whatever state processing reached,
// which can leave its caches and operators disagreeing; spec §4.5.)
//
// Map changes, by far the most frequent, are logged as flat (map, key, previous) triples rather
// than closures, so that loading a large initial list does not allocate millions of functions.

const ABSENT: unique symbol = Symbol('absent');
const CALL: unique symbol = Symbol('call');

export class Txn {
  private readonly log: unknown[] = [];

  record(undo: () => void): void {
    this.log.push(CALL, undo, undefined);
  }

  /** Remembers `map[key]` as it is now. */
  recordMap<K, V>(map: Map<K, V>, key: K): void {
    this.log.push(map, key, map.has(key) ? map.get(key) : ABSENT);
  }

  rollback(): void {
    const log = this.log;
    for (let i = log.length - 3; i >= 0; i -= 3) {
      const [target, a, b] = [log[i], log[i + 1], log[i + 2]];
      if (target === CALL) (a as () => void)();
      else if (b === ABSENT) (target as Map<unknown, unknown>).delete(a);
      else (target as Map<unknown, unknown>).set(a, b);
    }
    log.length = 0;
  }
}

/** Map.set with undo. */
export function txSet<K, V>(txn: Txn, map: Map<K, V>, key: K, value: V): void {
  txn.recordMap(map, key);
  map.set(key, value);
}

/** Map.delete with undo. */
export function txDelete<K, V>(txn: Txn, map: Map<K, V>, key: K): void {
  if (!map.has(key)) return;
  txn.recordMap(map, key);
  map.delete(key);
}

/**
 * controller.slowStartBatch: run `count` calls in batches of 1, 2, 4, … in parallel, stopping after
 * a batch with a failure, so a create that is refused (a quota, a bad template) fails once rather
 * than a thousand times, while a large scale-up still goes out in about log2(count) round trips.
 */
export async function slowStartBatch(count: number, call: (i: number) => Promise<void>): Promise<void> {
  let done = 0;
  for (let size = 1; done < count; size *= 2) {
    const n = Math.min(size, count - done);
    const results = await Promise.allSettled(Array.from({ length: n }, (_, i) => call(done + i)));
    done += n;
    const failure = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failure) throw failure.reason;
  }
}

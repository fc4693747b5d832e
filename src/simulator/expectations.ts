/** How long a create or delete may go unobserved before the controller stops waiting for it. */
const EXPECTATION_TTL_MS = 30_000;

/**
 * client-go's ControllerExpectations, by name: the pods a controller created or deleted that its
 * cache has not shown yet. While any are pending it must not count pods again, or a lagging cache
 * makes it create (or delete) the same replicas twice.
 */
export class Expectations {
  private readonly pending = new Map<string, Map<string, number>>();

  expect(ownerKey: string, objectName: string): void {
    let m = this.pending.get(ownerKey);
    if (!m) this.pending.set(ownerKey, (m = new Map()));
    m.set(objectName, Date.now() + EXPECTATION_TTL_MS);
  }

  /** The cache now shows the create or the delete (or the call failed and nothing will come). */
  observed(ownerKey: string, objectName: string): void {
    const m = this.pending.get(ownerKey);
    if (!m) return;
    m.delete(objectName);
    if (!m.size) this.pending.delete(ownerKey);
  }

  satisfied(ownerKey: string): boolean {
    const m = this.pending.get(ownerKey);
    if (!m) return true;
    const now = Date.now();
    for (const [name, until] of m) if (until <= now) m.delete(name);
    if (!m.size) this.pending.delete(ownerKey);
    return !m.size;
  }

  forget(ownerKey: string): void {
    this.pending.delete(ownerKey);
  }
}

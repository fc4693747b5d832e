import { SimulatorError } from './errors.js';
/** Hands out pod IPs from 10.244.0.0/16 (kind's and flannel's default pod CIDR), one per pod uid, reused after the pod goes. */
export class PodIpAllocator {
  private readonly byUid = new Map<string, string>();
  private readonly used = new Set<string>();
  private next = 0;
  private static readonly SIZE = 65_534;

  /** A pod found already running (after a restart) keeps its address. */
  reserve(uid: string, ip: string): void {
    if (!ip.startsWith('10.244.') || this.byUid.has(uid)) return;
    this.byUid.set(uid, ip);
    this.used.add(ip);
  }

  ipFor(uid: string): string {
    const known = this.byUid.get(uid);
    if (known) return known;
    for (let i = 0; i < PodIpAllocator.SIZE; i++) {
      const n = (this.next + i) % PodIpAllocator.SIZE;
      // Skip 10.244.0.0 (network) and .1 (the bridge's own address on a real node).
      const ip = `10.244.${Math.floor((n + 2) / 256)}.${(n + 2) % 256}`;
      if (this.used.has(ip)) continue;
      this.next = n + 1;
      this.used.add(ip);
      this.byUid.set(uid, ip);
      return ip;
    }
    throw new SimulatorError('PodCidrExhausted', 'pod CIDR 10.244.0.0/16 exhausted');
  }

  release(uid: string): void {
    const ip = this.byUid.get(uid);
    if (!ip) return;
    this.byUid.delete(uid);
    this.used.delete(ip);
  }
}

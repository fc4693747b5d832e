import { ApiServerSetupError } from '../errors.js';
/**
 * An IPv4 service CIDR (`--service-cidr`, kube-apiserver's default 10.96.0.0/12) and the addresses
 * the cluster IP allocator may hand out from it: all but the network and broadcast addresses
 * (pkg/registry/core/service/ipallocator), and the first of them, which is the `kubernetes`
 * Service's.
 */
export class ServiceCidr {
  readonly base: number;
  readonly size: number;

  constructor(readonly cidr: string) {
    const m = /^(\d{1,3}(?:\.\d{1,3}){3})\/(\d{1,2})$/.exec(cidr);
    const base = m ? parseIPv4(m[1]!) : undefined;
    const bits = m ? Number(m[2]) : NaN;
    if (base === undefined || !(bits >= 8 && bits <= 30)) {
      throw new ApiServerSetupError(
        'InvalidServiceCidr',
        `--service-cidr: expected an IPv4 CIDR with a prefix of 8 to 30 bits (such as 10.96.0.0/12), got ${JSON.stringify(cidr)}`,
      );
    }
    this.size = 2 ** (32 - bits);
    if (base % this.size !== 0)
      throw new ApiServerSetupError(
        'InvalidServiceCidr',
        `--service-cidr: ${cidr} is not a network address (host bits are set)`,
      );
    this.base = base;
  }

  /** The `kubernetes` Service's address: the first usable one. */
  get apiServerIP(): string {
    return formatIPv4(this.base + 1);
  }

  /** Whether the allocator may hand out or accept this address (network and broadcast excluded). */
  contains(ip: string): boolean {
    const n = parseIPv4(ip);
    return n !== undefined && n > this.base && n < this.base + this.size - 1;
  }

  /** The usable addresses as offsets 1 … size-2 from the network address. */
  at(offset: number): string {
    return formatIPv4(this.base + offset);
  }
}

export function parseIPv4(ip: string): number | undefined {
  const parts = ip.split('.');
  if (parts.length !== 4) return undefined;
  let n = 0;
  for (const p of parts) {
    // Go's net.ParseIP refuses leading zeros, as does netutils.
    if (!/^(0|[1-9]\d{0,2})$/.test(p) || Number(p) > 255) return undefined;
    n = n * 256 + Number(p);
  }
  return n;
}

export function formatIPv4(n: number): string {
  return [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.');
}

// Go's net.ParseIP as k8s.io/utils/net's ParseIPSloppy calls it (IPv4 parts may have leading zeros), and the
// net.IP predicates kube-apiserver's IP checks use (IsUnspecified, IsLoopback, IsLinkLocalUnicast,
// IsLinkLocalMulticast, To4). Node's net.isIP is stricter than Go about IPv4 and reads zones Go refuses.

/** An address as Go holds it: 16 bytes, an IPv4 address as its IPv4-mapped IPv6 form. */
export type GoIP = Uint8Array;

const V4_PREFIX = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff];

function parseV4(s: string): number[] | undefined {
  const parts = s.split('.');
  if (parts.length !== 4) return undefined;
  const bytes: number[] = [];
  for (const p of parts) {
    if (!/^\d{1,3}$/.test(p)) return undefined;
    const n = Number(p);
    if (n > 255) return undefined;
    bytes.push(n);
  }
  return bytes;
}

function parseV6(s: string): number[] | undefined {
  let tail: number[] = [];
  let text = s;
  // An embedded IPv4 address ends the text (`::ffff:1.2.3.4`).
  const lastColon = text.lastIndexOf(':');
  if (text.slice(lastColon + 1).includes('.')) {
    const v4 = parseV4(text.slice(lastColon + 1));
    if (!v4 || lastColon < 0) return undefined;
    tail = v4;
    text = text.slice(0, lastColon + 1);
    if (!text.endsWith('::')) text = text.slice(0, -1);
  }
  const halves = text.split('::');
  if (halves.length > 2) return undefined;
  const groups = (h: string): number[] | undefined => {
    if (h === '') return [];
    const out: number[] = [];
    for (const g of h.split(':')) {
      if (!/^[0-9a-fA-F]{1,4}$/.test(g)) return undefined;
      const n = Number.parseInt(g, 16);
      out.push(n >> 8, n & 0xff);
    }
    return out;
  };
  const head = groups(halves[0] ?? '');
  const rest = halves.length === 2 ? groups(halves[1] ?? '') : [];
  if (!head || !rest) return undefined;
  const have = head.length + rest.length + tail.length;
  if (halves.length === 1) return have === 16 ? [...head, ...tail] : undefined;
  if (have >= 16) return undefined;
  return [...head, ...new Array<number>(16 - have).fill(0), ...rest, ...tail];
}

/** ParseIPSloppy: undefined where Go answers nil. */
export function parseIPSloppy(s: string): GoIP | undefined {
  if (s.includes('.') && !s.includes(':')) {
    const v4 = parseV4(s);
    return v4 ? Uint8Array.from([...V4_PREFIX, ...v4]) : undefined;
  }
  if (!s.includes(':')) return undefined;
  const v6 = parseV6(s);
  return v6 ? Uint8Array.from(v6) : undefined;
}

/** net.IP.To4() != nil: an IPv4 address, or an IPv6 one in the IPv4-mapped range. */
export const isV4 = (ip: GoIP): boolean => V4_PREFIX.every((b, i) => ip[i] === b);

const v4Byte = (ip: GoIP, i: number): number => ip[12 + i] ?? -1;

export const isUnspecified = (ip: GoIP): boolean =>
  isV4(ip) ? [0, 1, 2, 3].every((i) => v4Byte(ip, i) === 0) : ip.every((b) => b === 0);

export const isLoopback = (ip: GoIP): boolean =>
  isV4(ip) ? v4Byte(ip, 0) === 127 : ip.slice(0, 15).every((b) => b === 0) && ip[15] === 1;

export const isLinkLocalUnicast = (ip: GoIP): boolean =>
  isV4(ip) ? v4Byte(ip, 0) === 169 && v4Byte(ip, 1) === 254 : ip[0] === 0xfe && ((ip[1] ?? 0) & 0xc0) === 0x80;

export const isLinkLocalMulticast = (ip: GoIP): boolean =>
  isV4(ip)
    ? v4Byte(ip, 0) === 224 && v4Byte(ip, 1) === 0 && v4Byte(ip, 2) === 0
    : ip[0] === 0xff && ((ip[1] ?? 0) & 0x0f) === 0x02;

/** net.IP.String(): dotted IPv4, else RFC 5952 IPv6 (the longest run of two or more zero groups as `::`). */
export function ipString(ip: GoIP): string {
  if (isV4(ip)) return [0, 1, 2, 3].map((i) => v4Byte(ip, i)).join('.');
  const groups = Array.from({ length: 8 }, (_, i) => ((ip[2 * i] ?? 0) << 8) | (ip[2 * i + 1] ?? 0));
  let best = -1;
  let bestLen = 1;
  for (let i = 0; i < 8; ) {
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > bestLen) [best, bestLen] = [i, j - i];
    i = j > i ? j : i + 1;
  }
  const hex = (g: number[]): string => g.map((n) => n.toString(16)).join(':');
  if (best < 0) return hex(groups);
  return `${hex(groups.slice(0, best))}::${hex(groups.slice(best + bestLen))}`;
}

/** What netip.ParseAddr refuses that ParseIPSloppy reads: an IPv4 part with a leading 0. */
export const hasLeadingZeros = (s: string): boolean =>
  (s.split(':').at(-1) ?? '').split('.').some((p) => s.includes('.') && p.length > 1 && p.startsWith('0'));

/** The family of an IP ParseIPSloppy reads, told by its text. */
export function ipFamily(s: string): 4 | 6 | undefined {
  if (!parseIPSloppy(s)) return undefined;
  return s.includes(':') ? 6 : 4;
}

/** The family of a CIDR ParseCIDRSloppy reads (a prefix length within its address's width), or undefined. */
export function cidrFamily(s: string): 4 | 6 | undefined {
  const slash = s.indexOf('/');
  if (slash < 0) return undefined;
  const addr = s.slice(0, slash);
  const mask = s.slice(slash + 1);
  const v4 = addr.includes('.') && !addr.includes(':');
  if (!parseIPSloppy(addr) || !/^\d+$/.test(mask)) return undefined;
  return Number(mask) <= (v4 ? 32 : 128) ? (v4 ? 4 : 6) : undefined;
}

/**
 * netutils.IsDualStackIPStrings / IsDualStackCIDRStrings with the bound of two that ValidateNode and
 * validatePodIPs add: the index of the first entry it cannot parse (-1 for none, upstream's error), and
 * whether the list holds at most one entry of each family.
 */
export function familyCheck(families: Array<4 | 6 | undefined>): { unparsed: number; oneOfEach: boolean } {
  const unparsed = families.indexOf(undefined);
  const dualStack = unparsed < 0 && families.includes(4) && families.includes(6);
  return { unparsed, oneOfEach: dualStack && families.length <= 2 };
}

// validation/go-ip.ts reads addresses as Go's net.ParseIP via ParseIPSloppy does, which Node's net.isIP does not.
import { describe, expect, it } from 'vitest';
import {
  hasLeadingZeros,
  ipString,
  isLinkLocalMulticast,
  isLinkLocalUnicast,
  isLoopback,
  isUnspecified,
  isV4,
  parseIPSloppy,
} from '../../src/apiserver/validation/go-ip.js';

const kinds = (s: string): string[] | 'nil' => {
  const ip = parseIPSloppy(s);
  if (!ip) return 'nil';
  const named: Array<[string, boolean]> = [
    ['v4', isV4(ip)],
    ['unspecified', isUnspecified(ip)],
    ['loopback', isLoopback(ip)],
    ['link-local', isLinkLocalUnicast(ip)],
    ['link-local multicast', isLinkLocalMulticast(ip)],
  ];
  return named.filter(([, on]) => on).map(([n]) => n);
};

describe('parseIPSloppy and the net.IP predicates', () => {
  it('reads IPv4 with leading zeros and IPv4-mapped IPv6 as IPv4, as Go does', () => {
    expect(kinds('010.0.0.1')).toEqual(['v4']);
    expect(kinds('::ffff:1.2.3.4')).toEqual(['v4']);
    expect(kinds('1:2:3:4:5:6:1.2.3.4')).toEqual([]);
  });

  it('refuses what Go refuses', () => {
    for (const s of ['10.0.0.1x', '256.1.1.1', '1', 'x', '1::2::3', '1:2:3:4:5:6:7:8:9', 'fe80::1%eth0'])
      expect(kinds(s), s).toBe('nil');
  });

  it('names the ranges ValidateEndpointIP refuses', () => {
    expect(kinds('0.0.0.0')).toEqual(['v4', 'unspecified']);
    expect(kinds('::')).toEqual(['unspecified']);
    expect(kinds('127.9.9.9')).toEqual(['v4', 'loopback']);
    expect(kinds('::1')).toEqual(['loopback']);
    expect(kinds('169.254.1.1')).toEqual(['v4', 'link-local']);
    expect(kinds('fe80::1')).toEqual(['link-local']);
    expect(kinds('224.0.0.5')).toEqual(['v4', 'link-local multicast']);
    expect(kinds('ff02::1')).toEqual(['link-local multicast']);
    expect(kinds('2001:db8::1')).toEqual([]);
  });

  it('prints an address as net.IP.String does, the form IsValidIP requires', () => {
    const str = (s: string): string => {
      const ip = parseIPSloppy(s);
      return ip ? ipString(ip) : 'nil';
    };
    expect(str('2001:DB8:0:0:0:0:0:1')).toBe('2001:db8::1');
    expect(str('1:0:0:2:0:0:0:3')).toBe('1:0:0:2::3');
    expect(str('1:0:0:2:0:0:3:4')).toBe('1::2:0:0:3:4');
    expect(str('1:0:2:3:4:5:6:7')).toBe('1:0:2:3:4:5:6:7');
    expect(str('::ffff:1.2.3.4')).toBe('1.2.3.4');
    expect(hasLeadingZeros('010.0.0.1')).toBe(true);
    expect(hasLeadingZeros('10.0.0.1')).toBe(false);
  });
});

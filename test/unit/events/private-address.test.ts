/**
 * What FOLIO_WEBHOOK_DENY_PRIVATE counts as not public: every IPv4 and IPv6 special-purpose
 * range a webhook has no business reaching, including IPv6 forms that carry an IPv4 address.
 */
import { describe, expect, it } from 'bun:test';
import { literalAddress, nonPublicAddress, refuseNonPublic } from '../../../src/events/private-address';

describe('non-public addresses', () => {
  it('names the kind of every loopback, private, link-local, shared, unspecified, multicast and reserved IPv4 address', () => {
    const cases: [string, string][] = [
      ['127.0.0.1', 'loopback'],
      ['127.255.255.254', 'loopback'],
      ['10.0.0.1', 'private'],
      ['172.16.0.1', 'private'],
      ['172.31.255.255', 'private'],
      ['192.168.1.1', 'private'],
      ['169.254.169.254', 'link-local'],
      ['100.64.0.1', 'shared (carrier-grade NAT)'],
      ['100.127.255.255', 'shared (carrier-grade NAT)'],
      ['0.0.0.0', '"this network"'],
      ['0.1.2.3', '"this network"'],
      ['224.0.0.1', 'multicast'],
      ['255.255.255.255', 'reserved'],
      ['240.0.0.1', 'reserved'],
      ['192.0.0.8', 'reserved'],
      ['192.0.2.1', 'documentation'],
      ['198.51.100.1', 'documentation'],
      ['203.0.113.1', 'documentation'],
      ['198.18.0.1', 'benchmarking'],
    ];
    expect(cases.map(([ip]) => [ip, nonPublicAddress(ip)])).toEqual(cases);
  });

  it('names IPv6 loopback, unspecified, unique local, link-local, site-local and multicast addresses, and judges embedded IPv4 by that address', () => {
    const cases: [string, string][] = [
      ['::1', 'loopback'],
      ['0:0:0:0:0:0:0:1', 'loopback'],
      ['::', 'unspecified'],
      ['fc00::1', 'private (unique local)'],
      ['fd12:3456::1', 'private (unique local)'],
      ['fe80::1', 'link-local'],
      ['fe80::1%eth0', 'link-local'],
      ['febf::1', 'link-local'],
      ['fec0::1', 'site-local (private)'],
      ['ff02::1', 'multicast'],
      ['2001:db8::1', 'documentation'],
      // IPv4-mapped, in both spellings, and IPv4-compatible
      ['::ffff:127.0.0.1', 'loopback'],
      ['::ffff:7f00:1', 'loopback'],
      ['::ffff:a9fe:a9fe', 'link-local'],
      ['0:0:0:0:0:ffff:a00:1', 'private'],
      ['::127.0.0.1', 'loopback'],
      ['::8.8.8.8', 'reserved'],
      // NAT64 and 6to4 around private IPv4 addresses
      ['64:ff9b::10.0.0.1', 'private'],
      ['64:ff9b:1::1', 'private'],
      ['2002:c0a8:101::1', 'private'],
      ['2002:7f00:1::', 'loopback'],
      ['[::1]', 'loopback'],
    ];
    expect(cases.map(([ip]) => [ip, nonPublicAddress(ip)])).toEqual(cases);
  });

  it('lets public addresses through, and refuses text that is no address', () => {
    for (const ip of [
      '8.8.8.8',
      '1.1.1.1',
      '172.32.0.1',
      '100.128.0.1',
      '169.253.0.1',
      '11.0.0.1',
      '2606:4700:4700::1111',
      '2a00:1450::1',
      '::ffff:8.8.8.8',
      '64:ff9b::808:808',
      '2002:808:808::1',
    ]) {
      expect([ip, nonPublicAddress(ip)]).toEqual([ip, undefined]);
    }
    for (const text of ['localhost', '1::2::3', '1:2:3:4:5:6:7:8:9', '256.0.0.1', '']) expect(nonPublicAddress(text)).toBe('unrecognised');
  });

  it('reads a URL host as an address only when it is one, and words a refusal', () => {
    expect(['127.0.0.1', '[::1]', 'localhost', 'example.com', '[::ffff:7f00:1]'].map((h) => literalAddress(new URL(`http://${h}/`).hostname))).toEqual([
      '127.0.0.1',
      '::1',
      undefined,
      undefined,
      '::ffff:7f00:1',
    ]);
    // The URL parser turns the odd IPv4 spellings into the usual one first.
    expect(literalAddress(new URL('http://0x7f.1/').hostname)).toBe('127.0.0.1');
    expect(literalAddress(new URL('http://2130706433/').hostname)).toBe('127.0.0.1');
    expect(refuseNonPublic('127.0.0.1')).toBe('a loopback address (FOLIO_WEBHOOK_DENY_PRIVATE)');
    expect(refuseNonPublic('fd00::1')).toBe('a private (unique local) address (FOLIO_WEBHOOK_DENY_PRIVATE)');
    expect(refuseNonPublic('8.8.8.8')).toBeUndefined();
  });
});

import { describe, expect, it } from 'vitest';
import { classifyIp, parseIpv4, parseIpv6 } from './ip.js';

describe('parseIpv4', () => {
  it('reads every spelling the URL standard accepts', () => {
    const loopback = 0x7f000001;
    for (const text of [
      '127.0.0.1',
      '127.1',
      '127.0.1',
      '2130706433',
      '0x7f000001',
      '0177.0.0.1',
      '0x7f.1',
      '127.0.0.1.',
    ]) {
      expect(parseIpv4(text)).toBe(loopback);
    }
  });

  it('rejects names and out-of-range parts', () => {
    for (const text of [
      'example.com',
      '256.0.0.1',
      '1.2.3.4.5',
      '1.2.3.256',
      '08.1.1.1',
      '0xg.1',
      '',
      '4294967296',
    ]) {
      expect(parseIpv4(text)).toBeNull();
    }
  });
});

describe('parseIpv6', () => {
  it('expands :: and folds a trailing IPv4', () => {
    expect(parseIpv6('::1')).toEqual([0, 0, 0, 0, 0, 0, 0, 1]);
    expect(parseIpv6('::')).toEqual([0, 0, 0, 0, 0, 0, 0, 0]);
    expect(parseIpv6('::ffff:127.0.0.1')).toEqual([0, 0, 0, 0, 0, 0xffff, 0x7f00, 1]);
    expect(parseIpv6('fe80::1:2')).toEqual([0xfe80, 0, 0, 0, 0, 0, 1, 2]);
    expect(parseIpv6('1:2:3:4:5:6:7:8')).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  });

  it('rejects malformed text', () => {
    for (const text of ['1::2::3', '1:2:3', '12345::', 'g::1', '1:2:3:4:5:6:7:8:9', '::1.2.3', '1.2.3.4::']) {
      expect(parseIpv6(text)).toBeNull();
    }
  });
});

describe('classifyIp', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.32.0.1', 'public'],
    ['192.168.0.1', 'private'],
    ['169.254.0.1', 'link-local'],
    ['169.254.169.254', 'metadata'],
    ['100.64.0.1', 'shared'],
    ['100.63.255.255', 'public'],
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'reserved'],
    ['224.0.0.1', 'reserved'],
    ['8.8.8.8', 'public'],
    ['[::1]', 'loopback'],
    ['[::]', 'unspecified'],
    ['[::ffff:7f00:1]', 'loopback'],
    ['[::ffff:808:808]', 'public'],
    ['[fc00::1]', 'unique-local'],
    ['[fdff::1]', 'unique-local'],
    ['[fe80::1]', 'link-local'],
    ['[ff02::1]', 'reserved'],
    ['[2001:0:4136:e378:8000:63bf:80ff:fffe]', 'loopback'],
    ['[2606:4700::1111]', 'public'],
    ['fe80::1', 'link-local'],
  ])('%s is %s', (host, expected) => {
    expect(classifyIp(host)).toBe(expected);
  });

  it('returns null for names', () => {
    expect(classifyIp('example.com')).toBeNull();
    expect(classifyIp('[not-an-ip]')).toBeNull();
  });
});

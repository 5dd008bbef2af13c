import { describe, expect, it } from 'vitest';
import { checkEgress, type EgressPolicy } from './egress.js';

/** Hostile URLs: every one must be refused by the default policy, whatever the spelling. */
const hostile: Array<[url: string, reason: string]> = [
  ['http://localhost/', 'private-network'],
  ['http://LOCALHOST:8080/admin', 'private-network'],
  ['http://localhost./', 'private-network'],
  ['http://api.localhost/', 'private-network'],
  ['http://ｌｏｃａｌｈｏｓｔ/', 'private-network'],
  ['http://127.0.0.1/', 'private-network'],
  ['http://127.0.0.1./', 'private-network'],
  ['http://127.255.255.254/', 'private-network'],
  ['http://127.1/', 'private-network'],
  ['http://2130706433/', 'private-network'],
  ['http://017700000001/', 'private-network'],
  ['http://0177.0.0.1/', 'private-network'],
  ['http://0x7f.1/', 'private-network'],
  ['http://0x7f000001/', 'private-network'],
  ['http://%31%32%37.0.0.1/', 'private-network'],
  ['http://0.0.0.0/', 'private-network'],
  ['http://0/', 'private-network'],
  ['http://[::1]/', 'private-network'],
  ['http://[::]/', 'private-network'],
  ['http://[0:0:0:0:0:0:0:1]/', 'private-network'],
  ['http://[::ffff:127.0.0.1]/', 'private-network'],
  ['http://[::ffff:7f00:1]/', 'private-network'],
  ['http://[::127.0.0.1]/', 'private-network'],
  ['http://[::ffff:10.0.0.1]/', 'private-network'],
  ['http://[64:ff9b::7f00:1]/', 'private-network'],
  ['http://[2002:7f00:1::]/', 'private-network'],
  ['http://10.0.0.1/', 'private-network'],
  ['http://10.255.255.255/', 'private-network'],
  ['http://172.16.0.1/', 'private-network'],
  ['http://172.31.255.255/', 'private-network'],
  ['http://192.168.1.1/', 'private-network'],
  ['http://0xc0.0xa8.1.1/', 'private-network'],
  ['http://169.254.1.1/', 'private-network'],
  ['http://100.64.0.1/', 'private-network'],
  ['http://100.127.255.255/', 'private-network'],
  ['http://[fc00::1]/', 'private-network'],
  ['http://[fd12:3456::1]/', 'private-network'],
  ['http://[fe80::1]/', 'private-network'],
  ['http://[febf::1]/', 'private-network'],
  ['http://224.0.0.1/', 'private-network'],
  ['http://255.255.255.255/', 'private-network'],
  ['http://intranet/', 'private-network'],
  ['http://printer.local/', 'private-network'],
  ['http://db.internal/', 'private-network'],
  ['http://good.com@127.0.0.1/', 'private-network'],
  ['http://good.com:pass@[::1]:80/', 'private-network'],
  ['http://169.254.169.254/latest/meta-data/', 'metadata'],
  ['http://0xa9fea9fe/', 'metadata'],
  ['http://2852039166/', 'metadata'],
  ['http://[::ffff:169.254.169.254]/', 'metadata'],
  ['http://[fd00:ec2::254]/', 'metadata'],
  ['http://metadata.google.internal/computeMetadata/v1/', 'metadata'],
  ['http://metadata.google.internal./', 'metadata'],
  ['http://100.100.100.200/', 'metadata'],
  ['file:///etc/passwd', 'scheme'],
  ['ftp://example.com/', 'scheme'],
  ['javascript:alert(1)', 'scheme'],
  ['data:text/plain,hi', 'scheme'],
  ['gopher://example.com:70/', 'scheme'],
  ['ws://example.com/', 'scheme'],
  ['/relative/path', 'invalid-url'],
  ['http://', 'invalid-url'],
  ['http://user:hunter2@example.com/', 'userinfo'],
];

describe('checkEgress: hostile URLs under the default policy', () => {
  it('holds a corpus of at least 30 hostile URLs', () => {
    expect(hostile.length).toBeGreaterThanOrEqual(30);
  });

  it.each(hostile)('refuses %s (%s)', (url, reason) => {
    const verdict = checkEgress(url, {});
    expect(verdict.ok).toBe(false);
    if (verdict.ok) return;
    expect(verdict.error.kind).toBe('policy-refused');
    expect(verdict.error.details?.reason).toBe(reason);
    expect(verdict.error.details?.policy).toBe('egress');
    expect(verdict.error.message).toMatch(/^Egress refused: .{20,}/);
    if (reason !== 'invalid-url') expect(typeof verdict.error.details?.host).toBe('string');
  });

  it('never echoes the path, query or password of a refused URL', () => {
    for (const url of [
      'http://127.0.0.1/secret-path?token=s3cr3t',
      'http://user:s3cr3t@example.com/?token=s3cr3t',
      'ftp://example.com/s3cr3t?token=s3cr3t',
    ]) {
      const verdict = checkEgress(url, {});
      expect(verdict.ok).toBe(false);
      expect(JSON.stringify(verdict)).not.toContain('s3cr3t');
    }
  });
});

describe('checkEgress: what passes', () => {
  it.each([
    'https://example.com/',
    'http://example.com:8080/path?q=1',
    'https://api.example.com./v1',
    'http://93.184.216.34/',
    'http://8.8.8.8/',
    'http://172.32.0.1/',
    'http://100.128.0.1/',
    'http://[2606:4700::1111]/',
    'http://[::ffff:8.8.8.8]/',
    'https://bücher.example/',
  ])('allows %s by default', (url) => {
    const verdict = checkEgress(url);
    expect(verdict.ok).toBe(true);
    if (verdict.ok) expect(verdict.url).toBeInstanceOf(URL);
  });

  it('accepts a URL object and returns the parsed URL', () => {
    const verdict = checkEgress(new URL('https://example.com/a?b=c'), {});
    expect(verdict.ok && verdict.url.href).toBe('https://example.com/a?b=c');
  });
});

describe('checkEgress: domain lists', () => {
  const policy: EgressPolicy = { allowedDomains: ['example.com', '*.service.test', 'Bücher.example'] };

  it('allows listed domains and their subdomains on label boundaries only', () => {
    expect(checkEgress('https://example.com/', policy).ok).toBe(true);
    expect(checkEgress('https://api.example.com/', policy).ok).toBe(true);
    expect(checkEgress('https://deep.api.example.com./', policy).ok).toBe(true);
    expect(checkEgress('https://x.service.test/', policy).ok).toBe(true);
    expect(checkEgress('https://xn--bcher-kva.example/', policy).ok).toBe(true);
    for (const url of ['https://badexample.com/', 'https://example.com.evil.net/', 'https://other.org/']) {
      const verdict = checkEgress(url, policy);
      expect(verdict.ok).toBe(false);
      if (!verdict.ok) {
        expect(verdict.error.details?.reason).toBe('not-allowed-domain');
        expect(verdict.error.message).toContain('allowedDomains');
      }
    }
  });

  it('lets nothing pass an empty allow list', () => {
    const verdict = checkEgress('https://example.com/', { allowedDomains: [] });
    expect(!verdict.ok && verdict.error.details?.reason).toBe('not-allowed-domain');
  });

  it('checks blockedDomains before allowedDomains', () => {
    const both: EgressPolicy = { allowedDomains: ['example.com'], blockedDomains: ['admin.example.com'] };
    expect(checkEgress('https://www.example.com/', both).ok).toBe(true);
    const verdict = checkEgress('https://x.ADMIN.example.com/', both);
    expect(verdict.ok).toBe(false);
    if (!verdict.ok) {
      expect(verdict.error.details).toMatchObject({ reason: 'blocked-domain', host: 'x.admin.example.com' });
      expect(verdict.error.message).toContain('blockedDomains');
    }
  });

  it('still refuses private addresses that are listed as allowed', () => {
    const verdict = checkEgress('http://127.0.0.1/', { allowedDomains: ['127.0.0.1'] });
    expect(!verdict.ok && verdict.error.details?.reason).toBe('private-network');
  });
});

describe('checkEgress: allowPrivateNetwork', () => {
  const dev: EgressPolicy = { allowPrivateNetwork: true };

  it('opens loopback and private networks for local development', () => {
    expect(checkEgress('http://localhost:3000/', dev).ok).toBe(true);
    expect(checkEgress('http://192.168.1.10/', dev).ok).toBe(true);
    expect(checkEgress('http://[::1]/', dev).ok).toBe(true);
  });

  it('never opens cloud metadata services', () => {
    for (const url of [
      'http://169.254.169.254/',
      'http://metadata.google.internal/',
      'http://[fd00:ec2::254]/',
    ]) {
      const verdict = checkEgress(url, dev);
      expect(!verdict.ok && verdict.error.details?.reason).toBe('metadata');
    }
  });

  it('explains how to open the private network in the refusal', () => {
    const verdict = checkEgress('http://10.1.2.3/', {});
    expect(!verdict.ok && verdict.error.message).toContain('allowPrivateNetwork');
  });
});

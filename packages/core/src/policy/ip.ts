/**
 * What kind of network an IP address belongs to, for the egress policy. `public` is the only class
 * a guarded fetch reaches by default; `metadata` (cloud instance-metadata services) is never
 * reached, whatever the policy says.
 */
export type IpClass =
  | 'public'
  | 'loopback'
  | 'private'
  | 'link-local'
  | 'shared'
  | 'unique-local'
  | 'unspecified'
  | 'reserved'
  | 'metadata';

/**
 * Classifies an IP literal as it appears in a URL's `hostname` (IPv6 in brackets or bare). Any
 * IPv4 spelling the WHATWG URL parser accepts is understood (decimal, octal, hex, short forms),
 * and IPv6 forms that embed an IPv4 address (mapped, compatible, NAT64, 6to4, Teredo) are judged
 * by the address they embed. Returns `null` when the host is not an IP literal.
 */
export function classifyIp(host: string): IpClass | null {
  if (host.startsWith('[') && host.endsWith(']')) {
    const groups = parseIpv6(host.slice(1, -1));
    return groups ? classifyIpv6(groups) : null;
  }
  const v4 = parseIpv4(host);
  if (v4 !== null) return classifyIpv4(v4);
  const groups = host.includes(':') ? parseIpv6(host) : null;
  return groups ? classifyIpv6(groups) : null;
}

/** IPv4 as an unsigned 32-bit number, parsed the way the WHATWG URL standard does; null if not IPv4. */
export function parseIpv4(text: string): number | null {
  const parts = text.split('.');
  if (parts.length > 1 && parts[parts.length - 1] === '') parts.pop();
  if (parts.length === 0 || parts.length > 4) return null;
  const numbers: number[] = [];
  for (const part of parts) {
    const value = parseIpv4Number(part);
    if (value === null) return null;
    numbers.push(value);
  }
  const last = numbers.pop()!;
  if (numbers.some((n) => n > 255) || last >= 256 ** (5 - parts.length)) return null;
  let address = last;
  numbers.forEach((n, i) => {
    address += n * 256 ** (3 - i);
  });
  return address;
}

function parseIpv4Number(part: string): number | null {
  let digits = part;
  let radix = 10;
  if (/^0[xX]/.test(digits)) {
    digits = digits.slice(2);
    radix = 16;
    if (digits === '') return 0;
  } else if (digits.length > 1 && digits.startsWith('0')) {
    digits = digits.slice(1);
    radix = 8;
  }
  const pattern = radix === 16 ? /^[0-9a-fA-F]+$/ : radix === 8 ? /^[0-7]+$/ : /^[0-9]+$/;
  if (!pattern.test(digits)) return null;
  const value = Number.parseInt(digits, radix);
  return Number.isSafeInteger(value) ? value : null;
}

/** IPv6 as eight 16-bit groups (`::` expanded, a trailing dotted IPv4 folded in); null if not IPv6. */
export function parseIpv6(text: string): number[] | null {
  if (!/^[0-9a-fA-F:.]+$/.test(text)) return null;
  const halves = text.split('::');
  if (halves.length > 2) return null;
  const head = halves[0] ? halves[0].split(':') : [];
  const tail = halves.length === 2 && halves[1] ? halves[1].split(':') : [];
  const groups: number[] = [];
  const expand = (pieces: string[]): number[] | null => {
    const out: number[] = [];
    for (const [i, piece] of pieces.entries()) {
      if (piece.includes('.')) {
        const v4 = i === pieces.length - 1 && /^\d+(\.\d+){3}$/.test(piece) ? parseIpv4(piece) : null;
        if (v4 === null) return null;
        out.push(v4 >>> 16, v4 & 0xffff);
      } else if (/^[0-9a-fA-F]{1,4}$/.test(piece)) {
        out.push(Number.parseInt(piece, 16));
      } else {
        return null;
      }
    }
    return out;
  };
  const first = expand(head);
  const second = expand(tail);
  if (!first || !second) return null;
  if (halves.length === 2 && head.some((piece) => piece.includes('.'))) return null;
  const missing = 8 - first.length - second.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return null;
  groups.push(...first, ...new Array<number>(missing).fill(0), ...second);
  return groups;
}

const METADATA_V4 = new Set([
  ipv4(169, 254, 169, 254), // AWS, GCP, Azure, OpenStack, DigitalOcean
  ipv4(169, 254, 170, 2), // AWS ECS task metadata
  ipv4(100, 100, 100, 200), // Alibaba Cloud
  ipv4(192, 0, 0, 192), // Oracle Cloud
]);

function ipv4(a: number, b: number, c: number, d: number): number {
  return ((a << 24) >>> 0) + (b << 16) + (c << 8) + d;
}

function inV4(address: number, base: number, prefix: number): boolean {
  const size = 2 ** (32 - prefix);
  return address >= base && address < base + size;
}

function classifyIpv4(address: number): IpClass {
  if (METADATA_V4.has(address)) return 'metadata';
  if (address === 0) return 'unspecified';
  if (inV4(address, 0, 8)) return 'reserved';
  if (inV4(address, ipv4(127, 0, 0, 0), 8)) return 'loopback';
  if (inV4(address, ipv4(10, 0, 0, 0), 8)) return 'private';
  if (inV4(address, ipv4(172, 16, 0, 0), 12)) return 'private';
  if (inV4(address, ipv4(192, 168, 0, 0), 16)) return 'private';
  if (inV4(address, ipv4(169, 254, 0, 0), 16)) return 'link-local';
  if (inV4(address, ipv4(100, 64, 0, 0), 10)) return 'shared';
  if (inV4(address, ipv4(192, 0, 0, 0), 24)) return 'reserved';
  if (inV4(address, ipv4(198, 18, 0, 0), 15)) return 'reserved';
  if (address >= ipv4(224, 0, 0, 0)) return 'reserved'; // multicast, class E, broadcast
  return 'public';
}

function classifyIpv6(g: number[]): IpClass {
  const [g0 = 0, g1 = 0, g2 = 0, g3 = 0, g4 = 0, g5 = 0, g6 = 0, g7 = 0] = g;
  const embedded = (hi: number, lo: number) => classifyIpv4(((hi << 16) >>> 0) + lo);
  const zeroUpTo = (n: number) => g.slice(0, n).every((x) => x === 0);
  if (zeroUpTo(8)) return 'unspecified';
  if (zeroUpTo(7) && g7 === 1) return 'loopback';
  if (zeroUpTo(5) && g5 === 0xffff) return embedded(g6, g7); // IPv4-mapped
  if (zeroUpTo(6)) return embedded(g6, g7); // IPv4-compatible (deprecated)
  if (zeroUpTo(4) && g4 === 0xffff && g5 === 0) return embedded(g6, g7); // SIIT-translated
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0) return embedded(g6, g7);
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 1) return 'private'; // local-use NAT64
  if (g0 === 0x2002) return embedded(g1, g2); // 6to4
  if (g0 === 0x2001 && g1 === 0) return embedded(~g6 & 0xffff, ~g7 & 0xffff); // Teredo client
  if (g0 === 0xfd00 && g1 === 0x0ec2 && g2 + g3 + g4 + g5 + g6 === 0 && g7 === 0x254) {
    return 'metadata'; // AWS over IPv6
  }
  if ((g0 & 0xfe00) === 0xfc00) return 'unique-local';
  if ((g0 & 0xffc0) === 0xfe80) return 'link-local';
  if ((g0 & 0xffc0) === 0xfec0) return 'private'; // site-local (deprecated)
  if ((g0 & 0xff00) === 0xff00) return 'reserved'; // multicast
  if (g0 === 0x100 && g1 === 0 && g2 === 0 && g3 === 0) return 'reserved'; // discard-only
  return 'public';
}

import type { ErrorInfo } from '../errors.js';
import { classifyIp, type IpClass } from './ip.js';

/**
 * Where a tool's `ctx.fetch` may go. Without a policy, any public http(s) host is reachable and
 * the host's own, private, link-local and shared networks are not.
 *
 * - `blockedDomains` is checked first; `example.com` also blocks `api.example.com`.
 * - `allowedDomains`, when given, is the whole list of reachable hosts (with their subdomains).
 * - `allowPrivateNetwork` opens loopback and private addresses, for local development. Cloud
 *   metadata services (`169.254.169.254`, `metadata.google.internal`, …) stay refused regardless.
 *
 * Names are checked as written: a public name that resolves to a private address (DNS rebinding)
 * cannot be seen from web-standard code; pin `allowedDomains` where that matters.
 *
 * @example
 * ```ts
 * import { type AnyTool, createRuntime, type EgressPolicy } from '@toolctx/core';
 * declare const tools: AnyTool[];
 * const egress: EgressPolicy = { allowedDomains: ['example.com'] };
 * const runtime = createRuntime({ tools, security: { egress } });
 * ```
 */
export interface EgressPolicy {
  allowedDomains?: readonly string[];
  blockedDomains?: readonly string[];
  allowPrivateNetwork?: boolean;
}

/**
 * The outcome of {@link checkEgress}: the parsed URL to fetch, or why it was refused.
 */
export type EgressCheck = { ok: true; url: URL } | { ok: false; error: ErrorInfo };

/**
 * Why a URL was refused, as `details.reason` of the ErrorInfo (`policy: 'egress'`).
 */
export type EgressRefusalReason =
  | 'invalid-url'
  | 'scheme'
  | 'blocked-domain'
  | 'metadata'
  | 'private-network'
  | 'not-allowed-domain'
  | 'userinfo'
  // From createGuardedFetch, about redirects:
  | 'too-many-redirects'
  | 'opaque-redirect'
  | 'unreplayable-redirect';

const LOOPBACK_NAMES = new Set(['localhost', 'ip6-localhost', 'ip6-loopback']);
const METADATA_NAMES = new Set([
  'metadata',
  'metadata.google.internal',
  'metadata.goog',
  'instance-data',
  'instance-data.ec2.internal',
]);
/** Suffixes reserved for private networks: their names resolve to internal hosts. */
const PRIVATE_SUFFIXES = ['local', 'internal', 'home.arpa', 'localdomain', 'intranet', 'corp'];

/**
 * Checks a URL against an {@link EgressPolicy}. The URL is parsed with WHATWG `URL`, which already
 * turns `0177.0.0.1`, `0x7f.1`, `2130706433` and `127.1` into `127.0.0.1`; the parsed host is then
 * judged numerically, so every spelling of a refused address is refused. The refusal is an
 * ErrorInfo of kind `policy-refused` whose details name the `reason` and the `host`, never the
 * path or query string (they may carry secrets).
 */
export function checkEgress(url: string | URL, policy: EgressPolicy = {}): EgressCheck {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return refuse('invalid-url', undefined, 'the URL could not be parsed; pass an absolute http(s) URL.');
  }
  const { host, protocol } = { host: parsed.hostname, protocol: parsed.protocol };
  if (protocol !== 'http:' && protocol !== 'https:') {
    return refuse('scheme', host, `only http and https URLs may be fetched, not \`${protocol}\`.`);
  }
  const name = host.replace(/\.+$/, '');
  const blocked = matchDomain(name, normaliseDomains(policy.blockedDomains));
  if (blocked) {
    return refuse(
      'blocked-domain',
      host,
      `\`${host}\` matches \`${blocked}\` in the egress policy's blockedDomains; remove it there if tools should reach it.`,
    );
  }
  const addressClass = classifyHost(name);
  if (addressClass === 'metadata') {
    return refuse(
      'metadata',
      host,
      `\`${host}\` is a cloud metadata service, which tools may never reach: it hands out the machine's own credentials.`,
      { addressClass },
    );
  }
  if (addressClass !== 'public' && !policy.allowPrivateNetwork) {
    return refuse(
      'private-network',
      host,
      `\`${host}\` is a ${describe(addressClass)}; tools may not reach the host's own or private network. ` +
        'Set allowPrivateNetwork: true in the egress policy only for local development.',
      { addressClass },
    );
  }
  const allowed = normaliseDomains(policy.allowedDomains);
  if (policy.allowedDomains && !matchDomain(name, allowed)) {
    const shown = allowed.slice(0, 5).join(', ') + (allowed.length > 5 ? ', …' : '');
    return refuse(
      'not-allowed-domain',
      host,
      `\`${host}\` is not in the egress policy's allowedDomains (${shown || 'empty'}); add it there if tools should reach it.`,
    );
  }
  if (parsed.username || parsed.password) {
    return refuse(
      'userinfo',
      host,
      `the URL for \`${host}\` carries a user name or password; send credentials in a header instead.`,
    );
  }
  return { ok: true, url: parsed };
}

/** Classifies a host name (trailing dots removed) by the network it names. */
function classifyHost(name: string): IpClass {
  const ip = classifyIp(name);
  if (ip) return ip;
  if (METADATA_NAMES.has(name)) return 'metadata';
  if (LOOPBACK_NAMES.has(name) || name.endsWith('.localhost')) return 'loopback';
  // A single-label name is completed by the resolver's search domain: an intranet host.
  if (!name.includes('.')) return 'private';
  if (PRIVATE_SUFFIXES.some((suffix) => name.endsWith(`.${suffix}`))) return 'private';
  return 'public';
}

function describe(addressClass: IpClass): string {
  switch (addressClass) {
    case 'loopback':
      return 'loopback address';
    case 'link-local':
      return 'link-local address';
    case 'shared':
      return 'carrier-grade NAT (shared) address';
    case 'unique-local':
      return 'unique-local (private) IPv6 address';
    case 'unspecified':
      return 'unspecified address';
    case 'reserved':
      return 'reserved or multicast address';
    default:
      return 'private-network host';
  }
}

const normalised = new WeakMap<readonly string[], string[]>();

function normaliseDomains(domains: readonly string[] | undefined): string[] {
  if (!domains) return [];
  let list = normalised.get(domains);
  if (!list) {
    list = domains.map(normaliseDomain).filter((domain) => domain !== '');
    normalised.set(domains, list);
  }
  return list;
}

function normaliseDomain(domain: string): string {
  const bare = domain
    .trim()
    .replace(/^\*?\./, '')
    .replace(/\.+$/, '');
  try {
    return new URL(`http://${bare}/`).hostname.replace(/\.+$/, '');
  } catch {
    return bare.toLowerCase();
  }
}

/** The list entry that `name` equals or is a subdomain of (label boundaries only). */
function matchDomain(name: string, domains: readonly string[]): string | undefined {
  return domains.find((domain) => name === domain || name.endsWith(`.${domain}`));
}

function refuse(
  reason: EgressRefusalReason,
  host: string | undefined,
  why: string,
  extra: Record<string, unknown> = {},
): EgressCheck {
  const details: Record<string, unknown> = { policy: 'egress', reason, ...extra };
  if (host !== undefined) details.host = host;
  return {
    ok: false,
    error: { kind: 'policy-refused', message: `Egress refused: ${why}`, retryable: false, details },
  };
}

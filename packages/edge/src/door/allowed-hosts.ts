// The one Host check both doors make against DNS rebinding: a page on a name its attacker controls
// (`evil.example`), rebound to 127.0.0.1 or a private address, reaches the server with that name in
// `Host`. The HTTP door (`createToolServer`) and the MCP door (`mountMcp`, `mcpFetch`) each answer
// a refusal in their own wire format; the rule and its option, `allowedHosts`, are the same.

/** The names `wrangler dev` and a Node server on loopback are reached at: the default. */
export const loopbackHosts: readonly string[] = ['localhost', '127.0.0.1', '[::1]'];

/**
 * The `Host` header of a request this server does not serve, or `undefined` when it may go on.
 * Host names are compared without their port and case-insensitively (IPv6 in brackets), as the MCP
 * SDK's `hostHeaderValidation` does; a listed name with a port counts as the name alone. A request
 * without `Host` comes from inside the platform (a service binding, `app.request` in a test),
 * never from a browser, and passes.
 */
export function foreignHost(
  request: Request,
  allowedHosts: readonly string[] = loopbackHosts,
): string | undefined {
  const host = request.headers.get('host');
  if (host === null) return undefined;
  const key = `${host}\n${allowedHosts.join('\n')}`;
  const known = verdicts.get(key);
  if (known !== undefined || verdicts.has(key)) return known;
  const name = hostnameOf(`http://${host}`);
  const verdict = name !== undefined && hostNames(allowedHosts).includes(name) ? undefined : host;
  if (host.length > maxKeptHost) return verdict;
  if (verdicts.size >= maxVerdicts) verdicts.clear();
  verdicts.set(key, verdict);
  return verdict;
}

// A deployment sees the same few Host headers on every request, and parsing the header and each
// allowed name as URLs cost more than the rest of a call's route (40 µs a request on workerd):
// the verdicts are kept by header and list. A stranger sending many Host headers only empties it.
const verdicts = new Map<string, string | undefined>();
const maxVerdicts = 256;
// A host name is at most 253 characters, and a port 6 more: a longer header (a stranger's 30 KB
// one) is judged each time rather than kept, so the kept verdicts stay a few kilobytes.
const maxKeptHost = 260;

/** The allowed names, each as a Host header's name would read: lower case, no port. */
export function hostNames(allowedHosts: readonly string[]): string[] {
  return allowedHosts.map((host) => hostnameOf(`http://${host}`) ?? host.toLowerCase());
}

/** The host name of a URL, lower case, IPv6 in brackets; `undefined` if it does not parse. */
export function hostnameOf(url: string): string | undefined {
  try {
    return new URL(url).hostname.toLowerCase();
  } catch {
    return undefined;
  }
}

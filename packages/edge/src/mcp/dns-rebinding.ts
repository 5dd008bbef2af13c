import { foreignHost, hostNames, hostnameOf, loopbackHosts } from '../door/allowed-hosts.js';
import { jsonRpcError } from './wire.js';

/** Host/Origin validation of an MCP endpoint (`mountMcp`, `mcpFetch`), named as the MCP SDK names it. */
export interface DnsRebindingOptions {
  /**
   * Host names (no port, IPv6 in brackets) a request may name in its `Host` header. Default
   * `['localhost', '127.0.0.1', '[::1]']`, what `wrangler dev` serves on: a deployed Worker lists
   * the names it is reached at (`['tools.example.com']`). The HTTP door's option of the same name
   * ({@link index!ToolServerOptions.allowedHosts}) makes the same check.
   */
  allowedHosts?: readonly string[];
  /**
   * Origins (`https://app.example.com`) a request's `Origin` header may be. Default: any origin
   * whose host name is in `allowedHosts`. A request without `Origin` (not from a browser) passes.
   */
  allowedOrigins?: readonly string[];
  /** Host/Origin validation, against DNS rebinding. Default `true`. */
  enableDnsRebindingProtection?: boolean;
}

/**
 * A 403 for a request whose `Host` or `Origin` this endpoint does not serve, or `undefined`.
 * A page on a rebound name (`evil.example.com` resolving to 127.0.0.1) reaches a local server
 * with its own name in both headers, so both are checked, port-agnostic for hosts as the SDK's
 * `hostHeaderValidation` is. A request without `Host` comes from inside the platform (a service
 * binding, a test), never from a browser, and passes.
 */
export function refuseForeignHost(request: Request, options: DnsRebindingOptions): Response | undefined {
  if (options.enableDnsRebindingProtection === false) return undefined;
  const host = foreignHost(request, options.allowedHosts);
  if (host !== undefined) {
    return forbidden(
      `Forbidden: the Host header ${JSON.stringify(host)} is not one this MCP endpoint serves. Add its host name to allowedHosts.`,
    );
  }
  const origin = request.headers.get('origin');
  if (origin !== null) {
    const allowed = options.allowedOrigins
      ? options.allowedOrigins.includes(origin)
      : hostNames(options.allowedHosts ?? loopbackHosts).includes(hostnameOf(origin) ?? '');
    if (!allowed) {
      return forbidden(
        `Forbidden: the Origin ${JSON.stringify(origin)} may not use this MCP endpoint. Add it to allowedOrigins.`,
      );
    }
  }
  return undefined;
}

function forbidden(message: string): Response {
  return jsonRpcError(403, -32000, message);
}

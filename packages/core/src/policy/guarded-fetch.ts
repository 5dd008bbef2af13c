import { type ErrorInfo, ToolctxError } from '../errors.js';
import { checkEgress, type EgressPolicy, type EgressRefusalReason } from './egress.js';

/**
 * Options of {@link createGuardedFetch}.
 */
export interface GuardedFetchOptions {
  /** The egress policy every URL, and every redirect target, is checked against. */
  policy: EgressPolicy;
  /** The call's AbortSignal, read when a request is made (so an unused fetch costs nothing). */
  signal?: () => AbortSignal;
  /** The runtime's last word before data leaves (the taint check): an ErrorInfo refuses the request. */
  beforeSend?: () => ErrorInfo | null;
  /** The fetch to guard; `globalThis.fetch` when absent, looked up at call time. */
  fetchImpl?: typeof fetch;
}

/**
 * How many redirects a guarded fetch follows, each re-checked, before it gives up.
 */
export const MAX_REDIRECTS = 5;

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/**
 * A `fetch` that only goes where the egress policy allows: the URL is checked, then `beforeSend()`
 * (the taint check), then the request is made with `redirect: 'manual'` and up to
 * {@link MAX_REDIRECTS} redirects are followed by hand, each `Location` checked again, so a public
 * URL cannot bounce into the private network. A refusal throws a {@link ToolctxError} carrying the
 * policy's ErrorInfo. The call's signal is combined with `init.signal`. On a cross-origin redirect
 * the `Authorization`, `Cookie` and `Proxy-Authorization` headers are dropped, as browsers do.
 *
 * Browsers hide a redirect's target from `redirect: 'manual'` (an opaque response); a guarded
 * fetch refuses such a redirect rather than follow it blind.
 */
export function createGuardedFetch(
  options: GuardedFetchOptions,
): (input: string | URL | Request, init?: RequestInit) => Promise<Response> {
  const { policy, beforeSend } = options;
  return async (input, init = {}) => {
    const request = typeof input === 'string' || input instanceof URL ? undefined : input;
    let url = allowedTarget(request ? request.url : (input as string | URL), policy);
    const refusal = beforeSend?.();
    if (refusal) throw toError(refusal);

    const mode = init.redirect ?? request?.redirect ?? 'follow';
    let method = (init.method ?? request?.method ?? 'GET').toUpperCase();
    const headers = new Headers(init.headers ?? request?.headers);
    // A Request's body is read once into bytes: a stream could not be sent again after a 307.
    let body: BodyInit | null = init.body ?? (request?.body ? await request.arrayBuffer() : null);
    const signal = combineSignals([options.signal?.(), init.signal ?? undefined, request?.signal]);
    const doFetch =
      options.fetchImpl ?? ((i: string | URL | Request, n?: RequestInit) => globalThis.fetch(i, n));

    for (let hop = 0; ; hop++) {
      const hopInit: RequestInit & { duplex?: 'half' } = {
        ...init,
        method,
        headers,
        body,
        redirect: 'manual',
      };
      if (signal) hopInit.signal = signal;
      if (body instanceof ReadableStream) hopInit.duplex = 'half';
      const response = await doFetch(url.href, hopInit);
      if (mode === 'manual') return response;
      if (response.type === 'opaqueredirect') {
        if (mode === 'error') throw redirectModeError();
        throw refused(
          'opaque-redirect',
          url.hostname,
          `\`${url.hostname}\` answered with a redirect whose target this platform hides, so it cannot be checked.`,
        );
      }
      const location = REDIRECT_STATUSES.has(response.status) ? response.headers.get('location') : null;
      if (location === null) return response;
      if (mode === 'error') throw redirectModeError();
      await response.body?.cancel().catch(() => undefined);
      if (hop >= MAX_REDIRECTS) {
        throw refused(
          'too-many-redirects',
          url.hostname,
          `\`${url.hostname}\` redirected more than ${MAX_REDIRECTS} times; fetch the final URL directly.`,
        );
      }
      const next = allowedTarget(resolveLocation(location, url), policy, url.hostname);
      if (
        response.status === 303 ||
        ((response.status === 301 || response.status === 302) && method === 'POST')
      ) {
        if (method !== 'HEAD') method = 'GET';
        body = null;
        for (const name of ['content-type', 'content-length', 'content-encoding', 'content-language']) {
          headers.delete(name);
        }
      } else if (body instanceof ReadableStream) {
        throw refused(
          'unreplayable-redirect',
          url.hostname,
          `\`${url.hostname}\` redirected a request whose streamed body cannot be sent twice; send it to the final URL.`,
        );
      }
      if (next.origin !== url.origin) {
        for (const name of ['authorization', 'cookie', 'proxy-authorization']) headers.delete(name);
      }
      url = next;
    }
  };
}

/** The URL to send to, when the policy allows it; throws its refusal otherwise. */
function allowedTarget(target: string | URL, policy: EgressPolicy, redirectedFrom?: string): URL {
  const verdict = checkEgress(target, policy);
  if (verdict.ok) return verdict.url;
  if (redirectedFrom === undefined) throw toError(verdict.error);
  const { error } = verdict;
  throw toError({
    ...error,
    message: `${error.message} (\`${redirectedFrom}\` redirected there.)`,
    details: { ...error.details, redirectedFrom },
  });
}

function redirectModeError(): TypeError {
  return new TypeError('fetch failed: the server redirected and the request said redirect: "error".');
}

function resolveLocation(location: string, base: URL): string {
  try {
    return new URL(location, base).href;
  } catch {
    return location; // checkEgress reports it as an invalid URL, without echoing it
  }
}

function refused(reason: EgressRefusalReason, host: string, why: string): ToolctxError {
  return toError({
    kind: 'policy-refused',
    message: `Egress refused: ${why}`,
    retryable: false,
    details: { policy: 'egress', reason, host },
  });
}

function toError(info: ErrorInfo): ToolctxError {
  const error = new ToolctxError(info.kind, info.message, { retryable: info.retryable });
  Object.assign(error.info, info);
  return error;
}

function combineSignals(signals: Array<AbortSignal | undefined>): AbortSignal | undefined {
  const present = signals.filter((signal): signal is AbortSignal => signal !== undefined);
  const unique = [...new Set(present)];
  if (unique.length <= 1) return unique[0];
  return AbortSignal.any(unique);
}

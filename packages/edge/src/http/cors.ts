import type { MiddlewareHandler } from 'hono';
import { cors } from 'hono/cors';

/**
 * Which pages on other origins may call the HTTP door (CORS). Without it the door sends no CORS
 * headers, so only pages on its own origin can read its answers.
 *
 * @example
 * ```ts
 * import type { ToolServerCors } from '@toolctx/edge';
 * const corsOptions: ToolServerCors = {
 *   origins: ['https://app.example.com'],
 *   allowHeaders: ['x-user'], // request headers of your own, besides the door's
 * };
 * ```
 */
export interface ToolServerCors {
  /** Exact origins (`https://app.example.com`, scheme and port included), or a predicate. */
  origins: readonly string[] | ((origin: string) => boolean);
  /** Request headers a page may send besides the door's own (`authorization`, `content-type`, `last-event-id`, `accept`). */
  allowHeaders?: readonly string[];
  /** Send `Access-Control-Allow-Credentials: true`, for an `authenticate` that reads cookies. Default false. */
  credentials?: boolean;
  /** How long a browser may cache a preflight's answer, in seconds. Default 600. */
  maxAge?: number;
}

/** The request headers the browser clients send: the token, a JSON body, SSE resume. */
const doorRequestHeaders = ['authorization', 'content-type', 'last-event-id', 'accept', 'prefer'];

/**
 * The response headers a page's script must read: the call id (to cancel), when to retry after a
 * 429, where a new run lives, and the challenge of a 401.
 */
export const exposedHeaders = [
  'x-toolctx-call-id',
  'retry-after',
  'location',
  'content-location',
  'preference-applied',
  'www-authenticate',
];

/**
 * hono's `cors` for the door's routes. Mounted before authentication, so a preflight (which never
 * carries the token) is answered without it, and the headers reach every later answer: JSON,
 * streams and errors alike. Options that are a function of the bindings are read once per `env`
 * object, as `runtimeFor` is; `undefined` from it sends no CORS headers.
 */
export function corsMiddleware<E extends object>(
  options: ToolServerCors | ((env: E) => ToolServerCors | undefined),
): MiddlewareHandler<{ Bindings: E }> {
  if (typeof options !== 'function') return honoCors(options);
  const made = new WeakMap<object, MiddlewareHandler | undefined>();
  const middlewareFor = (env: E): MiddlewareHandler | undefined => {
    // Without bindings (a test's app.request), there is no object to remember it by.
    if (typeof env !== 'object' || env === null) return corsOrNone(options(env));
    if (!made.has(env)) made.set(env, corsOrNone(options(env)));
    return made.get(env);
  };
  return async (c, next) => {
    const middleware = middlewareFor(c.env);
    return middleware ? middleware(c, next) : next();
  };
}

function corsOrNone(options: ToolServerCors | undefined): MiddlewareHandler | undefined {
  return options ? honoCors(options) : undefined;
}

function honoCors(options: ToolServerCors): MiddlewareHandler {
  const { origins } = options;
  const allowed = typeof origins === 'function' ? origins : (origin: string) => origins.includes(origin);
  return cors({
    origin: (origin) => (origin !== '' && allowed(origin) ? origin : null),
    allowMethods: ['GET', 'HEAD', 'POST', 'DELETE'],
    allowHeaders: [...doorRequestHeaders, ...(options.allowHeaders ?? [])],
    exposeHeaders: exposedHeaders,
    credentials: options.credentials === true,
    maxAge: options.maxAge ?? 600,
  });
}
